// My donations (GET /v1/donations), newest first, each with when it was made, and a form
// to share a public one in the feed (POST /v1/donations/{id}/posts, one Idempotency-Key per
// attempt, kept for a retry when no answer came).

import { api, query } from './api.js';
import { h, replace, field, onSubmit, announce, money, when, dateTime, newId, alertError } from './ui.js';
import { keepKey } from './give-wallet.js';

function shareForm(donation, onShared) {
  let key = newId();
  const form = h('form', { class: 'donation-share', 'aria-label': `Share your donation to ${donation.organization.name}` },
    field('What would you like to say?', 'caption', { kind: 'textarea', rows: 2, maxlength: 500, required: true,
      value: `I gave to ${donation.organization.name} through Commons. Join me?` }),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Post to the feed'),
      h('button', { type: 'button', class: 'secondary', onclick: () => form.dispatchEvent(new Event('cancel')) }, 'Cancel')));
  return onSubmit(form, async ({ caption }) => {
    try {
      const post = await api(`/v1/donations/${encodeURIComponent(donation.id)}/posts`, { method: 'POST', idempotencyKey: key, body: { caption } });
      key = newId();
      announce('Shared in the feed.');
      await onShared(post);
    } catch (error) {
      if (!keepKey(error)) key = newId();
      throw error;
    }
  });
}

function donationItem(donation, shared, onShared) {
  const org = donation.organization;
  const actions = h('div', { class: 'share' });
  const showShare = () => {
    if (donation.visibility !== 'public') { replace(actions, h('p', { class: 'hint' }, 'Anonymous: only public donations can be shared.')); return; }
    if (shared.has(donation.id)) { replace(actions, h('p', { class: 'hint shared', tabindex: '-1' }, 'Shared in the feed.')); return; }
    const open = h('button', { type: 'button', class: 'secondary', 'aria-label': `Share your donation of ${money(donation.amountMinor, donation.currency)} to ${org.name}`, onclick: () => {
      const form = shareForm(donation, async (post) => { shared.add(donation.id); showShare(); actions.querySelector('.shared')?.focus(); await onShared(post); });
      form.addEventListener('cancel', () => { showShare(); actions.querySelector('button')?.focus(); });
      replace(actions, form);
      form.querySelector('textarea').focus();
    } }, 'Share');
    replace(actions, open);
  };
  showShare();
  return h('li', { class: 'card donation', dataset: { donation: donation.id } },
    h('div', { class: 'spread' },
      h('h3', {}, h('a', { href: `#/organization/${encodeURIComponent(org.slug || org.id)}` }, org.name)),
      h('span', { class: 'price' }, money(donation.amountMinor, donation.currency))),
    h('p', { class: 'muted' }, h('time', { datetime: donation.donatedAt }, dateTime(donation.donatedAt)), ` (${when(donation.donatedAt)})`,
      donation.visibility === 'public' ? ' · public' : ' · anonymous', donation.month ? ` · monthly, ${donation.month}` : ''),
    donation.message ? h('p', { class: 'message' }, `“${donation.message}”`) : null,
    actions);
}

/** The section; `reload()` shows the list again. `onShared(post)` runs after a share. */
export function historySection({ onShared } = {}) {
  const list = h('ul', { class: 'results give-list donation-list', 'aria-label': 'My donations, newest first' });
  const more = h('p');
  const section = h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'My donations'), list, more);
  const shared = new Set();

  async function load(cursor) {
    const [page, posts] = await Promise.all([
      api(`/v1/donations${query({ limit: 20, cursor })}`),
      cursor ? null : api('/v1/donation-posts?limit=100').catch(() => null)]);
    for (const post of posts?.items || []) shared.add(post.donationId);
    if (!cursor) replace(list);
    list.append(...page.items.map((donation) => donationItem(donation, shared, async (post) => onShared?.(post))));
    if (!cursor && page.items.length === 0) list.append(h('li', { class: 'notice' }, 'No donations yet. ', h('a', { href: '#/give' }, 'Find a charity'), '.'));
    replace(more, page.nextCursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(page.nextCursor).catch((e) => alertError(e, section)) }, 'Show older donations') : null);
  }
  section.reload = () => load().catch((error) => alertError(error, section));
  section.ready = section.reload();
  return section;
}
