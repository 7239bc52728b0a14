// The people and listings a page names: public display names and listings fetched once per
// page load (several cards often name the same person), and a small queue that fetches many
// listings a few at a time, so that a list of results never opens dozens of requests at once.

import { api } from './api.js';
import { session } from './session.js';

const names = new Map();

/** Whether two ids name the same thing: services write UUIDs in either case. */
export function sameId(a, b) {
  return Boolean(a && b) && String(a).toLowerCase() === String(b).toLowerCase();
}

/** Whether `accountId` is the person signed in here. */
export function isMe(accountId) {
  return sameId(session.current?.accountId, accountId);
}

/** A person's public display name ("someone" when their account is gone). */
export function displayName(accountId) {
  if (isMe(accountId)) return Promise.resolve('you');
  const key = String(accountId).toLowerCase();
  if (!names.has(key)) {
    names.set(key, api(`/v1/users/${encodeURIComponent(key)}`)
      .then((profile) => profile.displayName || 'someone', () => 'someone'));
  }
  return names.get(key);
}

/**
 * Calls `each(listing)` for every id in `ids` with the whole listing (photos, pickup times),
 * at most `parallel` requests at a time; stops when `signal` aborts. A listing that cannot be
 * read is skipped: the card already shows what the search said.
 */
export async function eachListing(ids, each, { parallel = 4, signal } = {}) {
  const queue = [...ids];
  const worker = async () => {
    while (queue.length && !signal?.aborted) {
      const id = queue.shift();
      try {
        each(await api(`/v1/listings/${encodeURIComponent(id)}`, { signal }));
      } catch { /* shown without its details */ }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, worker));
}
