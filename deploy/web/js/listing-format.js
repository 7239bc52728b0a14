// How a listing reads on every page that shows one: its category and condition names, its
// status, its pickup times as sentences, its photo, and the distance unit the person chose.

import { h, dateTime } from './ui.js';

/** The categories the API files listings under (its own names). */
export const categories = ['Clothes', 'Electronics', 'Food', 'Furniture', 'Sports', 'Toys', 'Books', 'Household', 'Other'];

/** The conditions the API knows, with the words people read. */
export const conditions = [['new', 'New'], ['likeNew', 'Like new'], ['good', 'Good'], ['fair', 'Fair'], ['forParts', 'For parts or repair']];

/** A condition's words. */
export function conditionName(value) {
  return conditions.find(([key]) => key === value)?.[1] ?? value;
}

const statusNames = {
  available: 'Available', promised: 'Promised', given: 'Given away', sold: 'Sold',
  withdrawn: 'Withdrawn', expired: 'Expired', hidden: 'Hidden after reports',
};

/** A status as a badge; `available` is the usual case and gets a plain one. */
export function statusBadge(status) {
  const warn = ['promised', 'expired', 'hidden'].includes(status);
  return h('span', { class: `badge${warn ? ' warn' : ''}${['given', 'sold', 'withdrawn'].includes(status) ? ' done' : ''}` }, statusNames[status] ?? status);
}

/** One pickup window as "Sat 12 Oct, 10:00 – 12:00". */
export function windowText({ startsAt, endsAt }) {
  const start = new Date(startsAt), end = new Date(endsAt);
  const sameDay = start.toDateString() === end.toDateString();
  const endText = sameDay ? end.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : dateTime(endsAt);
  return `${dateTime(startsAt)} – ${endText}`;
}

/** The pickup times as short lines: the giver's note, then each window still to come. */
export function pickupLines(pickupTimes) {
  if (!pickupTimes) return [];
  const now = Date.now();
  const windows = (pickupTimes.windows || []).filter((w) => new Date(w.endsAt).getTime() > now).map(windowText);
  return [pickupTimes.note, ...windows].filter(Boolean);
}

/** The pickup times in one short sentence, for a result in a list: the note and the next window. */
export function pickupSummary(pickupTimes) {
  const lines = pickupLines(pickupTimes);
  const note = pickupTimes?.note ? 1 : 0;
  const shown = lines.slice(0, note + 1);
  const more = lines.length - shown.length;
  if (!lines.length) return 'Pickup: ask the giver';
  return `Pickup: ${shown.join('; ')}${more ? ` (and ${more} more)` : ''}`;
}

/** A listing's first photo at `size` ('small' or 'medium'), or a grey square saying there is none. */
export function photo(listing, size = 'small') {
  const first = listing.images?.[0] ?? listing.image; // a listing's photos, or a search result's first
  if (!first) return h('div', { class: 'no-photo', role: 'img', 'aria-label': 'No photo' });
  return h('img', { src: first[size] || first.original, alt: `Photo of ${listing.title}`, loading: 'lazy', width: 128, height: 128 });
}

const unitKey = 'commons.unit';

/** The unit the person reads distances in ('km' or 'mi'). */
export function preferredUnit() {
  return localStorage.getItem(unitKey) === 'mi' ? 'mi' : 'km';
}

/** Remembers the unit the person chose. */
export function setPreferredUnit(unit) {
  localStorage.setItem(unitKey, unit === 'mi' ? 'mi' : 'km');
}
