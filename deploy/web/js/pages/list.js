// One shopping list (#/list/<id>), edited together: every edit goes into the list's queue
// (list-queue.js) and from there to Commons in batches, so an edit made offline waits on
// this device and goes when the connection returns; others' changes arrive live
// (list-live.js) and the list is read again to show them with Commons' own totals.

import { api, ApiError } from '../api.js';
import { go } from '../app.js';
import { itemList, totalsCard } from '../list-items.js';
import { watchList } from '../list-live.js';
import { productSearch, fieldError } from '../list-products.js';
import { enqueue, forget, queued, sendQueued } from '../list-queue.js';
import { displayName, sameAccount, shareForm } from '../list-sharing.js';
import { editLabel, shownList } from '../list-state.js';
import { session } from '../session.js';
import { h, replace, field, heading, onSubmit, announce, messageOf, newId } from '../ui.js';

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

export async function render(view, [listId]) {
  const me = session.current?.accountId;
  let server = await api(`/v1/lists/${encodeURIComponent(listId)}`);
  let sent = null;          // a batch Commons took that `server` may not show yet
  let wanted = server.version;
  let reading = null;
  let sending = null;
  let sendAgain = false;
  let sendError = null;
  let retry = null;
  let gone = false;

  const title = heading(server.name);
  const status = h('p', { class: 'sync', role: 'status' });
  const problems = h('div', { class: 'edit-problems' });
  const totals = h('div');
  const items = h('div', { class: 'items' });
  const people = h('div');
  const renameArea = h('div');

  // Drawing.
  const draw = () => {
    if (gone) return;
    const list = shownList(server, queued(listId), sent);
    const focused = document.activeElement?.dataset?.key;
    title.textContent = list.name;
    document.title = `${list.name} · Commons`;
    replace(totals, totalsCard(list));
    replace(items, itemList(list.items, { check, change, remove }));
    if (focused) (items.querySelector(`[data-key="${CSS.escape(focused)}"]:not([disabled])`) || (focused.endsWith(':remove') ? title : null))?.focus();
    drawStatus();
  };
  const drawStatus = () => {
    const waiting = queued(listId).length;
    const edits = waiting === 1 ? '1 edit is' : `${waiting} edits are`;
    let text;
    if (!navigator.onLine) {
      text = waiting
        ? `You are offline. ${edits} waiting to be sent from this device; they go as soon as the connection returns.`
        : 'You are offline. What you change now is kept on this device and sent when the connection returns.';
    } else if (sending && waiting) text = `Sending ${waiting === 1 ? '1 edit' : `${waiting} edits`}…`;
    else if (waiting && sendError) text = `${edits} waiting to be sent: ${sendError} Trying again shortly.`;
    else if (waiting) text = `${edits} waiting to be sent.`;
    else text = 'All changes saved. Changes by others appear here as they happen.';
    status.textContent = text;
    status.className = `sync${!navigator.onLine || waiting ? ' waiting' : ''}`;
  };

  // Reading the list again, until it shows at least version `wanted`.
  const catchUp = (version = 0) => {
    wanted = Math.max(wanted, version);
    if (!reading) {
      // Cleared in .finally, which runs after the assignment even when nothing was awaited.
      reading = (async () => {
        try {
          for (let tries = 0; tries < 10 && !gone && navigator.onLine; tries += 1) {
            const list = await api(`/v1/lists/${encodeURIComponent(listId)}`);
            if (list.version >= server.version) server = list;
            if (sent && server.version >= sent.version) sent = null;
            draw();
            if (server.version >= wanted) break;
            // Live changes come from the log; the list is read from a model that follows it a moment later.
            await sleep(150 * (tries + 1));
          }
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) lost();
          else if (navigator.onLine) showProblem(messageOf(error));
        }
      })().finally(() => { reading = null; });
    }
    return reading;
  };

  // Sending what is queued, one batch at a time.
  const send = () => {
    if (sending) { sendAgain = true; return sending; }
    clearTimeout(retry);
    sending = (async () => {
      try {
        do {
          sendAgain = false;
          if (gone || !navigator.onLine || queued(listId).length === 0) break;
          drawStatus();
          const result = await sendQueued(listId);
          sendError = null;
          if (result.sent.length) sent = { commands: result.sent, version: result.version ?? server.version };
          for (const { command, problem } of result.rejected) {
            showProblem(`${editLabel(command, server)} did not work: ${problem?.detail || 'Commons refused it.'}`);
          }
          await catchUp(result.version ?? 0);
          if (result.sent.length === 0 && result.rejected.length === 0) break;
        } while (sendAgain || queued(listId).length > 0);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) lost();
        else if (navigator.onLine) {
          sendError = messageOf(error);
          retry = setTimeout(send, 5000);
        }
      }
    })().finally(() => {
      sending = null;
      draw();
      // An edit made just as the last batch came back.
      if (sendAgain && !gone) send();
    });
    return sending;
  };

  const edit = (command) => {
    enqueue(listId, command);
    draw();
    send();
  };
  const check = (item, checked) => edit({ type: checked ? 'check' : 'uncheck', itemId: item.id });
  const change = (item, delta) => edit({ type: 'changeQuantity', itemId: item.id, delta });
  const remove = (item) => { edit({ type: 'removeItem', itemId: item.id }); announce('Removed.'); };
  const addProduct = (product, quantity) => {
    const current = shownList(server, queued(listId), sent).items.find((item) => item.productId === product.id && !item.checked);
    // The same product again adds to what is on the list, as a change others' changes add to.
    if (current && current.quantity + quantity <= 999) edit({ type: 'changeQuantity', itemId: current.id, delta: quantity });
    else edit({ type: 'addItem', itemId: newId(), productId: product.id, quantity, shown: { product, addedBy: me } });
    announce(`${product.name} is on the list.`);
  };

  const showProblem = (sentence) => {
    problems.append(h('p', { class: 'notice error', role: 'alert' }, sentence,
      ' ', h('button', { type: 'button', class: 'link', onclick: (event) => event.currentTarget.parentElement.remove() }, 'Dismiss')));
  };
  const lost = () => {
    if (gone) return;
    gone = true;
    forget(listId);
    replace(view, heading('This list is gone'),
      h('p', { class: 'notice' }, 'It was deleted, or it is no longer shared with you.'), h('p', {}, h('a', { href: '#/lists' }, 'Your lists')));
    view.querySelector('h1').focus();
  };

  const ownItem = onSubmit(h('form', { class: 'card own-item', 'aria-labelledby': 'own-item-title' },
    h('h2', { id: 'own-item-title' }, 'Add your own item'),
    field('Item', 'text', { required: true, maxlength: 200, autocomplete: 'off', placeholder: 'Birthday candles' }),
    field('How many', 'quantity', { kind: 'number', value: 1, min: 1, max: 999, inputmode: 'numeric', required: true }),
    h('button', { type: 'submit' }, 'Add to the list')),
  async ({ text, quantity }, event) => {
    const count = Number(quantity);
    if (!text.trim()) throw fieldError('text', 'must not be empty');
    if (!Number.isInteger(count) || count < 1 || count > 999) throw fieldError('quantity', 'must be a whole number from 1 to 999');
    edit({ type: 'addItem', itemId: newId(), text: text.trim(), quantity: count, shown: { addedBy: me } });
    event.target.reset();
    event.target.querySelector('input[name=text]').focus();
    announce(`${text.trim()} is on the list.`);
  });

  const drawPeople = async () => {
    const members = server.members.filter((id) => !sameAccount(id, server.ownerId));
    const owner = await displayName(server.ownerId);
    const rows = await Promise.all(members.map(async (id) => {
      const name = await displayName(id);
      const leave = sameAccount(id, me)
        ? h('button', { type: 'button', class: 'secondary', onclick: (event) => removeMember(id, event.currentTarget) }, 'Leave this list')
        : server.role === 'owner'
          ? h('button', { type: 'button', class: 'link', 'aria-label': `Stop sharing with ${name}`, onclick: (event) => removeMember(id, event.currentTarget) }, 'Stop sharing')
          : null;
      return h('li', { class: 'spread' }, h('span', {}, name), leave);
    }));
    replace(people, h('section', { class: 'card people', 'aria-labelledby': 'people-title' },
      h('h2', { id: 'people-title' }, 'Who shops with this list'),
      h('p', {}, server.role === 'owner' ? 'You keep this list.' : `${owner} keeps this list.`),
      rows.length ? h('ul', { class: 'members' }, rows) : h('p', { class: 'muted' }, 'Nobody else yet.'),
      server.role === 'owner' ? shareForm(listId, async () => { await catchUp(); drawPeople(); }) : null));
  };
  const removeMember = async (id, button) => {
    button.disabled = true;
    try {
      await api(`/v1/lists/${encodeURIComponent(listId)}/members/${encodeURIComponent(id)}`, { method: 'DELETE' });
      if (sameAccount(id, me)) { forget(listId); go('lists'); return; }
      await catchUp();
      drawPeople();
    } catch (error) {
      button.disabled = false;
      showProblem(messageOf(error));
    }
  };

  if (server.role === 'owner') {
    replace(renameArea, onSubmit(h('form', { class: 'card rename', 'aria-labelledby': 'rename-title' },
      h('h2', { id: 'rename-title' }, 'Rename the list'),
      field('List name', 'name', { required: true, maxlength: 100, value: server.name, autocomplete: 'off' }),
      h('button', { type: 'submit', class: 'secondary' }, 'Rename')),
    async ({ name }) => {
      if (!name.trim()) throw fieldError('name', 'must not be empty');
      edit({ type: 'rename', name: name.trim() });
      announce(`Renamed to ${name.trim()}.`);
    }));
  }

  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/lists' }, '← Your lists')),
    title, status, problems,
    h('div', { class: 'columns list-layout' },
      h('div', {}, h('section', { 'aria-labelledby': 'items-title' }, h('h2', { id: 'items-title' }, 'On the list'), items), totals),
      h('div', {},
        h('section', { class: 'card', 'aria-labelledby': 'shops-title' }, h('h2', { id: 'shops-title' }, 'Add from the shops'),
          productSearch(addProduct)),
        ownItem, people, renameArea)));
  draw();
  drawPeople();

  const online = () => { sendError = null; send(); catchUp(); };
  const offline = () => drawStatus();
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  const unwatch = watchList(listId, {
    onSnapshot: (list) => {
      // The list as it is when the stream starts: newer than the one read first, it replaces it.
      if (gone || list.version <= server.version) return;
      server = list;
      if (sent && server.version >= sent.version) sent = null;
      draw();
      drawPeople();
    },
    onChange: (changeView) => {
      if (changeView.version <= server.version) return;
      if (changeView.type === 'ShoppingListDeleted' || (changeView.type === 'ShoppingListMemberRemoved' && sameAccount(changeView.accountId, me))) { lost(); return; }
      catchUp(changeView.version).then(() => {
        if (changeView.type.startsWith('ShoppingListMember')) drawPeople();
      });
    },
    onReconnect: () => catchUp(),
    onGone: () => catchUp(),
  });
  send(); // edits left from an earlier visit
  return () => {
    gone = true;
    unwatch();
    clearTimeout(retry);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
}
