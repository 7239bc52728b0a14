// A shopping list's changes as they happen, from GET /v1/lists/{id}/events (live-stream.js).
// A new stream starts with the list as it is now (a snapshot); one the browser resumes sends
// only what it missed.

import { follow } from './live-stream.js';

/**
 * Calls `onSnapshot(list)` with the whole list when a stream starts afresh (the list as
 * GET /v1/lists/{id} answers it), `onChange(change)` for each change after it
 * (`change.version` is the list's version after it), and `onReconnect()` when the stream
 * starts again after a break. `onGone()` when the stream can not be opened any more (the
 * list was deleted, or is no longer shared with this person). Answers a function that stops
 * watching.
 */
export function watchList(listId, { onSnapshot, onChange, onReconnect, onGone }) {
  return follow(`/v1/lists/${encodeURIComponent(listId)}/events`, {
    events: { snapshot: onSnapshot, change: onChange }, onReconnect, onGone,
  });
}

/**
 * Follows changes to my lists (GET /v1/lists/events): `onReady(position)` when a stream
 * starts afresh (my lists read at `position` miss nothing that follows), `onChange(change)` for
 * each list made, shared with me, left, renamed or deleted. Answers a function that stops it.
 */
export function watchMyLists({ onReady, onChange, onReconnect }) {
  return follow('/v1/lists/events', { events: { ready: (start) => onReady(start.position), list: onChange }, onReconnect });
}
