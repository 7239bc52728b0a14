// New matches of my saved searches, as they happen: one stream (GET /v1/alerts/stream,
// server-sent events) for as long as the person is signed in and the browser online. The
// stream starts from the person's read marker, so what it delivers is what they have not read;
// the count shows on the Alerts tab. Reading the matches (GET /v1/alerts/matches, the alerts
// page) moves the marker and empties the count. The matches read lately are kept on this
// device for the alerts page's "Earlier" list, and forgotten on sign-out.

import { session } from './session.js';

const earlierKey = 'commons.alerts.earlier';
const earlierKept = 50;
const listeners = new Set();
const unread = new Map(); // match id → match, delivered and not yet read
const read = new Set();   // match ids read in this page's life (a stream opened earlier may still send them)
let source = null;
let retry = null;
let failures = 0;
let account = null;

const notify = () => { for (const listener of listeners) listener(unread.size); };

/** The unread matches of my alerts, and what changes them. */
export const alerts = {
  /** How many matches arrived that the person has not read. */
  get unread() { return unread.size; },

  /** Calls `listener(count)` whenever the unread count changes; answers a function that stops it. */
  onChange(listener) { listeners.add(listener); return () => listeners.delete(listener); },

  /** The ids of the unread matches, as they are now. */
  pending() { return [...unread.keys()]; },

  /**
   * Marks `matches` read (GET /v1/alerts/matches answered them) and keeps them for "Earlier";
   * also the ids `covered`, delivered before that read began: it answered every unread match
   * there was, so one it left out is no match any more (taken, or withdrawn meanwhile).
   */
  markRead(matches, covered = []) {
    for (const id of covered) { read.add(id); unread.delete(id); }
    for (const match of matches) { read.add(match.id); unread.delete(match.id); }
    if (matches.length) remember(matches);
    notify();
  },

  /** The matches read lately on this device, newest first. */
  earlier() {
    try { return JSON.parse(localStorage.getItem(`${earlierKey}.${session.current?.accountId}`)) || []; } catch { return []; }
  },
};

function remember(matches) {
  const known = alerts.earlier().filter((old) => !matches.some((match) => match.id === old.id));
  const kept = [...matches].reverse().concat(known).slice(0, earlierKept);
  try { localStorage.setItem(`${earlierKey}.${session.current?.accountId}`, JSON.stringify(kept)); } catch { /* storage full: keep none */ }
}

function open() {
  if (source || !session.signedIn || !navigator.onLine) return;
  const opened = new EventSource('/v1/alerts/stream');
  source = opened;
  opened.addEventListener('open', () => { failures = 0; });
  opened.addEventListener('match', (event) => {
    let match;
    try { match = JSON.parse(event.data); } catch (error) { console.warn('An unreadable alert match', error); return; }
    if (read.has(match.id) || unread.has(match.id)) return;
    unread.set(match.id, match);
    notify();
  });
  opened.addEventListener('error', async () => {
    // CONNECTING: the browser resumes by itself (with Last-Event-ID). CLOSED: refused, as
    // when the access token inside the cookie expired; refresh it and open again, slower each time.
    if (opened.readyState !== EventSource.CLOSED) return;
    close();
    failures += 1;
    if (failures > 6) return;
    await session.fresh().catch(() => {});
    retry = setTimeout(open, 1000 * 2 ** failures);
  });
}

function close() {
  clearTimeout(retry);
  source?.close();
  source = null;
}

/** Follows my alerts while signed in: the stream, and the count on the Alerts tab. */
export function startAlerts() {
  const tab = document.querySelector('.tabs a[data-section=alerts]');
  const count = tab?.querySelector('.tab-count');
  const draw = (n) => {
    if (!tab || !count) return;
    count.textContent = n ? String(n > 99 ? '99+' : n) : '';
    if (n) tab.setAttribute('aria-label', `Alerts, ${n} new`); else tab.removeAttribute('aria-label');
  };
  alerts.onChange(draw);
  account = session.current?.accountId || null;
  session.onChange((current) => {
    const now = current?.accountId || null;
    if (now === account) return;
    // Signed out, or someone else signed in: nothing of the last person stays.
    close();
    if (account) localStorage.removeItem(`${earlierKey}.${account}`);
    unread.clear();
    read.clear();
    failures = 0;
    account = now;
    notify();
    open();
  });
  window.addEventListener('online', () => { failures = 0; open(); });
  window.addEventListener('offline', close);
  // A token refresh keeps the cookie the stream reconnects with valid.
  setInterval(() => { if (source && navigator.onLine) session.fresh().catch(() => {}); }, 30_000);
  draw(0);
  open();
}
