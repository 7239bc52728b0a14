// My shopping lists (#/lists): make one, open one, delete mine, and the link that lets others
// share theirs with me. A list shared with me, renamed, left or deleted shows at once: the page
// follows my lists' stream and reads them again at each change's position.
// #/lists/with/<accountId> is where such a link lands: the owner picks which of their lists to
// share with that person.

import { api } from '../api.js';
import { go } from '../app.js';
import { watchMyLists } from '../list-live.js';
import { forget } from '../list-queue.js';
import { mySharingCard, displayName, shareList, sameAccount } from '../list-sharing.js';
import { session } from '../session.js';
import { h, replace, field, heading, onSubmit, announce, alertError, newId } from '../ui.js';

export async function render(view, [mode, accountId]) {
  if (mode === 'with' && accountId) return shareWith(view, accountId);
  const lists = h('div', { class: 'my-lists' }, h('p', { class: 'loading' }, 'Loading your lists…'));
  view.append(heading('Shopping lists'), newListForm(), h('h2', {}, 'Your lists'), lists, mySharingCard());
  await showLists(lists);
  return followLists(lists);
}

/** Shows `where` again whenever my lists change; answers a function that stops it. */
function followLists(where) {
  const me = session.current?.accountId;
  let reading = null;
  let again = null;
  // One read at a time; changes that come meanwhile make one more read, at the newest position.
  const reload = (position) => {
    if (reading) { again = position; return; }
    reading = showLists(where, position).finally(() => {
      reading = null;
      if (again !== null) { const next = again; again = null; reload(next); }
    });
  };
  return watchMyLists({
    onReady: (position) => reload(position),
    onChange: (change) => {
      if (change.type === 'ShoppingListMemberAdded' && sameAccount(change.accountId, me)) announce('A list was shared with you.');
      reload(change.position);
    },
    onReconnect: () => reload(undefined),
  });
}

function newListForm() {
  // One key per form: pressing again after a lost answer makes the same list, not a second.
  let key = newId();
  const form = onSubmit(h('form', { class: 'card new-list', 'aria-labelledby': 'new-list-title' },
    h('h2', { id: 'new-list-title' }, 'Start a list'),
    field('Name of the new list', 'name', { required: true, maxlength: 100, placeholder: 'Weekend groceries', autocomplete: 'off' }),
    h('button', { type: 'submit' }, 'Make the list')),
  async ({ name }) => {
    const list = await api('/v1/lists', { method: 'POST', body: { name }, idempotencyKey: key });
    key = newId();
    announce(`Made the list ${list.name}.`);
    go(`list/${list.id}`);
  });
  return form;
}

async function showLists(where, position) {
  let page;
  try {
    page = await api('/v1/lists?limit=100', { headers: position ? { 'Commons-Min-Position': position } : {} });
  } catch (error) {
    replace(where);
    alertError(error, where);
    return;
  }
  if (page.items.length === 0) {
    replace(where, h('p', { class: 'muted' }, 'No lists yet. Start one above, or send someone your sharing link below.'));
    return;
  }
  replace(where, h('ul', { class: 'lists' }, page.items.map((list) => listEntry(list, where))));
}

function listEntry(list, where) {
  const actions = h('div', { class: 'row' });
  const entry = h('li', { class: 'card list-entry' },
    h('div', { class: 'spread' },
      h('h3', {}, h('a', { href: `#/list/${list.id}` }, list.name)),
      list.role === 'owner' ? null : h('span', { class: 'badge' }, 'Shared with you')),
    h('p', { class: 'muted' }, summary(list)),
    actions);
  const askFirst = () => {
    const keep = h('button', { type: 'button', class: 'secondary', onclick: () => { showDelete(); actions.querySelector('button')?.focus(); } }, 'Keep it');
    replace(actions,
      h('p', { class: 'confirm', role: 'alert' }, `Delete “${list.name}” for everyone it is shared with?`),
      h('button', { type: 'button', class: 'danger', onclick: (event) => remove(event.currentTarget) }, 'Yes, delete it'), keep);
    keep.focus();
  };
  const remove = async (button) => {
    button.disabled = true;
    try {
      await api(`/v1/lists/${encodeURIComponent(list.id)}`, { method: 'DELETE' });
      forget(list.id);
      announce(`Deleted ${list.name}.`);
      await showLists(where);
      where.closest('main')?.querySelector('h1')?.focus();
    } catch (error) {
      button.disabled = false;
      alertError(error, actions);
    }
  };
  const showDelete = () => replace(actions, list.role === 'owner'
    ? h('button', { type: 'button', class: 'secondary', 'aria-label': `Delete ${list.name}`, onclick: askFirst }, 'Delete')
    : null);
  showDelete();
  return entry;
}

function summary(list) {
  if (list.itemCount === 0) return 'Empty';
  const items = list.itemCount === 1 ? '1 item' : `${list.itemCount} items`;
  return list.uncheckedCount === 0 ? `${items}, all in the basket` : `${items}, ${list.uncheckedCount} still to get`;
}

/** Where a sharing link lands: choose one of my lists to share with `accountId`. */
async function shareWith(view, accountId) {
  const title = heading('Share a list');
  view.append(title);
  if (sameAccount(accountId, session.current?.accountId)) {
    view.append(h('p', { class: 'notice' }, 'This is your own sharing link: send it to whoever keeps the list you want to share. ',
      h('a', { href: '#/lists' }, 'Back to your lists')));
    return;
  }
  const [name, page] = await Promise.all([displayName(accountId), api('/v1/lists?limit=100')]);
  title.textContent = `Share a list with ${name}`;
  const mine = page.items.filter((list) => list.role === 'owner');
  if (mine.length === 0) {
    view.append(h('p', { class: 'notice' }, 'You have no lists of your own to share yet. ', h('a', { href: '#/lists' }, 'Start one')));
    return;
  }
  view.append(onSubmit(h('form', { class: 'card' },
    h('p', {}, `${name} will see the list, and add, tick off and change items with you.`),
    field('Which list?', 'listId', { kind: 'select', options: mine.map((list) => [list.id, list.name]) }),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Share it'), h('a', { href: '#/lists' }, 'Not now'))),
  async ({ listId }) => {
    await shareList(listId, accountId);
    announce(`Shared with ${name}.`);
    go(`list/${listId}`);
  }));
}
