// Commons on this device: the service worker of the installed app, at the root scope.
//
// - The app shell (the page, its style, every module, the icons) is stored at install and
//   served from this device, so the app opens without a network and always runs the files
//   of one version together. Other files of the app (product pictures) are kept as they are
//   first shown. A new version of the app is a new sw.js: the browser installs it beside
//   this one, the page offers to reload (app-shell.js), and the new worker takes over only
//   when the person says so.
// - The answers of the pages a person reads offline (the free feed's search, the listings
//   and photos it shows, my lists, a list) are asked of the network first; the last good
//   answer of each is kept and given when the network cannot answer. Nothing else the API
//   answers is kept. The page clears them when its person signs out (message "forget").
//
// The lines between the shell markers are written by scripts/make-web-shell.py: run it after
// changing any file of the app (scripts/check-deploy.sh fails until it is run).

// shell:begin
const version = '4cf9886b7c8aa3f6';
const shell = [
  '/',
  '/app.css',
  '/manifest.webmanifest',
  '/img/icon.svg',
  '/img/app-192.png',
  '/img/app-512.png',
  '/img/app-maskable-512.png',
  '/js/admin-log.js',
  '/js/admin-organizations.js',
  '/js/admin-projections.js',
  '/js/admin-reports.js',
  '/js/alerts-live.js',
  '/js/api.js',
  '/js/app-shell.js',
  '/js/app.js',
  '/js/comments.js',
  '/js/give-centres.js',
  '/js/give-charities.js',
  '/js/give-donate.js',
  '/js/give-feed.js',
  '/js/give-format.js',
  '/js/give-history.js',
  '/js/give-impact.js',
  '/js/give-people.js',
  '/js/give-supporters.js',
  '/js/give-wallet.js',
  '/js/list-items.js',
  '/js/list-live.js',
  '/js/list-products.js',
  '/js/list-queue.js',
  '/js/list-sharing.js',
  '/js/list-state.js',
  '/js/listing-format.js',
  '/js/listing-people.js',
  '/js/live-stream.js',
  '/js/map.js',
  '/js/place.js',
  '/js/session.js',
  '/js/ui.js',
  '/js/pages/account.js',
  '/js/pages/admin.js',
  '/js/pages/alerts.js',
  '/js/pages/donations.js',
  '/js/pages/free.js',
  '/js/pages/give.js',
  '/js/pages/item.js',
  '/js/pages/list.js',
  '/js/pages/lists.js',
  '/js/pages/market.js',
  '/js/pages/messages.js',
  '/js/pages/mine.js',
  '/js/pages/organization.js',
  '/js/pages/post.js',
  '/js/pages/sign-in.js',
];
// shell:end

const shellCache = `commons-shell-${version}`;
const answersCache = 'commons-answers';
const keptAnswers = 400;

/** API reads kept for offline reading; every other API answer is left alone. */
const kept = [
  /^\/v1\/nearby\/listings$/,
  /^\/v1\/listings\/[0-9A-Fa-f-]{36}$/,
  /^\/v1\/images\/[^?]+$/,
  /^\/v1\/lists$/,
  /^\/v1\/lists\/[0-9A-Fa-f-]{36}$/,
];

/** Paths of the app's own files (besides the shell list itself). */
const appFiles = /^\/(js\/|img\/|app\.css$|manifest\.webmanifest$)/;

// Every change to the kept answers goes through this chain, so that a "forget" is never
// followed by an answer fetched before it: each write checks the generation it began in.
let generation = 0;
let writes = Promise.resolve();
const serially = (step) => { writes = writes.then(step, step); return writes; };

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(shellCache).then((cache) =>
    cache.addAll(shell.map((path) => new Request(path, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('commons-shell-') && name !== shellCache) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data?.type === 'update') self.skipWaiting();
  if (event.data?.type === 'forget') event.waitUntil(forget());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (url.pathname === '/' || url.pathname === '/index.html') event.respondWith(fromShell(new Request('/'), request));
  } else if (kept.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(networkFirst(event, request));
  } else if (appFiles.test(url.pathname)) {
    event.respondWith(fromShell(request, request));
  }
});

/** The shell's copy of `key`; else the network's answer (kept when it is one of the app's files). */
async function fromShell(key, request) {
  const cache = await caches.open(shellCache);
  const stored = await cache.match(key, { ignoreSearch: request.mode === 'navigate' });
  if (stored) return stored;
  const response = await fetch(request);
  if (response.status === 200 && request.mode !== 'navigate') await cache.put(request, response.clone());
  return response;
}

/** The network's answer, kept for later; the kept one when the network cannot answer. */
async function networkFirst(event, request) {
  const began = generation;
  let response;
  try {
    response = await fetch(request);
  } catch (failure) {
    const stored = await caches.open(answersCache).then((cache) => cache.match(request, { ignoreVary: true }));
    if (stored) return stored;
    throw failure;
  }
  if (response.status === 200) {
    const copy = response.clone();
    event.waitUntil(serially(async () => {
      if (began !== generation) return; // asked before the person signed out: not kept
      const cache = await caches.open(answersCache);
      await cache.put(request, copy);
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - keptAnswers))) await cache.delete(old);
    }));
  }
  return response;
}

/** Drops every kept answer, and any answer still on its way. */
function forget() {
  generation += 1;
  return serially(() => caches.delete(answersCache));
}
