// One item, free or for sale: its photos, description, pickup times, how far it is and the
// way there, who gives it, and asking for it (which opens a conversation with the giver).
// The exact pickup point appears only when the API includes it: for the owner, and for the
// person the item is promised to. Comments are another module's, in <section id="comments">.

import { api } from '../api.js';
import { session } from '../session.js';
import { h, field, heading, replace, onSubmit, announce, distance, money, when, alertError } from '../ui.js';
import { currentPlace, metresBetween, directionsLink } from '../place.js';
import { drawMap } from '../map.js';
import { conditionName, statusBadge, pickupLines, preferredUnit } from '../listing-format.js';
import { displayName, isMe, sameId } from '../listing-people.js';
import { renderComments } from '../comments.js';

export async function render(view, [id = '']) {
  let listing;
  try {
    listing = await api(`/v1/listings/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error.status !== 404 && error.status !== 400) throw error;
    view.append(heading('This item is not here'),
      h('p', {}, 'It may have been removed, or the link is not quite right.'),
      h('p', {}, h('a', { href: '#/free' }, 'Back to free things near you')));
    return;
  }
  const mine = isMe(listing.ownerId);
  const place = currentPlace();
  const unit = preferredUnit();
  const away = metresBetween(place, listing.approximateLocation);

  const photos = listing.images.length
    ? h('div', { class: 'photos', tabindex: listing.images.length > 1 ? '0' : undefined, 'aria-label': listing.images.length > 1 ? 'Photos (scroll sideways for more)' : undefined, role: listing.images.length > 1 ? 'group' : undefined },
      listing.images.map((image, index) => h('img', { src: image.medium, alt: `Photo ${index + 1} of ${listing.images.length}: ${listing.title}`, width: 640, height: 480 })))
    : h('p', { class: 'no-photo wide-no-photo' }, 'No photo');
  const pickup = pickupLines(listing.pickupTimes);
  const giver = h('span', {}, '…');
  displayName(listing.ownerId).then((name) => { giver.textContent = name; });
  const actions = h('div', { class: 'item-actions', 'aria-live': 'polite' });
  const comments = h('section', { id: 'comments' });

  view.append(
    heading(listing.title),
    h('p', { class: 'row' },
      listing.price ? h('span', { class: 'price' }, money(listing.price.amountMinor, listing.price.currency)) : h('span', { class: 'badge' }, 'Free'),
      listing.status !== 'available' ? statusBadge(listing.status) : null,
      h('span', { class: 'muted' }, `${listing.category} · ${conditionName(listing.condition)} · posted ${when(listing.postedAt)}`)),
    h('div', { class: 'columns' },
      h('div', {}, photos),
      h('div', {},
        listing.description ? h('p', { class: 'item-description' }, listing.description) : null,
        h('h2', {}, 'Pickup times'),
        pickup.length ? h('ul', { class: 'pickup-times' }, pickup.map((line) => h('li', {}, line))) : h('p', {}, 'Ask the giver when to come.'),
        h('h2', {}, 'Where'),
        where(listing, place, away, unit),
        h('p', {}, listing.price ? 'Sold by ' : 'Given by ', giver),
        actions)),
    comments);

  fillActions(actions, listing, mine);
  try {
    await renderComments(comments, listing.id, { ownerId: listing.ownerId });
  } catch (error) {
    alertError(error, comments);
  }
}

/** Where the item is: the exact point for those the API shows it to, the area for everyone else. */
function where(listing, place, away, unit) {
  const parts = [];
  if (listing.pickupLocation) {
    const exact = listing.pickupLocation;
    parts.push(h('div', { class: 'notice pickup-point' },
      h('p', {}, h('strong', {}, 'Exact pickup point'), ' (only the giver and the person it is promised to see this)'),
      listing.streetAddress ? h('p', { class: 'street-address' }, listing.streetAddress) : null,
      h('p', { class: 'muted' }, `${exact.lat.toFixed(5)}, ${exact.lon.toFixed(5)}`),
      h('p', {}, h('a', { href: listing.directionsURL || directionsLink(exact), target: '_blank', rel: 'noopener' }, 'Directions to the pickup point'))));
  } else {
    parts.push(h('p', {}, `${distance(away, unit)} from ${place.name}. `,
      h('span', { class: 'muted' }, 'The exact address is shared with the person the giver promises it to.')),
    h('p', {}, h('a', { href: directionsLink(listing.approximateLocation), target: '_blank', rel: 'noopener' }, 'Directions to the area')));
  }
  if (away < 50_000) {
    const radius = Math.max(1000, away * 1.3);
    parts.push(drawMap({
      centre: place, radiusMetres: radius, unit,
      points: [{ ...(listing.pickupLocation || listing.approximateLocation), label: listing.title }],
      caption: `${listing.title}, ${distance(away, unit)} from ${place.name}${listing.pickupLocation ? '' : ' (approximate)'}`,
    }));
  }
  return parts;
}

/** What the reader can do: sign in, manage their own item, ask for it, or follow up a request. */
async function fillActions(actions, listing, mine) {
  const signInLink = h('a', { class: 'button', href: `#/sign-in/${encodeURIComponent(`item/${listing.id}`)}` }, 'Sign in to ask for it');
  if (!session.signedIn) { replace(actions, h('p', {}, signInLink)); return; }
  if (mine) {
    replace(actions, h('p', { class: 'notice' }, 'This is your item. ', h('a', { href: '#/mine' }, 'See its requests in My items')));
    return;
  }
  let conversation = null;
  try {
    const page = await api(`/v1/conversations?listing=${encodeURIComponent(listing.id)}`);
    conversation = page.items.find((c) => sameId(c.listingId, listing.id) && isMe(c.requesterId));
  } catch { /* then the form is shown; the API refuses a second request itself */ }
  if (listing.pickupLocation) {
    replace(actions, h('p', { class: 'notice promised-to-you' }, h('strong', {}, 'Promised to you. '), 'The pickup point is above. ',
      conversation ? h('a', { href: `#/messages/${conversation.id}` }, 'Message the giver') : null));
  } else if (conversation) {
    replace(actions, requested(conversation.id));
  } else if (listing.status === 'available') {
    replace(actions, requestForm(listing, actions));
  } else {
    replace(actions, h('p', { class: 'notice' }, listing.status === 'promised' ? 'The giver has promised this to someone else.' : 'This item is no longer available.'));
  }
}

function requested(conversationId) {
  return h('p', { class: 'notice' }, 'You asked for this; the giver will answer in your messages. ',
    h('a', { href: `#/messages/${conversationId}` }, 'Open the conversation'));
}

function requestForm(listing, actions) {
  const free = !listing.price;
  return onSubmit(h('form', { class: 'card', 'aria-labelledby': 'request-title' },
    h('h2', { id: 'request-title' }, free ? 'Would you like it?' : 'Would you like to buy it?'),
    field(free ? 'Message to the giver' : 'Message to the seller', 'message', {
      kind: 'textarea', required: true, maxlength: 1000,
      value: free ? 'Hello! I would like this. When could I pick it up?' : 'Hello! I would like to buy this. When could I come?',
    }),
    h('button', { type: 'submit' }, free ? 'Ask for it' : 'Ask to buy it')),
  async ({ message }) => {
    const request = await api(`/v1/listings/${listing.id}/requests`, { method: 'POST', body: { message } });
    announce('Your request was sent to the giver.');
    replace(actions, requested(request.conversationId));
  });
}
