// #/donations: my wallet (balances, recent movements, top-up), what my donations do, my
// donations with their times (each public one can be shared), and the public feed.

import { h, replace, heading, money, when, dateTime, alertError } from '../ui.js';
import { loadWallet, topUpForm, balancesText } from '../give-wallet.js';
import { impactSection } from '../give-impact.js';
import { historySection } from '../give-history.js';
import { feedSection } from '../give-feed.js';

function walletSection() {
  const balance = h('p', { class: 'wallet-balance' }, 'Your wallet: …');
  const movements = h('ul', { class: 'movements' });
  const section = h('section', { class: 'card give-card wallet', 'aria-labelledby': 'wallet-title' },
    h('h2', { id: 'wallet-title' }, 'Wallet'), balance,
    h('details', {}, h('summary', {}, 'Recent movements'), movements),
    topUpForm({ currencies: ['EUR', 'USD'], onDone: () => section.reload() }));
  section.reload = () => loadWallet().then((wallet) => {
    replace(balance, 'Your wallet holds ', h('strong', { class: 'balances' }, balancesText(wallet)), '.');
    replace(movements, wallet.entries.length ? wallet.entries.map((entry) => h('li', {},
      `${entry.kind === 'top-up' ? 'Top-up' : 'Donation'} ${entry.kind === 'top-up' ? '+' : '−'}${money(Math.abs(entry.amountMinor), entry.currency)} · `,
      h('time', { datetime: entry.at, title: dateTime(entry.at) }, when(entry.at)))) : h('li', { class: 'muted' }, 'Nothing yet.'));
  }).catch((error) => alertError(error, section));
  section.ready = section.reload();
  return section;
}

export async function render(view) {
  const wallet = walletSection();
  const impact = impactSection();
  const feedSlot = h('div', {}, feedSection({ limit: 10, title: 'Shared by people on Commons' }));
  const history = historySection({ onShared: async () => {
    const feed = feedSection({ limit: 10, title: 'Shared by people on Commons' });
    replace(feedSlot, feed);
    await feed.ready;
  } });
  view.append(heading('My giving'),
    h('p', {}, h('a', { href: '#/give' }, 'Find charities and donation centres')),
    h('div', { class: 'columns' }, h('div', {}, wallet, impact), h('div', {}, history)),
    feedSlot);
  await Promise.all([wallet.ready, impact.ready, history.ready, feedSlot.firstChild.ready]);
}
