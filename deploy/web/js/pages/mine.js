// My items: everything I posted, newest first, with what I can do next. An available item
// lists its requests, and I promise it to one requester; a promised one I mark given (or
// sold), or make available again; I renew an item before it expires (or after), and
// withdraw one I no longer give. Each change re-reads the list, which read-your-writes
// makes show the change at once. The newest 50 show first, and "Show more items" reads 50
// more while there are; a change re-reads as many as were shown.

import { api, query } from '../api.js';
import { h, heading, replace, announce, money, when, messageOf } from '../ui.js';
import { photo, statusBadge } from '../listing-format.js';
import { displayName, sameId } from '../listing-people.js';

const openStatuses = ['available', 'promised', 'expired', 'hidden'];
/** Requests read at a time under an item; "Show more requests" reads the next page. */
const requestsPageSize = 20;
/** Items read at a time; "Show more items" reads the next page. */
const itemsPageSize = 50;

export async function render(view, [justPosted]) {
  const lists = h('div', { class: 'mine-lists' });
  const more = h('button', { type: 'button', class: 'secondary' }, 'Show more items');
  more.hidden = true;
  view.append(heading('My items'),
    h('p', { class: 'row' }, h('a', { class: 'button', href: '#/post' }, 'Give something away'), h('a', { href: '#/messages' }, 'Messages')),
    lists, h('p', {}, more));
  /** How many items to show: a page, and another for each "Show more items". */
  let wanted = itemsPageSize;
  more.addEventListener('click', async () => {
    more.disabled = true;
    wanted += itemsPageSize;
    const before = new Set([...lists.querySelectorAll('li.result')].map((node) => node.dataset.listingId));
    try {
      await load();
      // Focus goes to the first item that was not shown before, so keyboard and screen
      // reader users go on where the list grew.
      [...lists.querySelectorAll('li.result')].find((node) => !before.has(node.dataset.listingId))?.querySelector('h3 a')?.focus();
    } catch (error) {
      more.before(h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
    }
    more.disabled = false;
  });

  /** My items, newest first, page after page until `wanted` are read or none are left. */
  async function load() {
    const items = [];
    let cursor = null;
    do {
      const page = await api(`/v1/listings${query({ author: 'me', limit: itemsPageSize, cursor })}`);
      items.push(...page.items);
      cursor = page.nextCursor ?? null;
    } while (cursor && items.length < wanted);
    const current = items.filter((listing) => openStatuses.includes(listing.status));
    const done = items.filter((listing) => !openStatuses.includes(listing.status));
    const posted = justPosted && items.find((listing) => sameId(listing.id, justPosted));
    justPosted = null; // said once
    replace(lists,
      posted ? h('p', { class: 'notice', role: 'status' }, `Posted “${posted.title}”. People near you can see it now.`) : null,
      items.length === 0 ? h('p', {}, 'You have not posted anything yet.') : null,
      current.length ? [h('h2', {}, 'Up now'), h('ul', { class: 'results mine' }, current.map((listing) => card(listing, posted)))] : null,
      done.length ? [h('h2', {}, 'Done'), h('ul', { class: 'results mine' }, done.map((listing) => card(listing, posted)))] : null);
    more.hidden = !cursor;
  }

  /** Runs a change to one item, then re-reads the list; a refusal is said inside its card. */
  async function act(button, what, send) {
    const cardNode = button.closest('li.result');
    button.disabled = true;
    try {
      await send();
      announce(what);
      await load();
    } catch (error) {
      button.disabled = false;
      cardNode?.querySelector('.card-error')?.remove();
      cardNode?.querySelector('.mine-actions')?.prepend(h('p', { class: 'notice error card-error', role: 'alert' }, messageOf(error)));
    }
  }

  function card(listing, posted) {
    const path = `/v1/listings/${listing.id}`;
    const actions = h('div', { class: 'mine-actions' });
    const button = (label, what, send, kind = 'secondary') => {
      const node = h('button', { type: 'button', class: kind }, label);
      node.addEventListener('click', () => act(node, what, send));
      return node;
    };
    const status = listing.status;
    const buttons = [];
    if (status === 'promised') {
      buttons.push(listing.price
        ? button('Mark sold', `${listing.title} is sold.`, () => api(`${path}/status`, { method: 'POST', body: { status: 'sold' } }), '')
        : button('Mark given', `${listing.title} is given away.`, () => api(`${path}/status`, { method: 'POST', body: { status: 'given' } }), ''));
      buttons.push(button('Make available again', `${listing.title} is available again.`, () => api(`${path}/status`, { method: 'POST', body: { status: 'available' } })));
    }
    if (status === 'available' || status === 'expired') {
      buttons.push(button('Renew', `${listing.title} is renewed.`, () => api(`${path}/renew`, { method: 'POST', body: {} })));
    }
    if (openStatuses.includes(status)) {
      const withdraw = h('button', { type: 'button', class: 'secondary' }, 'Withdraw');
      withdraw.addEventListener('click', () => {
        const sure = button('Yes, withdraw it', `${listing.title} is withdrawn.`, () => api(path, { method: 'DELETE' }), 'danger');
        const keep = h('button', { type: 'button', class: 'secondary', onclick: () => confirm.replaceWith(withdraw) }, 'Keep it');
        const confirm = h('span', { class: 'row', role: 'group', 'aria-label': 'Withdraw for good?' }, h('span', {}, 'Withdraw for good?'), sure, keep);
        withdraw.replaceWith(confirm);
        sure.focus();
      });
      buttons.push(withdraw);
    }
    actions.append(h('div', { class: 'row' }, buttons));
    if (status === 'available' || status === 'promised') requestsOf(listing, actions, button);

    const expiry = listing.expiresAt && openStatuses.includes(status)
      ? (new Date(listing.expiresAt) > new Date() ? `Up until ${new Date(listing.expiresAt).toLocaleDateString()}` : `Expired ${when(listing.expiresAt)}`)
      : null;
    return h('li', { class: `result${posted && sameId(posted.id, listing.id) ? ' just-posted' : ''}`, dataset: { listingId: listing.id } },
      h('div', { class: 'result-photo' }, photo(listing)),
      h('div', { class: 'result-body' },
        h('h3', {}, h('a', { href: `#/item/${listing.id}` }, listing.title)),
        h('p', { class: 'row' }, statusBadge(status),
          listing.price ? h('span', { class: 'price' }, money(listing.price.amountMinor, listing.price.currency)) : h('span', { class: 'muted' }, 'Free'),
          h('span', { class: 'muted' }, `posted ${when(listing.postedAt)}`), expiry ? h('span', { class: 'muted' }, expiry) : null),
        actions));
  }

  /**
   * The item's requests, a page at a time: for an available item each with "Promise", and
   * "Show more requests" while more wait; for a promised one, who it is promised to (looked
   * for through the pages, at most ten).
   */
  async function requestsOf(listing, actions, button) {
    const slot = h('div', { class: 'requests' }, h('p', { class: 'muted' }, 'Requests…'));
    actions.append(slot);
    const pageOf = (cursor) => api(`/v1/listings/${listing.id}/requests${query({ limit: requestsPageSize, cursor })}`);
    try {
      if (listing.status === 'promised') {
        // The feed leaves out whom an item is promised to; the owner's view of the item says.
        const promisedTo = (await api(`/v1/listings/${listing.id}`)).promisedTo;
        let chosen = null;
        let cursor = null;
        for (let pages = 0; pages < 10 && !chosen; pages += 1) {
          const page = await pageOf(cursor);
          chosen = page.items.find((request) => sameId(request.requesterId, promisedTo));
          cursor = page.nextCursor ?? null;
          if (!cursor) break;
        }
        const name = h('span', {}, '…');
        if (promisedTo) displayName(promisedTo).then((text) => { name.textContent = text; });
        else name.textContent = 'someone';
        replace(slot, h('p', {}, 'Promised to ', name, '. ',
          chosen ? h('a', { href: `#/messages/${chosen.conversationId}` }, 'Message them') : null));
        return;
      }
      const first = await pageOf(null);
      if (first.items.length === 0) { replace(slot, h('p', { class: 'muted' }, 'No requests yet.')); return; }
      const title = h('h4', {});
      const list = h('ul', { class: 'request-list' });
      const more = h('button', { type: 'button', class: 'secondary' }, 'Show more requests');
      let shown = 0;
      let cursor = null;
      const show = (page) => {
        list.append(...page.items.map((request) => requestItem(listing, request, button)));
        shown += page.items.length;
        cursor = page.nextCursor ?? null;
        title.textContent = cursor ? `Requests (${shown} shown, more waiting)` : `Requests (${shown})`;
        more.hidden = !cursor;
      };
      more.addEventListener('click', async () => {
        more.disabled = true;
        try {
          show(await pageOf(cursor));
          list.lastElementChild?.querySelector('button')?.focus();
        } catch (error) {
          more.before(h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
        }
        more.disabled = false;
      });
      show(first);
      replace(slot, title, list, more);
    } catch (error) {
      replace(slot, h('p', { class: 'notice error' }, messageOf(error)));
    }
  }

  /** One request: who asked and when, their message, "Promise" and "Reply". */
  function requestItem(listing, request, button) {
    const name = h('strong', {}, '…');
    const promise = button('Promise', `${listing.title} is promised.`, () => api(`/v1/listings/${listing.id}/promise`, { method: 'POST', body: { requestId: request.id } }), '');
    const label = h('span', { class: 'visually-hidden' }, '');
    promise.append(label);
    displayName(request.requesterId).then((text) => { name.textContent = text; label.textContent = ` to ${text}`; });
    return h('li', {},
      h('p', {}, name, ' ', h('span', { class: 'muted' }, when(request.requestedAt))),
      request.message ? h('p', { class: 'request-message' }, request.message) : null,
      h('p', { class: 'row' }, promise, h('a', { href: `#/messages/${request.conversationId}` }, 'Reply')));
  }

  await load();
}
