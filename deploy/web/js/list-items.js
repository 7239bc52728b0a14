// How a shopping list's items and totals are drawn: one row per item (tick it off, one more,
// one fewer, remove), and the totals exactly as Commons computed them. The page passes in
// what each control does; this module only draws.

import { itemName } from './list-state.js';
import { displayName, sameAccount } from './list-sharing.js';
import { productImage } from './list-products.js';
import { session } from './session.js';
import { h, money } from './ui.js';

/**
 * The list of items. `act` has `check(item, checked)`, `change(item, delta)`, `remove(item)`.
 * Controls carry `data-key` so that the page can give focus back after drawing again.
 */
export function itemList(items, act) {
  if (items.length === 0) return h('p', { class: 'muted empty-list' }, 'Nothing on this list yet. Search the shops or type your own item below.');
  const sorted = [...items.filter((item) => !item.checked), ...items.filter((item) => item.checked)];
  return h('ul', { class: 'list-items' }, sorted.map((item) => itemRow(item, act)));
}

function itemRow(item, act) {
  const name = itemName(item);
  const checkId = `check-${item.id}`;
  const by = h('span');
  if (item.addedBy && !sameAccount(item.addedBy, session.current?.accountId)) {
    displayName(item.addedBy).then((person) => { by.textContent = ` · added by ${person}`; });
  }
  return h('li', { class: `list-item${item.checked ? ' checked' : ''}`, dataset: { itemId: item.id } },
    h('div', { class: 'item-main' },
      h('input', { type: 'checkbox', id: checkId, checked: item.checked, dataset: { key: `${item.id}:check` },
        onchange: (event) => act.check(item, event.target.checked) }),
      item.product ? productImage(item.product, 48) : null,
      h('div', { class: 'item-text' },
        h('label', { for: checkId, class: 'item-name' }, name),
        h('p', { class: 'muted' }, details(item), by,
          item.pending ? ' ' : null, item.pending ? h('span', { class: 'badge warn' }, 'not sent yet') : null))),
    h('div', { class: 'item-actions' },
      h('button', { type: 'button', class: 'secondary step', 'aria-label': `One fewer ${name}`, dataset: { key: `${item.id}:minus` },
        disabled: item.quantity <= 1, onclick: () => act.change(item, -1) }, '−'),
      h('output', { class: 'quantity', 'aria-label': `Quantity of ${name}` }, String(item.quantity)),
      h('button', { type: 'button', class: 'secondary step', 'aria-label': `One more ${name}`, dataset: { key: `${item.id}:plus` },
        disabled: item.quantity >= 999, onclick: () => act.change(item, 1) }, '+'),
      h('button', { type: 'button', class: 'link remove', 'aria-label': `Remove ${name}`, dataset: { key: `${item.id}:remove` },
        onclick: () => act.remove(item) }, 'Remove')));
}

function details(item) {
  if (!item.product) return 'Your own item';
  const product = item.product;
  const price = product.cheapestPrice ? `${money(product.cheapestPrice.amountMinor, product.cheapestPrice.currency)} each at the cheapest · ` : '';
  return `${product.brand} · ${product.unit} · ${price}${product.caloriesPerUnit} kcal each`;
}

/** The list's totals as Commons gives them: cheapest price per currency, calories, unpriced items. */
export function totalsCard(list) {
  const { totals } = list;
  const prices = totals.prices.length ? totals.prices.map((price) => money(price.amountMinor, price.currency)).join(' + ') : money(0);
  return h('section', { class: 'card totals', 'aria-labelledby': 'totals-title' },
    h('h2', { id: 'totals-title' }, 'Totals'),
    h('dl', {},
      h('dt', {}, 'Cheapest price'), h('dd', { class: 'price' }, prices),
      h('dt', {}, 'Calories'), h('dd', {}, `${totals.calories.toLocaleString()} kcal`)),
    totals.unpricedItems > 0
      ? h('p', { class: 'hint' }, totals.unpricedItems === 1 ? '1 item has no price (your own item, or one no store sells).' : `${totals.unpricedItems} items have no price (your own items, or ones no store sells).`)
      : null,
    list.pendingCount > 0 ? h('p', { class: 'hint' }, 'Edits not sent yet count once Commons has them.') : null,
    h('p', { class: 'hint' }, 'At each product’s cheapest store, for the quantities on the list.'));
}
