// The used-item market: things people sell (listings with a price), searched by keyword and
// sorted by price, name or time either way. Like pull-to-refresh, it remembers the newest
// item the person has seen (in localStorage) and offers "N new since you looked": checked on
// arrival, every so often while the page is in front, when the tab comes back, and on demand.

import { api, query } from '../api.js';
import { h, field, heading, replace, announce, money, when, messageOf } from '../ui.js';
import { photo, conditionName } from '../listing-format.js';

const lookedKey = 'commons.market.looked';
const pageSize = 20;
const checkEvery = 20_000;

/** The sort choices: value → [label, sort, order, summary words]. */
const sorts = {
  'recent-desc': ['Newest first', 'recent', 'desc', 'newest first'],
  'recent-asc': ['Oldest first', 'recent', 'asc', 'oldest first'],
  'price-asc': ['Price: low to high', 'price', 'asc', 'cheapest first'],
  'price-desc': ['Price: high to low', 'price', 'desc', 'dearest first'],
  'title-asc': ['Name: A to Z', 'title', 'asc', 'by name, A to Z'],
  'title-desc': ['Name: Z to A', 'title', 'desc', 'by name, Z to A'],
  relevance: ['Best match', 'relevance', 'desc', 'best match first'],
};

/** What the person last looked at: the newest posting time seen, and the items posted at exactly that time. */
function looked() {
  try {
    const saved = JSON.parse(localStorage.getItem(lookedKey));
    if (saved && typeof saved.at === 'string' && Array.isArray(saved.ids)) return saved;
  } catch { /* never looked */ }
  return null;
}

/** Remembers that the person has seen `items` (and everything posted before them). */
function markLooked(items) {
  if (!items.length) return;
  const newest = items.reduce((a, b) => (Date.parse(b.postedAt) > Date.parse(a.postedAt) ? b : a));
  const previous = looked();
  const at = Date.parse(newest.postedAt);
  if (previous && Date.parse(previous.at) > at) return;
  const ids = items.filter((item) => Date.parse(item.postedAt) === at).map((item) => item.id);
  const sameMoment = previous && Date.parse(previous.at) === at ? previous.ids : [];
  localStorage.setItem(lookedKey, JSON.stringify({ at: newest.postedAt, ids: [...new Set([...sameMoment, ...ids])] }));
}

/** Whether `item` was posted after what the person last looked at. */
function isNew(item, mark) {
  if (!mark) return false;
  const at = Date.parse(item.postedAt), seen = Date.parse(mark.at);
  return at > seen || (at === seen && !mark.ids.includes(item.id));
}

function card(item, fresh) {
  return h('li', { class: 'result market-item' },
    photo(item),
    h('div', {},
      h('h3', {}, h('a', { href: `#/item/${encodeURIComponent(item.id)}` }, item.title)),
      h('p', { class: 'price' }, item.price ? money(item.price.amountMinor, item.price.currency) : 'Free'),
      h('p', { class: 'muted' }, `${item.category} · ${conditionName(item.condition)}`),
      h('p', { class: 'muted' }, h('time', { datetime: item.postedAt }, `Posted ${when(item.postedAt)}`),
        fresh ? [' ', h('span', { class: 'badge new-badge' }, 'New')] : null)));
}

export async function render(view, [sortParam, qParam = '']) {
  const state = { q: qParam, sort: sorts[sortParam] ? sortParam : (qParam ? 'relevance' : 'recent-desc') };
  if (state.sort === 'relevance' && !state.q) state.sort = 'recent-desc';
  let items = [];
  let nextCursor = null;
  let controller = null;
  let mark = looked();
  let newestAtArrival = [];
  let waiting = []; // posted since the person looked, not yet shown to them
  let timer = null;
  let stopped = false;

  const search = field('Search the market', 'q', { kind: 'search', value: state.q, placeholder: 'bike, lamp, textbook…' });
  const sort = field('Sort by', 'sort', { kind: 'select', value: state.sort, options: Object.entries(sorts).map(([value, [label]]) => [value, label]) });
  const sortControl = sort.querySelector('select');
  const bestMatch = sortControl.querySelector('option[value="relevance"]');
  const form = h('form', { class: 'toolbar card market-tools', role: 'search', 'aria-label': 'Search and sort the market' },
    h('div', { class: 'wide market-search' }, search, h('button', { type: 'submit' }, 'Search')),
    h('div', { class: 'wide' }, sort));
  const summary = h('p', { class: 'results-summary', role: 'status' });
  const results = h('ul', { class: 'results grid market-results', 'aria-label': 'Items for sale' });
  const more = h('button', { type: 'button', class: 'secondary market-more', hidden: true, onclick: () => load(true) }, 'Show more');
  const newsText = h('span', {});
  const news = h('div', { class: 'notice market-news', hidden: true },
    newsText, ' ', h('button', { type: 'button', class: 'secondary', onclick: () => showWaiting() }, 'Show them'));
  const newsRegion = h('div', { role: 'status', class: 'market-news-region' }, news);
  const shelf = h('section', { class: 'market-shelf', hidden: true, 'aria-labelledby': 'market-new-title' });
  const check = h('button', { type: 'button', class: 'secondary market-check', onclick: () => checkNew(true) }, 'Check for new items');
  const checked = h('span', { class: 'muted market-checked', role: 'status' });

  view.append(
    h('div', { class: 'spread market-head' }, heading('Market'), h('a', { class: 'button', href: '#/post' }, 'Sell something')),
    h('p', { class: 'muted market-intro' }, 'Used things people nearby sell. Free things are under ', h('a', { href: '#/free' }, 'Free'), '.'),
    newsRegion,
    shelf,
    form,
    h('div', { class: 'spread market-status' }, summary, h('div', { class: 'row' }, check, checked)),
    results,
    h('p', {}, more));

  const syncBestMatch = () => {
    bestMatch.disabled = !state.q;
    bestMatch.textContent = state.q ? 'Best match' : 'Best match (when searching)';
  };
  syncBestMatch();

  // The address keeps the sort and the words, so that a reload or a shared link shows the same.
  const remember = () => history.replaceState(null, '', `#/market/${state.sort}/${encodeURIComponent(state.q)}`);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = search.querySelector('input').value.trim();
    if (q && !state.q && state.sort === 'recent-desc') state.sort = 'relevance';
    if (!q && state.sort === 'relevance') state.sort = 'recent-desc';
    state.q = q;
    sortControl.value = state.sort;
    syncBestMatch();
    remember();
    load();
  });
  sortControl.addEventListener('change', () => {
    state.sort = sortControl.value;
    remember();
    load();
  });

  function describe() {
    const [, , , words] = sorts[state.sort];
    const count = `${items.length}${nextCursor ? '+' : ''}`;
    if (!items.length) {
      return state.q ? `Nothing for sale matches “${state.q}”. Try other words.` : 'Nothing is for sale yet.';
    }
    return `${count} ${items.length === 1 ? 'item' : 'items'}${state.q ? ` matching “${state.q}”` : ''}, ${words}`;
  }

  async function load(append = false) {
    controller?.abort();
    controller = new AbortController();
    const [, sortKey, order] = sorts[state.sort];
    const parameters = { minPrice: 1, q: state.q || undefined, sort: sortKey, order, limit: pageSize, cursor: append ? nextCursor : undefined };
    if (!append) summary.textContent = 'Loading…';
    more.disabled = true;
    try {
      const page = await api(`/v1/listings${query(parameters)}`, { signal: controller.signal });
      items = append ? [...items, ...page.items] : page.items;
      nextCursor = page.nextCursor || null;
      if (append) results.append(...page.items.map((item) => card(item, isNew(item, mark))));
      else replace(results, items.map((item) => card(item, isNew(item, mark))));
      summary.textContent = describe();
      more.hidden = !nextCursor;
    } catch (error) {
      if (error?.name === 'AbortError') return;
      summary.textContent = '';
      replace(results, h('li', { class: 'notice error', role: 'alert' }, `The market could not be loaded. ${messageOf(error)}`));
    } finally {
      more.disabled = false;
    }
  }

  /** The newest priced items, to compare with what the person last looked at. */
  async function newest() {
    const page = await api(`/v1/listings${query({ minPrice: 1, sort: 'recent', order: 'desc', limit: 50 })}`);
    return page.items;
  }

  async function checkNew(asked = false) {
    if (stopped) return;
    if (asked) check.disabled = true;
    try {
      const recent = await newest();
      if (stopped) return;
      if (!mark) {
        // A first visit sees everything there is; an empty market makes whatever comes next new.
        if (recent.length) markLooked(recent);
        else localStorage.setItem(lookedKey, JSON.stringify({ at: new Date(0).toISOString(), ids: [] }));
        mark = looked();
      }
      waiting = recent.filter((item) => isNew(item, mark));
      checked.textContent = '';
      if (waiting.length) {
        newsText.textContent = `${waiting.length}${waiting.length === 50 ? '+' : ''} new since you looked`;
        news.hidden = false;
      } else {
        news.hidden = true;
        if (asked) checked.textContent = 'Nothing new since you looked.';
      }
      return recent;
    } catch (error) {
      if (asked) checked.textContent = messageOf(error);
      return [];
    } finally {
      check.disabled = false;
    }
  }

  function showWaiting() {
    const shown = waiting;
    const title = heading('New since you looked', 2);
    title.id = 'market-new-title';
    replace(shelf, title, h('ul', { class: 'results grid' }, shown.map((item) => card(item, true))));
    shelf.hidden = false;
    news.hidden = true;
    markLooked(shown);
    mark = looked();
    waiting = [];
    title.focus();
    announce(`${shown.length} new ${shown.length === 1 ? 'item' : 'items'} shown.`);
  }

  // Arriving counts as looking at what was there already; what comes in meanwhile waits.
  const leave = () => markLooked(newestAtArrival);
  const onVisible = () => { if (document.visibilityState === 'visible') checkNew(); };
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', onVisible);

  await Promise.all([load(), checkNew().then((recent) => { newestAtArrival = recent; })]);
  timer = setInterval(() => { if (document.visibilityState === 'visible') checkNew(); }, checkEvery);

  return () => {
    stopped = true;
    clearInterval(timer);
    controller?.abort();
    window.removeEventListener('pagehide', leave);
    document.removeEventListener('visibilitychange', onVisible);
    leave();
  };
}
