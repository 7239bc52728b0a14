// Sharing shopping lists. Commons shares a list with an account id (POST
// /v1/lists/{id}/members), and finds nobody by email: an address book of everyone would let
// any list owner test which addresses have accounts. So the person who wants a list shared
// with them passes on their sharing link (or its code, their account id) by whatever means
// they already talk; the owner opens the link and picks a list, or pastes it in a list's
// "Share" form. Members are shown by their public display name (GET /v1/users/{id}).

import { api, ApiError } from './api.js';
import { session } from './session.js';
import { h, field, onSubmit, announce } from './ui.js';

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const names = new Map();

/** Whether two account ids name the same account (the API writes them in capitals, links may not). */
export function sameAccount(a, b) {
  return Boolean(a && b) && String(a).toLowerCase() === String(b).toLowerCase();
}

/** The link that lets someone share a list with the account `accountId`. */
export function sharingLink(accountId) {
  return `${location.origin}/#/lists/with/${accountId}`;
}

/** The account id in a sharing link or code a person pasted, or null. */
export function accountIdIn(text) {
  return uuid.exec(String(text || ''))?.[0].toLowerCase() || null;
}

/** The display name of `accountId` (remembered for the page's life); a neutral phrase when unknown. */
export async function displayName(accountId) {
  if (sameAccount(accountId, session.current?.accountId)) return 'You';
  if (!names.has(accountId)) {
    names.set(accountId, api(`/v1/users/${encodeURIComponent(accountId)}`).then((profile) => profile.displayName, () => 'Someone'));
  }
  return names.get(accountId);
}

/** A card with this person's sharing link, to pass on to whoever will share a list with them. */
export function mySharingCard() {
  const accountId = session.current?.accountId;
  if (!accountId) return null;
  const link = sharingLink(accountId);
  const input = h('input', { id: 'my-sharing-link', type: 'text', readonly: true, value: link, 'aria-describedby': 'my-sharing-hint' });
  const status = h('p', { class: 'hint', role: 'status' });
  const copy = h('button', { type: 'button', class: 'secondary', onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      status.textContent = 'Copied.';
    } catch {
      input.select();
      status.textContent = 'Selected: copy it with your keyboard or menu.';
    }
  } }, 'Copy link');
  const share = navigator.share
    ? h('button', { type: 'button', class: 'secondary', onclick: () => navigator.share({ title: 'Share a Commons list with me', url: link }).catch(() => {}) }, 'Send…')
    : null;
  return h('section', { class: 'card', 'aria-labelledby': 'sharing-title' },
    h('h2', { id: 'sharing-title' }, 'Shop together'),
    h('p', { id: 'my-sharing-hint', class: 'hint' },
      'To shop together, send this link to whoever keeps the list. When they open it, they choose which of their lists to share with you.'),
    h('div', { class: 'field' }, h('label', { for: 'my-sharing-link' }, 'Your sharing link'), input),
    h('div', { class: 'row' }, copy, share), status);
}

/**
 * A form that shares list `listId` with whoever's link or code is pasted in it. Calls
 * `onShared(members)` with the list's members after.
 */
export function shareForm(listId, onShared) {
  return onSubmit(h('form', { class: 'share-form', 'aria-labelledby': 'share-title' },
    h('h3', { id: 'share-title' }, 'Share this list'),
    field('Their sharing link or code', 'accountId', {
      required: true, autocomplete: 'off', spellcheck: 'false',
      hint: 'They find it under Lists → “Your sharing link” and send it to you.',
    }),
    h('button', { type: 'submit' }, 'Share')),
  async ({ accountId: pasted }, event) => {
    const accountId = accountIdIn(pasted);
    if (!accountId) {
      throw new ApiError({ detail: 'That is not a sharing link.', errors: { accountId: ['is not a sharing link or code: ask them to copy it again'] } }, 422);
    }
    if (sameAccount(accountId, session.current?.accountId)) {
      throw new ApiError({ detail: 'That is your own link.', errors: { accountId: ['is your own link; paste the other person’s'] } }, 422);
    }
    const answer = await shareList(listId, accountId);
    event.target.reset();
    announce(`Shared with ${await displayName(accountId)}.`);
    onShared(answer.members);
  });
}

/** Shares list `listId` with `accountId`: `{ members }`. */
export function shareList(listId, accountId) {
  return api(`/v1/lists/${encodeURIComponent(listId)}/members`, { method: 'POST', body: { accountId } });
}
