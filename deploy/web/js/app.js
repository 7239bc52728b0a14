// The app's frame: routes in the URL's hash (#/free, #/item/<id>, …), so that any link can
// be bookmarked and reloaded with nothing but static files behind it. Each page is a module
// loaded when first shown, so the first load fetches only this frame and one page. A page
// module exports `render(view, params)`, which may return a function that stops what the
// page started (a live stream, a timer) when the person leaves it.

import { startAlerts } from './alerts-live.js';
import { startAppShell } from './app-shell.js';
import { session } from './session.js';
import { h, replace, heading, messageOf } from './ui.js';

/** Route name → [section highlighted in the tabs, page module, needs a signed-in person]. */
const routes = {
  free: ['free', './pages/free.js', false],
  item: ['free', './pages/item.js', false],
  post: ['free', './pages/post.js', true],
  mine: ['free', './pages/mine.js', true],
  market: ['market', './pages/market.js', false],
  give: ['give', './pages/give.js', false],
  organization: ['give', './pages/organization.js', false],
  donations: ['give', './pages/donations.js', true],
  lists: ['lists', './pages/lists.js', true],
  list: ['lists', './pages/list.js', true],
  alerts: ['alerts', './pages/alerts.js', true],
  account: ['account', './pages/account.js', false],
  'sign-in': ['account', './pages/sign-in.js', false],
  messages: ['account', './pages/messages.js', true],
  admin: ['account', './pages/admin.js', true],
};

const view = document.getElementById('view');
let stop = null;
let shown = 0;

/** Goes to `#/<path>` (or re-renders when already there). */
export function go(path) {
  if (location.hash === `#/${path}`) render();
  else location.hash = `#/${path}`;
}

async function render() {
  const [name = 'free', ...params] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const route = routes[name] || routes.free;
  const turn = ++shown;
  if (stop) { try { stop(); } catch { /* the old page is gone either way */ } stop = null; }
  document.querySelectorAll('.tabs a').forEach((tab) => {
    if (tab.dataset.section === route[0]) tab.setAttribute('aria-current', 'page'); else tab.removeAttribute('aria-current');
  });
  if (route[2] && !session.signedIn) {
    location.replace(`#/sign-in/${encodeURIComponent(location.hash.slice(2))}`);
    return;
  }
  try {
    const page = await import(route[1]);
    if (turn !== shown) return; // the person already moved on
    replace(view);
    const stopper = await page.render(view, params);
    if (turn !== shown) { if (typeof stopper === 'function') stopper(); return; }
    stop = typeof stopper === 'function' ? stopper : null;
    const title = view.querySelector('h1');
    document.title = title ? `${title.textContent} · Commons` : 'Commons';
    if (document.activeElement === document.body || !view.contains(document.activeElement)) (title || view).focus({ preventScroll: true });
    window.scrollTo(0, 0);
  } catch (error) {
    if (turn !== shown) return;
    // The session ended (signed out elsewhere, expired, account deleted): sign in again.
    if (error?.status === 401 && !session.signedIn) {
      location.replace(`#/sign-in/${encodeURIComponent(location.hash.slice(2))}/ended`);
      return;
    }
    replace(view, heading('Something went wrong'), h('p', { class: 'notice error', role: 'alert' }, messageOf(error)),
      h('p', {}, h('a', { href: '#/free' }, 'Back to free things near you')));
    console.warn(error);
  }
}

function showWho(current) {
  const who = document.getElementById('who');
  replace(who, current
    ? h('a', { href: '#/account' }, current.displayName ? `Signed in as ${current.displayName}` : 'Signed in')
    : h('a', { href: '#/sign-in' }, 'Sign in'));
}

session.onChange((current) => {
  showWho(current);
  // Signed out in another tab, or the session ended: leave pages that need one.
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  if (!current && routes[name]?.[2]) render();
});
showWho(session.current);
window.addEventListener('hashchange', render);
render();
startAppShell();
startAlerts();
