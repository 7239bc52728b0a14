// Who gave: people's display names from their public profiles (GET /v1/users/{id}), each
// asked for once per page load, and "you" for the person signed in.

import { api } from './api.js';
import { session } from './session.js';

const names = new Map();

/** The display name of each of `ids`: a Map id → name ('Someone' when the profile is gone). */
export async function displayNames(ids) {
  for (const id of ids) {
    if (!names.has(id)) names.set(id, api(`/v1/users/${encodeURIComponent(id)}`).then((profile) => profile.displayName, () => 'Someone'));
  }
  const answer = new Map();
  for (const id of ids) answer.set(id, await names.get(id));
  return answer;
}

/** Whether `accountId` is the person signed in. */
export function isMe(accountId) {
  return Boolean(accountId) && session.current?.accountId?.toLowerCase() === String(accountId).toLowerCase();
}
