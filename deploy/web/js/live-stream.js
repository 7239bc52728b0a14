// One of Commons' server-sent-event streams, followed while a page shows it. The EventSource
// carries the session cookies and, when it reconnects by itself, resumes after the
// Last-Event-ID it saw. The stream is closed while the browser is offline, so that nothing is
// asked of a network that is not there, and opened again when the connection returns.

import { session } from './session.js';

/**
 * Follows the stream at `path`: `events` maps each event name to a function of its parsed
 * data. `onReconnect()` runs when the stream starts again after a break; `onGone()` when it
 * can not be opened any more (refused five times). Answers a function that stops following.
 */
export function follow(path, { events, onReconnect, onGone }) {
  let source = null;
  let stopped = false;
  let retry = null;
  let failures = 0;

  const open = () => {
    if (stopped || source || !navigator.onLine) return;
    const opened = new EventSource(path);
    source = opened;
    opened.addEventListener('open', () => {
      if (failures > 0 || opened.reconnected) onReconnect?.();
      failures = 0;
      opened.reconnected = true;
    });
    for (const [name, handle] of Object.entries(events)) {
      opened.addEventListener(name, (event) => {
        try { handle(JSON.parse(event.data)); } catch (error) { console.warn(`An unreadable ${name} event`, error); }
      });
    }
    opened.addEventListener('error', async () => {
      // CONNECTING: the browser reconnects by itself, with Last-Event-ID. CLOSED: it was
      // refused (a session that expired meanwhile, or a thing that is gone); refresh the
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
