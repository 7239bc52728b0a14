// A shopping list's edits that Commons has not confirmed yet. They are kept in localStorage
// (per account and list), so that an edit made offline survives a reload or a closed tab,
// and are sent as one batch to POST /v1/lists/{id}/commands when there is a connection. Each
// edit carries its own commandId and the service applies a commandId at most once, so
// sending a batch again (an answer lost on the way, two tabs sending the same queue) never
// doubles an edit. Quantities travel as changes (+1, −1), never as totals, so two people's
// edits of one item add up instead of one overwriting the other.

import { api, ApiError } from './api.js';
import { session } from './session.js';
import { newId } from './ui.js';

const maxBatch = 200;

function key(listId) { return `commons.list-queue.${session.current?.accountId || 'nobody'}.${listId}`; }

/** The edits of list `listId` waiting to be sent, oldest first. */
export function queued(listId) {
  try {
    const stored = JSON.parse(localStorage.getItem(key(listId)));
    return Array.isArray(stored) ? stored : [];
  } catch { return []; }
}

function keep(listId, commands) {
  if (commands.length) localStorage.setItem(key(listId), JSON.stringify(commands));
  else localStorage.removeItem(key(listId));
}

/**
 * Queues an edit: `{ type, itemId, productId, text, quantity, delta, name, … }` as the batch
 * route takes it, plus `shown` (what the page shows for it until Commons confirms it; never
 * sent). Answers the queued entry.
 */
export function enqueue(listId, command) {
  const entry = { commandId: newId(), ...command };
  keep(listId, [...queued(listId), entry]);
  return entry;
}

/** Forgets every edit of the list waiting here (the list is gone). */
export function forget(listId) { keep(listId, []); }

/**
 * Sends the oldest queued edits (at most 200) and takes those Commons answered for off the
 * queue. Answers `{ sent (the applied ones), rejected: [{ command, problem }], version }`. Throws when Commons
 * could not be reached or asks to wait (the edits stay queued), and ApiError 404 when the
 * list is gone or no longer shared with this person.
 */
export async function sendQueued(listId) {
  const batch = queued(listId).slice(0, maxBatch);
  if (batch.length === 0) return { sent: [], rejected: [], version: null };
  const wire = batch.map(({ shown, ...command }) => command);
  let answer;
  try {
    answer = await api(`/v1/lists/${encodeURIComponent(listId)}/commands`, { method: 'POST', body: { commands: wire } });
  } catch (error) {
    // A batch refused as malformed would be refused forever: its broken edits are dropped
    // (and reported) so that the others can go.
    if (error instanceof ApiError && error.status === 422) return dropMalformed(listId, batch, error);
    throw error;
  }
  const answered = new Set(Object.keys(answer.results || {}));
  keep(listId, queued(listId).filter((command) => !answered.has(command.commandId)));
  const rejected = batch
    .filter((command) => answer.results[command.commandId]?.status === 'rejected')
    .map((command) => ({ command, problem: answer.results[command.commandId].problem }));
  return { sent: batch.filter((command) => answer.results[command.commandId]?.status === 'applied'), rejected, version: answer.version };
}

function dropMalformed(listId, batch, error) {
  const broken = new Set();
  for (const path of Object.keys(error.fields)) {
    const index = /^commands\[(\d+)\]/.exec(path)?.[1];
    if (index !== undefined) broken.add(batch[Number(index)]?.commandId);
  }
  // Nothing names an edit: the batch as a whole is wrong, and none of it can ever go.
  if (broken.size === 0) batch.forEach((command) => broken.add(command.commandId));
  keep(listId, queued(listId).filter((command) => !broken.has(command.commandId)));
  const rejected = batch.filter((command) => broken.has(command.commandId)).map((command) => ({ command, problem: error.problem }));
  return { sent: [], rejected, version: null };
}
