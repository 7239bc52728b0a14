// The public feed of shared donations (GET /v1/donation-posts): who gave to whom, in their
// own words, newest first, with "Show more" for older posts.

import { api, query } from './api.js';
import { h, replace, when, dateTime, alertError } from './ui.js';
import { displayNames, isMe } from './give-people.js';

function post(item, names) {
  const who = isMe(item.accountId) ? 'You' : names.get(item.accountId);
  return h('li', { class: 'post', dataset: { donation: item.donationId } },
    h('p', { class: 'post-caption' }, item.caption),
    h('p', { class: 'muted' }, `${who} gave to `, h('a', { href: `#/organization/${encodeURIComponent(item.organization.slug || item.organization.id)}` }, item.organization.name),
      ' · ', h('time', { datetime: item.sharedAt, title: dateTime(item.sharedAt) }, when(item.sharedAt))));
}

/** A section (with an h2) that shows the feed, `limit` posts at a time. */
export function feedSection({ limit = 5, title = 'Shared by people on Commons' } = {}) {
  const list = h('ul', { class: 'posts' });
  const more = h('p');
  const section = h('section', { class: 'feed', 'aria-labelledby': 'feed-title' },
    h('h2', { id: 'feed-title' }, title), list, more);
  async function load(cursor) {
    const page = await api(`/v1/donation-posts${query({ limit, cursor })}`);
    const names = await displayNames(page.items.map((item) => item.accountId));
    list.append(...page.items.map((item) => post(item, names)));
    if (!cursor && page.items.length === 0) list.append(h('li', { class: 'muted' }, 'Nobody has shared a donation yet.'));
    replace(more, page.nextCursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(page.nextCursor).catch((e) => alertError(e, section)) }, 'Show more') : null);
  }
  section.ready = load().catch((error) => alertError(error, section));
  return section;
}
