// A shopping list's changes as they happen, from GET /v1/lists/{id}/events (server-sent
// events; the EventSource carries the session cookies and, when it reconnects by itself,
// resumes after the Last-Event-ID it saw). The stream is closed while the browser is offline,
// so that nothing is asked of a network that is not there, and opened again when the
// connection returns; the page then reloads the list to catch up.

import { session } from './session.js';

/**
 * Calls `onChange(change)` for each change of list `listId` (`change.version` is the list's
 * version after it), and `onReconnect()` when the stream starts again after a break.
 * `onGone()` when the stream can not be opened any more (the list was deleted, or is no
 * longer shared with this person). Answers a function that stops watching.
 */
export function watchList(listId, { onChange, onReconnect, onGone }) {
  let source = null;
  let stopped = false;
  let retry = null;
  let failures = 0;

  const open = () => {
    if (stopped || source || !navigator.onLine) return;
    const opened = new EventSource(`/v1/lists/${encodeURIComponent(listId)}/events`);
    source = opened;
    opened.addEventListener('open', () => {
      if (failures > 0 || opened.reconnected) onReconnect?.();
      failures = 0;
      opened.reconnected = true;
    });
    opened.addEventListener('change', (event) => {
      try { onChange(JSON.parse(event.data)); } catch (error) { console.warn('An unreadable list change', error); }
    });
    opened.addEventListener('error', async () => {
      // CONNECTING: the browser reconnects by itself, with Last-Event-ID. CLOSED: it was
      // refused (a session that expired meanwhile, or a list that is gone); refresh the
      // session and try again a few times, slower each time.
      if (opened.readyState !== EventSource.CLOSED) return;
      close();
      failures += 1;
      if (failures > 4) { onGone?.(); return; }
      await session.fresh().catch(() => {});
      retry = setTimeout(open, 1000 * 2 ** failures);
    });
  };
  const close = () => {
    clearTimeout(retry);
    source?.close();
    source = null;
  };
  const online = () => { failures = Math.max(failures, 1); open(); };
  const offline = () => close();
  // The stream ends when the access token does; refreshing before then lets the browser's
  // own reconnect carry a valid cookie and resume where it left off.
  const keepFresh = setInterval(() => { if (navigator.onLine) session.fresh().catch(() => {}); }, 30_000);

  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  open();
  return () => {
    stopped = true;
    close();
    clearInterval(keepFresh);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}
