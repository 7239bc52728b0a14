// Finding products for a shopping list: a search of the catalogue (GET /v1/products) whose
// results show the cheapest price, calories and, from each product's offers around the
// person's place (GET /v1/products/{id}?lat&lon), the store to buy it at; each with a
// quantity and an "Add" button.

import { api, query, ApiError } from './api.js';
import { currentPlace } from './place.js';
import { h, replace, field, onSubmit, money, distance, announce, messageOf } from './ui.js';

const shownResults = 8;
const nearbyKm = 5;

/** What one unit of a product holds, as people read it: "1192 kcal per 300 g". */
export function calories(product) {
  return `${product.caloriesPerUnit} kcal per ${product.unit}`;
}

/** A product's picture when the catalogue has one served by Commons; a blank tile otherwise. */
export function productImage(product, size = 96) {
  return product.image && product.image.startsWith('/')
    ? h('img', { src: product.image, alt: '', width: size, height: size, loading: 'lazy' })
    : h('div', { class: 'no-photo', 'aria-hidden': 'true' });
}

/**
 * The search form and its results. `onAdd(product, quantity)` is called when the person adds
 * a product (it may be async; its errors are shown beside the result).
 */
export function productSearch(onAdd) {
  const results = h('div', { class: 'product-results', 'aria-live': 'polite' });
  const form = onSubmit(h('form', { class: 'row product-search', role: 'search', 'aria-label': 'Products' },
    field('Search products', 'q', { kind: 'search', required: true, maxlength: 200, placeholder: 'milk, apples, coffee…' }),
    h('button', { type: 'submit' }, 'Search')),
  async ({ q }) => {
    if (!navigator.onLine) {
      replace(results, h('p', { class: 'notice' }, 'You are offline: searching needs a connection. Items you type below are kept and sent later.'));
      return;
    }
    replace(results, h('p', { class: 'loading' }, 'Searching…'));
    const page = await api(`/v1/products${query({ q, limit: shownResults })}`);
    if (page.items.length === 0) {
      replace(results, h('p', { class: 'muted' }, `No products match “${q}”. You can add it as your own item below.`));
      announce('No products found.');
      return;
    }
    const place = currentPlace();
    replace(results, h('p', { class: 'hint' }, `Stores within ${nearbyKm} km of ${place.name}.`),
      h('ul', { class: 'results' }, page.items.map((product) => resultOf(product, place, onAdd))));
    announce(`${page.items.length} products found.`);
  });
  return h('div', { class: 'product-finder' }, form, results);
}

function resultOf(product, place, onAdd) {
  const where = h('p', { class: 'muted' }, 'Looking for stores near you…');
  const stores = h('div');
  const quantity = field('Quantity', 'quantity', { kind: 'number', value: 1, min: 1, max: 999, inputmode: 'numeric', required: true });
  const add = onSubmit(h('form', { class: 'row add-product', 'aria-label': `Add ${product.name}` },
    quantity, h('button', { type: 'submit', class: 'secondary', 'aria-label': `Add ${product.name} (${product.brand}) to the list` }, 'Add')),
  async (values) => {
    const count = Number(values.quantity);
    if (!Number.isInteger(count) || count < 1 || count > 999) throw fieldError('quantity', 'must be a whole number from 1 to 999');
    await onAdd(product, count);
  });
  nearestOffers(product, place).then((detail) => {
    const offers = detail.offers || [];
    if (offers.length === 0) { replace(where, 'No store offers it at the moment.'); return; }
    const best = offers.find((offer) => offer.cheapestNearby) || offers[0];
    replace(where, h('span', { class: 'price' }, money(best.price.amountMinor, best.price.currency)), ' at ',
      h('strong', {}, best.storeName), best.distanceMeters !== undefined && best.distanceMeters !== null ? ` (${distance(best.distanceMeters)})` : '',
      best.cheapestNearby ? ' ' : '', best.cheapestNearby ? h('span', { class: 'badge' }, 'cheapest nearby') : '');
    replace(stores, h('details', { class: 'offers' },
      h('summary', {}, `All ${offers.length} stores`),
      h('ul', {}, offers.map((offer) => h('li', {},
        h('span', { class: 'price' }, money(offer.price.amountMinor, offer.price.currency)), ` ${offer.storeName}, ${offer.address}`,
        offer.distanceMeters !== undefined && offer.distanceMeters !== null ? ` · ${distance(offer.distanceMeters)}` : '', ' · ',
        h('a', { href: offer.directionsURL, rel: 'noopener', target: '_blank' }, 'Directions'))))));
  }, (error) => replace(where, messageOf(error)));
  return h('li', { class: 'result product' },
    productImage(product),
    h('div', {},
      h('h3', {}, product.name),
      h('p', { class: 'muted' }, `${product.brand} · ${product.unit} · ${product.category}`),
      h('p', {}, product.cheapestPrice ? ['From ', h('span', { class: 'price' }, money(product.cheapestPrice.amountMinor, product.cheapestPrice.currency)), ' · '] : '',
        calories(product)),
      where, stores, add));
}

function nearestOffers(product, place) {
  return api(`/v1/products/${encodeURIComponent(product.id)}${query({ lat: place.lat, lon: place.lon, radius: nearbyKm })}`);
}

/** An error shown beside the field `name`, as the API's would be. */
export function fieldError(name, sentence) {
  return new ApiError({ detail: `The ${name} ${sentence}.`, errors: { [name]: [sentence] } }, 422);
}
