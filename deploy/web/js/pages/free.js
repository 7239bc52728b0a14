// Free things near me: free items around a place (the device's position when the person
// asks for it, a neighbourhood they pick, or a point they click on the map; remembered for
// the next visit), within a distance in km or miles, by category; as a list with photos and
// pickup times, or as a map of the same results. One search answers all of it: each result
// carries its first photo and its pickup times.

import { api, query } from '../api.js';
import { h, field, heading, replace, distance, announce, messageOf, newId } from '../ui.js';
import { currentPlace, setPlace, knownPlaces, devicePlace } from '../place.js';
import { drawMap } from '../map.js';
import { categories, photo, pickupSummary, preferredUnit, setPreferredUnit } from '../listing-format.js';
import { session } from '../session.js';
import { go } from '../app.js';

const filtersKey = 'commons.free';
const radii = [1, 2, 5, 10, 25];
const pageSize = 20;
const unitMetres = { km: 1000, mi: 1609.344 };

function savedFilters() {
  let saved = {};
  try { saved = JSON.parse(sessionStorage.getItem(filtersKey)) || {}; } catch { /* defaults */ }
  return {
    category: categories.includes(saved.category) ? saved.category : '',
    radius: radii.includes(saved.radius) ? saved.radius : 5,
    view: saved.view === 'map' ? 'map' : 'list',
  };
}

/** The place options: the known neighbourhoods, and the person's own point when it is none of them. */
function placeOptions(place) {
  const known = knownPlaces.findIndex((p) => p.name === place.name && Math.abs(p.lat - place.lat) < 1e-4 && Math.abs(p.lon - place.lon) < 1e-4);
  const options = knownPlaces.map((p, index) => [String(index), p.name]);
  if (known < 0) options.unshift(['here', place.name || 'The point you picked']);
  return { options, value: known < 0 ? 'here' : String(known) };
}

export async function render(view, [mode]) {
  const filters = { ...savedFilters(), unit: preferredUnit() };
  if (mode === 'map' || mode === 'list') filters.view = mode;
  let place = currentPlace();
  let items = [];
  let nextCursor = null;
  let controller = null;

  const save = () => sessionStorage.setItem(filtersKey, JSON.stringify({ category: filters.category, radius: filters.radius, view: filters.view }));
  const summary = h('p', { class: 'results-summary', role: 'status' });
  const results = h('div', { class: 'free-results' });
  const more = h('p', { class: 'more' });
  const moreButton = h('button', { type: 'button', class: 'secondary', onclick: () => load(true) }, 'Show more');
  const placeProblem = h('div');

  // The place: a neighbourhood, the device's position, or a click on the map.
  const placeSlot = h('div', { class: 'place-field' });
  const drawPlace = () => {
    const { options, value } = placeOptions(place);
    const control = field('Near', 'place', { kind: 'select', options, value });
    control.querySelector('select').addEventListener('change', (event) => {
      if (event.target.value === 'here') return;
      choose(knownPlaces[Number(event.target.value)]);
    });
    replace(placeSlot, control);
  };
  const choose = (chosen) => {
    setPlace(chosen);
    place = currentPlace();
    replace(placeProblem);
    drawPlace();
    announce(`Showing free things near ${place.name}.`);
    load();
  };
  const locate = h('button', {
    type: 'button', class: 'secondary', onclick: async () => {
      locate.disabled = true;
      try { choose(await devicePlace()); } catch (error) {
        replace(placeProblem, h('p', { class: 'notice error', role: 'alert' }, error.message));
      } finally { locate.disabled = false; }
    },
  }, 'Use where I am');

  const category = field('Category', 'category', { kind: 'select', value: filters.category, options: [['', 'Everything'], ...categories.map((c) => [c, c])] });
  const within = field('Within', 'radius', { kind: 'select', value: filters.radius, options: radii.map((r) => [r, `${r} ${filters.unit}`]) });
  const unit = field('Unit', 'unit', { kind: 'select', value: filters.unit, options: [['km', 'km'], ['mi', 'miles']] });
  category.classList.add('category-field');
  category.querySelector('select').addEventListener('change', (event) => { filters.category = event.target.value; save(); load(); });
  within.querySelector('select').addEventListener('change', (event) => { filters.radius = Number(event.target.value); save(); load(); });
  unit.querySelector('select').addEventListener('change', (event) => {
    filters.unit = event.target.value === 'mi' ? 'mi' : 'km';
    setPreferredUnit(filters.unit);
    for (const option of within.querySelectorAll('option')) option.textContent = `${option.value} ${filters.unit}`;
    load();
  });

  const listButton = h('button', { type: 'button', class: 'secondary', onclick: () => switchTo('list') }, 'List');
  const mapButton = h('button', { type: 'button', class: 'secondary', onclick: () => switchTo('map') }, 'Map');
  const switchTo = (next) => {
    filters.view = next;
    save();
    show();
    announce(next === 'map' ? 'Showing the results on a map.' : 'Showing the results as a list.');
  };

  // "Tell me about new ones": this search saved as an alert (POST /v1/alerts); its matches
  // arrive on the Alerts tab (alerts-live.js).
  const alertNote = h('p', { class: 'hint', role: 'status' });
  let alertKey = newId();
  const saveAlert = h('button', {
    type: 'button', class: 'secondary', onclick: async () => {
      if (!session.signedIn) { go(`sign-in/${encodeURIComponent('free')}`); return; }
      saveAlert.disabled = true;
      const what = filters.category || 'Everything';
      try {
        await api('/v1/alerts', {
          method: 'POST', idempotencyKey: alertKey,
          body: { lat: place.lat, lon: place.lon, radius: filters.radius, unit: filters.unit, category: filters.category || undefined, name: `${what} near ${place.name}`.slice(0, 100) },
        });
        alertKey = newId();
        alertNote.textContent = `Saved. New ${what === 'Everything' ? 'things' : what.toLowerCase()} within ${filters.radius} ${filters.unit} of ${place.name} will show under Alerts.`;
      } catch (error) {
        alertNote.textContent = messageOf(error);
      } finally { saveAlert.disabled = false; }
    },
  }, 'Tell me about new ones');

  drawPlace();
  view.append(
    heading('Free things near you'),
    h('p', { class: 'row free-links' },
      h('a', { class: 'button', href: '#/post' }, 'Give something away'),
      h('a', { href: '#/mine' }, 'My items'),
      h('a', { href: '#/messages' }, 'Messages')),
    h('form', { class: 'toolbar card free-toolbar', role: 'search', 'aria-label': 'Where and what', onsubmit: (event) => event.preventDefault() },
      h('div', { class: 'wide place-row' }, placeSlot, locate),
      category, within, unit),
    placeProblem,
    h('div', { class: 'row save-alert' }, saveAlert, alertNote),
    h('div', { class: 'spread' }, summary,
      h('div', { class: 'row view-switch', role: 'group', 'aria-label': 'Show the results as' }, listButton, mapButton)),
    results, more);

  function show() {
    listButton.setAttribute('aria-pressed', String(filters.view === 'list'));
    mapButton.setAttribute('aria-pressed', String(filters.view === 'map'));
    const what = filters.category ? `free ${filters.category.toLowerCase()} items` : 'free things';
    const count = `${items.length}${nextCursor ? '+' : ''}`;
    summary.textContent = items.length
      ? `${count} ${what} within ${filters.radius} ${filters.unit} of ${place.name}`
      : `No ${what} within ${filters.radius} ${filters.unit} of ${place.name} yet. Try a larger distance or another category.`;
    replace(more, nextCursor ? moreButton : null);
    if (filters.view === 'map') replace(results, mapOf(), compactList());
    else replace(results, h('ul', { class: 'results grid' }, items.map(card)));
  }

  function mapOf() {
    return drawMap({
      centre: place, radiusMetres: filters.radius * unitMetres[filters.unit], unit: filters.unit,
      points: items.map((item) => ({ lat: item.lat, lon: item.lon, label: `${item.title}, ${distance(item.distanceMeters, filters.unit)}`, href: `#/item/${item.id}` })),
      caption: `${items.length} free things around ${place.name}. Click on the map to look around that point instead.`,
      onPick: (point) => choose({ ...point, name: 'The point you picked' }),
    });
  }

  function compactList() {
    return h('ol', { class: 'map-list' }, items.map((item) => h('li', {},
      h('a', { href: `#/item/${item.id}` }, item.title), ' ', h('span', { class: 'muted' }, `${item.category} · ${distance(item.distanceMeters, filters.unit)}`))));
  }

  function card(item) {
    return h('li', { class: 'result', dataset: { listingId: item.id } },
      h('div', { class: 'result-photo' }, photo(item)),
      h('div', { class: 'result-body' },
        h('h3', {}, h('a', { href: `#/item/${item.id}` }, item.title)),
        h('p', { class: 'muted' }, h('span', { class: 'badge' }, item.category), ' ', distance(item.distanceMeters, filters.unit)),
        h('p', { class: 'clamp' }, item.description),
        h('p', { class: 'pickup' }, pickupSummary(item.pickupTimes)),
        h('p', { class: 'directions' }, h('a', { href: item.directionsURL, target: '_blank', rel: 'noopener' }, 'Directions', h('span', { class: 'visually-hidden' }, ` to ${item.title}`)))));
  }

  async function load(append = false) {
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    if (!append) { summary.textContent = 'Looking…'; }
    let page;
    try {
      page = await api(`/v1/nearby/listings${query({
        lat: place.lat, lon: place.lon, radius: filters.radius, unit: filters.unit, category: filters.category || undefined,
        free: true, status: 'available', limit: pageSize, cursor: append ? nextCursor : undefined,
      })}`, { signal });
    } catch (error) {
      if (signal.aborted) return;
      summary.textContent = '';
      replace(results, h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
      return;
    }
    items = append ? items.concat(page.items) : page.items;
    nextCursor = page.nextCursor || null;
    show();
  }

  await load();
  return () => controller?.abort();
}
