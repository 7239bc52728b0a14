// Alerts (#/alerts): what my saved searches found. New matches are read when the page opens
// (GET /v1/alerts/matches, which moves my read marker and so empties the count on the tab),
// and again whenever the live stream brings another while the page is open; the ones read
// lately on this device are listed under "Earlier". Below: my saved searches, to delete.
// A search is saved from the free feed ("Tell me about new ones").

import { api } from '../api.js';
import { alerts } from '../alerts-live.js';
import { h, heading, replace, announce, alertError, when, money } from '../ui.js';

export async function render(view) {
  const fresh = h('ul', { class: 'results alert-matches', 'aria-labelledby': 'new-matches-title' });
  const earlier = h('ul', { class: 'results alert-matches', 'aria-labelledby': 'earlier-matches-title' });
  const saved = h('div', { class: 'saved-alerts' }, h('p', { class: 'loading' }, 'Loading your saved searches…'));
  const empty = h('p', { class: 'muted' }, 'Nothing new yet. New items that match a saved search appear here as they are posted.');
  const older = h('section', { 'aria-labelledby': 'earlier-matches-title' }, h('h2', { id: 'earlier-matches-title' }, 'Earlier'), earlier);
  view.append(heading('Alerts'),
    h('section', { 'aria-labelledby': 'new-matches-title' }, h('h2', { id: 'new-matches-title' }, 'New for you'), empty, fresh),
    older,
    h('section', { 'aria-labelledby': 'saved-alerts-title' }, h('h2', { id: 'saved-alerts-title' }, 'Your saved searches'), saved));

  const shownHere = new Set();
  const drawEarlier = () => {
    const items = alerts.earlier().filter((match) => !shownHere.has(match.id));
    replace(earlier, items.map(matchCard));
    older.hidden = items.length === 0;
  };
  drawEarlier();

  // Reads what is new (and so marks it read), a page at a time; one read at a time.
  let reading = null;
  let again = false;
  const readNew = async () => {
    if (reading) { again = true; return reading; }
    reading = (async () => {
      do {
        again = false;
        const covered = alerts.pending();
        let page;
        do {
          page = await api('/v1/alerts/matches?limit=100');
          const found = page.items.filter((match) => !shownHere.has(match.id));
          found.forEach((match) => shownHere.add(match.id));
          fresh.prepend(...[...found].reverse().map(matchCard));
          alerts.markRead(page.items, page.hasMore ? [] : covered);
          if (found.length) announce(found.length === 1 ? '1 new match.' : `${found.length} new matches.`);
        } while (page.hasMore);
      } while (again);
      empty.hidden = shownHere.size > 0;
    })().finally(() => { reading = null; });
    return reading;
  };

  const stop = alerts.onChange((count) => { if (count > 0) readNew().catch((error) => alertError(error)); });
  try {
    await Promise.all([readNew(), showSaved(saved)]);
  } catch (error) {
    alertError(error);
  }
  drawEarlier();
  return stop;
}

function matchCard(match) {
  const listing = match.listing;
  const price = listing.free ? 'Free' : listing.price ? money(listing.price.amountMinor, listing.price.currency) : '';
  return h('li', { class: 'result alert-match', dataset: { listingId: listing.id } },
    h('div', { class: 'result-body' },
      h('h3', {}, h('a', { href: `#/item/${listing.id}` }, listing.title)),
      h('p', { class: 'muted' }, h('span', { class: 'badge' }, listing.category), ' ', price, ' · posted ', when(listing.postedAt)),
      h('p', { class: 'clamp' }, listing.description)));
}

async function showSaved(where) {
  const { items } = await api('/v1/alerts');
  if (items.length === 0) {
    replace(where, h('p', { class: 'muted' }, 'No saved searches yet. ',
      h('a', { href: '#/free' }, 'Find free things near you'), ' and choose “Tell me about new ones”.'));
    return;
  }
  replace(where, h('ul', { class: 'lists' }, items.map((alert) => {
    const entry = h('li', { class: 'card saved-alert' },
      h('h3', {}, alert.name || 'A saved search'),
      h('p', { class: 'muted' }, describe(alert)));
    entry.append(h('button', {
      type: 'button', class: 'secondary', 'aria-label': `Delete the saved search ${alert.name || ''}`.trim(),
      onclick: async (event) => {
        event.currentTarget.disabled = true;
        try {
          await api(`/v1/alerts/${encodeURIComponent(alert.id)}`, { method: 'DELETE' });
          announce('Deleted the saved search.');
          await showSaved(where);
        } catch (error) {
          alertError(error, entry);
        }
      },
    }, 'Delete'));
    return entry;
  })));
}

function describe(alert) {
  const what = [alert.category, alert.q ? `“${alert.q}”` : null].filter(Boolean).join(', ') || 'Everything';
  return `${what} within ${alert.radius} ${alert.unit === 'mi' ? 'miles' : 'km'} · saved ${when(alert.createdAt)}`;
}
