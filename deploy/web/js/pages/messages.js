// Messages: my conversations about items (a request opens one between the giver and the
// person asking), newest first with unread counts (`#/messages`); and one conversation
// (`#/messages/<id>`), which checks for new messages every few seconds while it is open.

import { api } from '../api.js';
import { h, field, heading, replace, onSubmit, announce, when, messageOf } from '../ui.js';
import { displayName, isMe } from '../listing-people.js';

const pollMilliseconds = 5000;
/** Conversations read at a time; "Show more conversations" reads the next page. */
const conversationsPageSize = 20;

export function render(view, [id]) {
  return id ? conversation(view, id) : conversations(view);
}

/** The listing a conversation is about: its title (or a sentence when it is gone). */
async function titleOf(listingId) {
  try { return (await api(`/v1/listings/${encodeURIComponent(listingId)}`)).title; } catch { return 'an item that is gone'; }
}

async function conversations(view) {
  const first = await api(`/v1/conversations?limit=${conversationsPageSize}`);
  view.append(heading('Messages'));
  if (first.items.length === 0) {
    view.append(h('p', {}, 'No conversations yet. Asking for an item starts one with its giver.'),
      h('p', {}, h('a', { href: '#/free' }, 'Find free things near you')));
    return;
  }
  // A page at a time, newest message first; "Show more conversations" reads the next.
  const list = h('ul', { class: 'results conversations' });
  const more = h('button', { type: 'button', class: 'secondary' }, 'Show more conversations');
  let cursor = null;
  const show = (page) => {
    list.append(...page.items.map(conversationItem));
    cursor = page.nextCursor ?? null;
    more.hidden = !cursor;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      show(await api(`/v1/conversations?limit=${conversationsPageSize}&cursor=${encodeURIComponent(cursor)}`));
    } catch (error) {
      more.before(h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
    }
    more.disabled = false;
  });
  show(first);
  view.append(list, more);
}

/** One conversation in the list: what it is about, with whom, when, and what is unread. */
function conversationItem(c) {
  const other = isMe(c.ownerId) ? c.requesterId : c.ownerId;
  const title = h('span', {}, '…');
  const name = h('span', {}, '…');
  titleOf(c.listingId).then((text) => { title.textContent = text; });
  displayName(other).then((text) => { name.textContent = text; });
  return h('li', { class: 'conversation' },
    h('h2', {}, h('a', { href: `#/messages/${c.id}` }, 'About ', title)),
    h('p', { class: 'row' }, h('span', {}, isMe(c.ownerId) ? 'asked by ' : 'given by ', name), h('span', { class: 'muted' }, when(c.lastMessageAt)),
      c.unreadCount ? h('span', { class: 'badge warn' }, `${c.unreadCount} unread`) : null));
}

async function conversation(view, id) {
  let about = null;
  try {
    about = await api(`/v1/conversations/${encodeURIComponent(id)}`);
  } catch (error) {
    if (error.status !== 404 && error.status !== 400) throw error;
  }
  if (!about) {
    view.append(heading('No such conversation'), h('p', {}, h('a', { href: '#/messages' }, 'All my messages')));
    return;
  }
  const other = isMe(about.ownerId) ? about.requesterId : about.ownerId;
  const title = await titleOf(about.listingId);
  const otherName = await displayName(other);
  const shown = h('ol', { class: 'messages', 'aria-live': 'polite', 'aria-label': 'Messages' });
  let count = -1;

  async function refresh() {
    const items = [];
    let cursor;
    do {
      const page = await api(`/v1/conversations/${encodeURIComponent(id)}/messages${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && items.length < 1000);
    if (items.length === count) return;
    const fromThem = count >= 0 && items.slice(count).some((m) => !isMe(m.senderId));
    count = items.length;
    replace(shown, items.map((m) => h('li', { class: isMe(m.senderId) ? 'mine' : '' },
      h('p', { class: 'muted' }, isMe(m.senderId) ? 'You' : otherName, ' · ', when(m.sentAt)),
      h('p', { class: 'message-text' }, m.text ?? '(This message can no longer be read.)'))));
    if (fromThem) announce(`New message from ${otherName}.`);
    if (items.some((m) => !isMe(m.senderId))) await api(`/v1/conversations/${encodeURIComponent(id)}/read`, { method: 'POST', body: {} });
  }

  const form = onSubmit(h('form', { class: 'card', 'aria-label': `Write to ${otherName}` },
    field(`Message to ${otherName}`, 'text', { kind: 'textarea', required: true, maxlength: 2000 }),
    h('button', { type: 'submit' }, 'Send')),
  async ({ text }) => {
    await api(`/v1/conversations/${encodeURIComponent(id)}/messages`, { method: 'POST', body: { text } });
    form.reset();
    announce('Sent.');
    await refresh();
  });

  view.append(heading(`About ${title}`),
    h('p', { class: 'row' }, h('span', {}, isMe(about.ownerId) ? `${otherName} asked for your item.` : `With ${otherName}, who gives it.`),
      h('a', { href: `#/item/${about.listingId}` }, 'See the item'), h('a', { href: '#/messages' }, 'All my messages')),
    shown, form);
  await refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh().catch(() => { /* the next turn tries again */ }); }, pollMilliseconds);
  return () => clearInterval(timer);
}
