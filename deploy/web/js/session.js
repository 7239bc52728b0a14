// The browser's session with Commons. The tokens live in HttpOnly cookies the accounts
// service sets (Commons-Token-Delivery: cookie); this page never sees them. What it keeps in
// localStorage is not secret: who is signed in and when the access token inside the cookie
// expires, so that it refreshes the session before then (a request with an expired cookie is
// answered as if anonymous). Refreshing rotates the refresh token, so two tabs must never do
// it at once: a Web Lock serialises them, and the second finds the session already fresh.

const storageKey = 'commons.session';
const refreshMargin = 60_000;
const listeners = new Set();

/** The cookie scripts may read: the CSRF token every change must echo as X-CSRF-Token. */
export function csrfToken() {
  const entry = document.cookie.split('; ').find((c) => c.startsWith('__Host-commons-csrf='));
  return entry ? entry.slice('__Host-commons-csrf='.length) : null;
}

function read() {
  try { return JSON.parse(localStorage.getItem(storageKey)) || null; } catch { return null; }
}

function write(value) {
  if (value) localStorage.setItem(storageKey, JSON.stringify(value));
  else localStorage.removeItem(storageKey);
  for (const listener of listeners) listener(value);
}

// Another tab signed in, out or refreshed: the cookies are shared, so only the page changes.
window.addEventListener('storage', (event) => {
  if (event.key === storageKey) for (const listener of listeners) listener(read());
});

async function problemOf(response) {
  try { return await response.json(); } catch { return { title: response.statusText, status: response.status }; }
}

/** What the app knows of the session: `{ accountId, sessionId, expiresAt, displayName }` or null. */
export const session = {
  get current() { return read(); },
  get signedIn() { return read() !== null; },

  /** Calls `listener(current)` whenever the session starts, ends or changes. */
  onChange(listener) { listeners.add(listener); return () => listeners.delete(listener); },

  /** Signs up (`/v1/accounts`) or in (`/v1/sessions`); throws the problem document on failure. */
  async start(path, body, displayName) {
    const headers = { 'Content-Type': 'application/json', 'Commons-Token-Delivery': 'cookie' };
    const csrf = csrfToken();
    if (csrf) headers['X-CSRF-Token'] = csrf;
    const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' });
    if (!response.ok) throw Object.assign(new Error('session'), { problem: await problemOf(response), status: response.status });
    const answer = await response.json();
    const position = response.headers.get('Commons-Position');
    if (position) sessionStorage.setItem('commons.position', position);
    write({ accountId: answer.accountId, sessionId: answer.sessionId, expiresAt: Date.now() + answer.expiresIn * 1000, displayName });
    return answer;
  },

  /** Refreshes now; false (and signed out) when the session has ended. */
  async refresh() {
    const run = async () => {
      const current = read();
      if (!current) return false;
      if (current.expiresAt - Date.now() > refreshMargin) return true; // another tab just did it
      let response;
      try {
        response = await fetch('/v1/sessions/refresh', {
          method: 'POST', credentials: 'same-origin', body: '{}',
          headers: { 'Content-Type': 'application/json', 'Commons-Token-Delivery': 'cookie', 'X-CSRF-Token': csrfToken() || '' },
        });
      } catch {
        return true; // offline: keep the session; the pages read what this device kept
      }
      if (response.status === 401 || response.status === 422 || response.status === 403) { write(null); return false; }
      if (!response.ok) return true; // a passing outage: keep the session and try on the next request
      const answer = await response.json();
      write({ ...current, expiresAt: Date.now() + answer.expiresIn * 1000 });
      return true;
    };
    return navigator.locks ? navigator.locks.request('commons-session-refresh', run) : run();
  },

  /** Refreshes first when the access token is about to expire. */
  async fresh() {
    const current = read();
    if (current && current.expiresAt - Date.now() <= refreshMargin) await this.refresh();
  },

  /** Remembers the display name shown in the header. */
  remember(displayName) {
    const current = read();
    if (current && current.displayName !== displayName) write({ ...current, displayName });
  },

  /** Forgets the session in this browser (the server ended it, or will). */
  forget() { write(null); },
};
