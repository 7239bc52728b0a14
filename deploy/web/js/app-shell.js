// The app on this device (see sw.js): registers the service worker, offers a new version
// when one is served ("A new version of Commons is ready" with Reload), says when the
// browser is offline, and makes the worker forget the answers it kept (my lists, the feed)
// when the person signs out or another person signs in.

import { session } from './session.js';
import { h, replace } from './ui.js';

const answersCache = 'commons-answers';

/** Starts the service worker and the notes that go with it; does nothing where there is none. */
export function startAppShell() {
  showOffline();
  forgetOnSignOut();
  if (!('serviceWorker' in navigator)) return;
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // Only after the person chose Reload: the first install also takes the page over.
    if (reloading) location.reload();
  });
  const offer = (worker) => {
    if (!worker || !navigator.serviceWorker.controller) return;
    showUpdate(() => { reloading = true; worker.postMessage({ type: 'update' }); });
  };
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).then((registration) => {
    offer(registration.waiting);
    registration.addEventListener('updatefound', () => {
      const worker = registration.installing;
      worker?.addEventListener('statechange', () => { if (worker.state === 'installed') offer(worker); });
    });
    // A tab left open for days still hears of new versions: look when it is shown again.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && navigator.onLine) registration.update().catch(() => {});
    });
  }, (error) => console.warn('The app could not be set up for offline use', error));
}

function showUpdate(update) {
  const slot = document.getElementById('update');
  if (!slot || slot.childElementCount) return;
  const reload = h('button', { type: 'button', onclick: () => { reload.disabled = true; update(); } }, 'Reload');
  const later = h('button', { type: 'button', class: 'secondary', onclick: () => replace(slot) }, 'Not now');
  replace(slot, h('p', {}, 'A new version of Commons is ready.'), h('div', { class: 'row' }, reload, later));
}

function showOffline() {
  const slot = document.getElementById('offline');
  if (!slot) return;
  const draw = () => {
    slot.textContent = navigator.onLine ? '' : 'You are offline. Pages show what this device last saw.';
  };
  window.addEventListener('online', draw);
  window.addEventListener('offline', draw);
  draw();
}

function forgetOnSignOut() {
  let account = session.current?.accountId || null;
  session.onChange((current) => {
    const now = current?.accountId || null;
    if (account && now !== account) forgetAnswers();
    account = now;
  });
}

/** Drops every API answer kept on this device (in the worker, and any it is still fetching). */
export function forgetAnswers() {
  navigator.serviceWorker?.controller?.postMessage({ type: 'forget' });
  return globalThis.caches?.delete(answersCache).catch(() => false);
}
