// People who gave to an organisation publicly (GET /v1/organizations/{id}/supporters), most
// recent first, by their display names; the person signed in is "You".

import { api, query } from './api.js';
import { h, replace, when, dateTime, alertError } from './ui.js';
import { displayNames, isMe } from './give-people.js';

/** The section; its `reload()` shows the list again (after a donation). */
export function supportersSection(organization) {
  const list = h('ul', { class: 'supporters' });
  const more = h('p');
  const section = h('section', { class: 'card give-card', 'aria-labelledby': 'supporters-title' },
    h('h2', { id: 'supporters-title' }, 'People who gave'), list, more);

  async function load(cursor) {
    const page = await api(`/v1/organizations/${encodeURIComponent(organization.id)}/supporters${query({ limit: 20, cursor })}`);
    const names = await displayNames(page.items.map((item) => item.accountId));
    if (!cursor) replace(list);
    list.append(...page.items.map((item) => {
      const me = isMe(item.accountId);
      return h('li', { class: me ? 'me' : undefined },
        h('strong', {}, me ? `You (${names.get(item.accountId)})` : names.get(item.accountId)),
        h('span', { class: 'muted' }, ` · ${item.donations} ${item.donations === 1 ? 'donation' : 'donations'}, the last `,
          h('time', { datetime: item.lastDonatedAt, title: dateTime(item.lastDonatedAt) }, when(item.lastDonatedAt))));
    }));
    if (!cursor && page.items.length === 0) list.append(h('li', { class: 'muted' }, 'Nobody has given publicly yet. Be the first!'));
    replace(more, page.nextCursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(page.nextCursor).catch((e) => alertError(e, section)) }, 'Show more people') : null);
  }
  section.reload = () => load().catch((error) => alertError(error, section));
  section.ready = section.reload();
  return section;
}
