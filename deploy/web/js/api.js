// The one way pages talk to Commons: same-origin requests carrying the session cookies,
// the CSRF echo on every change, and read-your-writes. Every write answers with
// Commons-Position (where it is in the log); the newest one is sent as Commons-Min-Position
// with every read, so whichever service answers waits until it has read that write, and a
// person sees their own change on every page right after making it.

import { csrfToken, session } from './session.js';

const positionKey = 'commons.position';

/** A problem document (RFC 9457) the API answered with. `fields` maps a field to sentences. */
export class ApiError extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `The request failed (${status}).`);
    this.status = status;
    this.problem = problem;
    this.fields = problem.errors || {};
  }
}

/** The ApiError of a failed answer; a body that is not a problem document still becomes one. */
export async function errorOf(response) {
  let problem;
  try { problem = await response.json(); } catch { problem = {}; }
  if (typeof problem !== 'object' || problem === null) problem = {};
  if (!problem.detail && !problem.title) {
    problem.detail = response.status >= 500 ? 'Commons could not answer just now. Try again in a moment.' : `The request failed (${response.status}).`;
  }
  return new ApiError(problem, response.status);
}

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

/** The newest write this browser made, as Commons-Min-Position. */
export function lastPosition() { return sessionStorage.getItem(positionKey); }

/** Remembers a write's position from its answer. */
export function notePosition(response) {
  const position = response.headers.get('Commons-Position');
  if (position) sessionStorage.setItem(positionKey, position);
}

/**
 * Sends a request and answers with the parsed JSON (null for 204), or throws ApiError.
 * options: method, body (an object is sent as JSON; a Blob or FormData as is), headers,
 * idempotencyKey (for routes that require one; pass the same key to retry), raw (answer the
 * Response itself), signal, retryBusy (a request that is safe to send again: while the service
 * answers 429 or 503, busy, it is sent again after the Retry-After it gave, up to ten times).
 */
export async function api(path, options = {}) {
  const { method = 'GET', body, headers = {}, idempotencyKey, raw = false, signal, retryBusy = false } = options;
  await session.fresh();
  const send = () => {
    const init = { method, credentials: 'same-origin', signal, headers: { Accept: 'application/json', ...headers } };
    if (body instanceof Blob || body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
    if (method === 'GET') {
      const position = lastPosition();
      // A position the caller names (a live stream's) is waited for instead.
      if (position && !headers['Commons-Min-Position']) init.headers['Commons-Min-Position'] = position;
    } else {
      const csrf = csrfToken();
      if (csrf) init.headers['X-CSRF-Token'] = csrf;
    }
    if (idempotencyKey) init.headers['Idempotency-Key'] = idempotencyKey;
    return fetch(path, init);
  };
  let response = await send();
  if (response.status === 401 && session.signedIn && (await session.refresh())) response = await send();
  // A service still catching up with this browser's last write, or a passing outage: once more.
  if (response.status === 503 && method === 'GET') {
    await sleep(Math.min(Number(response.headers.get('Retry-After') || 1), 3) * 1000);
    response = await send();
  }
  // A service busy with others' work (photos being cleaned): wait as asked, then again.
  for (let attempt = 0; retryBusy && attempt < 10 && (response.status === 429 || response.status === 503); attempt += 1) {
    await sleep(Math.min(Math.max(Number(response.headers.get('Retry-After') || 1), 1), 10) * 1000);
    response = await send();
  }
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && session.signedIn) session.forget();
    throw error;
  }
  notePosition(response);
  if (raw) return response;
  if (response.status === 204 || response.status === 202 && !response.headers.get('Content-Type')) return null;
  return response.json();
}

/** A query string of the defined values of `parameters`, with its `?`, or ''. */
export function query(parameters) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
