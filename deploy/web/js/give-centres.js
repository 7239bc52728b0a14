// Donation centres near a place: where they are on the offline map and, in a list, what
// they accept, when they are open and how to get there. Positions and distances come from
// geo-search (GET /v1/nearby/organizations); the hours from each centre's own page
// (GET /v1/organizations/{id}), which geo-search does not carry.

import { api, query } from './api.js';
import { h, replace, field, distance, alertError, announce } from './ui.js';
import { drawMap } from './map.js';
import { currentPlace, setPlace, knownPlaces, devicePlace, directionsLink } from './place.js';
import { label, hoursLines } from './give-format.js';

const radii = [1, 2, 5, 10];
const seenCategories = new Set();

function centreItem(centre, details) {
  const href = `#/organization/${encodeURIComponent(centre.slug)}`;
  const hours = hoursLines(details?.openingHours);
  return h('li', { class: 'card centre' },
    h('div', { class: 'spread' },
      h('h3', {}, h('a', { href }, centre.name)),
      h('span', { class: 'muted' }, distance(centre.distanceMeters))),
    centre.address ? h('p', { class: 'muted' }, centre.address) : null,
    h('p', {}, h('strong', {}, 'Accepts: '), centre.acceptedCategories.length ? centre.acceptedCategories.map(label).join(', ') : 'ask the centre'),
    h('div', { class: 'hours' }, h('strong', {}, 'Open: '),
      hours.length ? h('ul', { class: 'inline-list', 'aria-label': `Opening hours of ${centre.name}` }, hours.map((line) => h('li', {}, line)))
        : h('span', {}, details ? 'by appointment' : 'see the centre’s page')),
    h('p', { class: 'row' },
      h('a', { href }, 'Details', h('span', { class: 'visually-hidden' }, ` of ${centre.name}`)),
      h('a', { href: directionsLink(centre), rel: 'noopener', target: '_blank' }, 'Directions', h('span', { class: 'visually-hidden' }, ` to ${centre.name} (opens a new tab)`))));
}

/** The section: its controls, the map and the list, loaded at once and on every change. */
export function centresSection() {
  let place = currentPlace();
  const results = h('div', { class: 'centres-results' }, h('p', { class: 'loading' }, 'Looking for donation centres…'));
  const placeOptions = () => {
    const options = knownPlaces.map((known) => [known.name, known.name]);
    if (!knownPlaces.some((known) => known.name === place.name)) options.unshift([place.name || 'Chosen place', place.name || 'Chosen place']);
    return options;
  };
  const controls = h('form', { class: 'toolbar', 'aria-label': 'Where to look for donation centres' });
  const draw = () => replace(controls,
    field('Near', 'place', { kind: 'select', options: placeOptions(), value: place.name }),
    field('Within', 'radius', { kind: 'select', options: radii.map((r) => [r, `${r} km`]), value: controls.dataset.radius || 5 }),
    field('Accepts', 'accepts', { kind: 'select', options: [['', 'Anything'], ...[...seenCategories].sort().map((c) => [c, label(c)])], value: controls.dataset.accepts || '' }),
    h('div', { class: 'field toolbar-action' }, h('button', { type: 'button', class: 'secondary', onclick: useDevice }, 'Use where I am')));
  const section = h('section', { class: 'centres', 'aria-labelledby': 'centres-title' },
    h('h2', { id: 'centres-title' }, 'Donation centres near you'), controls, results);

  async function useDevice() {
    try {
      place = await devicePlace();
      setPlace(place);
      draw();
      await load();
    } catch (error) {
      alertError(error, results);
    }
  }

  controls.addEventListener('change', (event) => {
    const values = Object.fromEntries(new FormData(controls));
    controls.dataset.radius = values.radius;
    controls.dataset.accepts = values.accepts;
    if (event.target.name === 'place') {
      place = knownPlaces.find((known) => known.name === values.place) || place;
      setPlace(place);
    }
    load().catch((error) => alertError(error, results));
  });
  controls.addEventListener('submit', (event) => event.preventDefault());

  async function load() {
    const radius = Number(controls.dataset.radius || 5);
    const accepts = controls.dataset.accepts || undefined;
    const page = await api(`/v1/nearby/organizations${query({ lat: place.lat, lon: place.lon, radius, unit: 'km', kind: 'centre', acceptsCategory: accepts, limit: 20 })}`);
    const details = await Promise.all(page.items.map((centre) => api(`/v1/organizations/${encodeURIComponent(centre.id)}`).catch(() => null)));
    const before = seenCategories.size;
    page.items.forEach((centre) => centre.acceptedCategories.forEach((c) => seenCategories.add(c)));
    if (seenCategories.size !== before) { const focused = document.activeElement?.name; draw(); if (focused) controls.querySelector(`[name=${focused}]`)?.focus(); }
    const where = `${radius} km of ${place.name || 'the chosen place'}`;
    const map = drawMap({
      centre: place, radiusMetres: radius * 1000, unit: 'km',
      caption: `${page.items.length} donation ${page.items.length === 1 ? 'centre' : 'centres'} within ${where}${accepts ? ` that accept ${label(accepts).toLowerCase()}` : ''}. Click the map to look around another place.`,
      points: page.items.map((centre) => ({ lat: centre.lat, lon: centre.lon, label: centre.name, kind: 'centre', href: `#/organization/${encodeURIComponent(centre.slug)}` })),
      onPick: (point) => {
        place = { ...point, name: 'Picked on the map' };
        setPlace(place);
        draw();
        load().catch((error) => alertError(error, results));
      },
    });
    replace(results, h('div', { class: 'columns' }, map,
      page.items.length
        ? h('ul', { class: 'results give-list centre-list', 'aria-label': 'Donation centres, nearest first' }, page.items.map((centre, i) => centreItem(centre, details[i])))
        : h('p', { class: 'notice' }, `No donation centre within ${where}. Look further away or somewhere else.`)));
    announce(`${page.items.length} donation centres within ${where}.`);
  }

  draw();
  section.ready = load().catch((error) => alertError(error, results));
  return section;
}
