// The wallet donations are paid from: its balances (GET /v1/wallet) and a form that tops it
// up from a card (POST /v1/wallet/top-ups). Moving money takes an Idempotency-Key: one per
// attempt, kept when the answer never came (so a retry cannot charge twice), new once
// Commons has answered.

import { api, ApiError } from './api.js';
import { h, field, onSubmit, announce, money, minorUnits, newId } from './ui.js';
import { amountError } from './give-format.js';

/** The signed-in person's wallet: { balances: [{currency, amountMinor}], entries, version }. */
export function loadWallet() {
  return api('/v1/wallet');
}

/** The balance in `currency` (minor units; 0 when the wallet never held any). */
export function balanceIn(wallet, currency) {
  return wallet?.balances?.find((balance) => balance.currency === currency)?.amountMinor ?? 0;
}

/** Whether an attempt's key must be kept for a retry: Commons did not (finally) answer it. */
export function keepKey(error) {
  return !(error instanceof ApiError) || error.status >= 500 || String(error.problem.type || '').endsWith('idempotency-in-progress');
}

/** An amount typed into `name`, in minor units, or an ApiError to show beside that field. */
export function typedAmount(text, currency, name = 'amount') {
  const amount = minorUnits(text, currency);
  if (Number.isNaN(amount)) {
    throw new ApiError({ detail: 'Enter an amount.', errors: { [name]: [`Enter an amount of money, such as ${money(1250, currency)}.`] } }, 0);
  }
  return amount;
}

/**
 * A form that tops the wallet up. `currencies` are the ones offered (the first chosen);
 * `onDone(topUp)` gets the API's answer ({ amountMinor, currency, balanceMinor, simulated, … }).
 */
export function topUpForm({ currencies = ['EUR', 'USD'], onDone, title = 'Top up your wallet' }) {
  let key = newId();
  const titleId = `top-up-${newId().slice(0, 8)}`;
  const form = h('form', { class: 'top-up', 'aria-labelledby': titleId, novalidate: true },
    h('h3', { id: titleId }, title),
    h('div', { class: 'row top-up-amount' },
      field('Top-up amount', 'amount', { inputmode: 'decimal', autocomplete: 'off', placeholder: '20.00', required: true }),
      currencies.length > 1
        ? field('Currency', 'currency', { kind: 'select', options: currencies.map((c) => [c, c]), value: currencies[0] })
        : h('input', { type: 'hidden', name: 'currency', value: currencies[0] })),
    field('Card number', 'cardNumber', { inputmode: 'numeric', autocomplete: 'cc-number', required: true,
      hint: 'A demo stack takes the test card 4242 4242 4242 4242, and no money moves.' }),
    h('button', { type: 'submit' }, 'Top up'));
  return onSubmit(form, async ({ amount, currency, cardNumber }) => {
    try {
      const amountMinor = typedAmount(amount, currency);
      const topUp = await api('/v1/wallet/top-ups', { method: 'POST', idempotencyKey: key, body: { amountMinor, currency, cardNumber } });
      key = newId();
      form.querySelector('[name=amount]').value = '';
      form.querySelector('[name=cardNumber]').value = '';
      announce(`Added ${money(topUp.amountMinor, topUp.currency)}. Your wallet holds ${money(topUp.balanceMinor, topUp.currency)}.`);
      await onDone?.(topUp);
    } catch (error) {
      if (!keepKey(error)) key = newId();
      throw cardError(amountError(error));
    }
  });
}

/** A declined card (402) is about the card field. */
function cardError(error) {
  if (!(error instanceof ApiError) || !String(error.problem.type || '').endsWith('card-declined')) return error;
  return new ApiError({ ...error.problem, errors: { cardNumber: [error.message] } }, error.status);
}

/** The balances as a line: "€12.50 · $3.00", or "empty". */
export function balancesText(wallet) {
  const held = (wallet?.balances || []).filter((balance) => balance.amountMinor !== 0);
  return held.length ? held.map((balance) => money(balance.amountMinor, balance.currency)).join(' · ') : 'empty';
}
