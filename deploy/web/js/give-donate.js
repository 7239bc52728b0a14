// Donating to one organisation from the wallet: a suggested amount or one's own, an optional
// message, and whether to appear among its supporters (POST /v1/donations). The balance in
// the organisation's currency is shown, with a top-up form for when it is not enough, and what
// the chosen amount does at the impact estimate in force ("about 10 bed nets"). One
// Idempotency-Key per attempt, kept for a retry when no answer came, so nobody pays twice.

import { api } from './api.js';
import { session } from './session.js';
import { h, replace, field, onSubmit, announce, money, newId, alertError } from './ui.js';
import { loadWallet, balanceIn, topUpForm, keepKey, typedAmount } from './give-wallet.js';
import { amountError, outcomesText, costText } from './give-format.js';

function amountChoices(organization) {
  const currency = organization.currency;
  const suggested = organization.suggestedAmountsMinor.filter((amount) => amount >= organization.minimumDonationMinor);
  const own = field(`Your own amount (${currency})`, 'amount', { inputmode: 'decimal', autocomplete: 'off', placeholder: money(2500, currency),
    hint: `At least ${money(organization.minimumDonationMinor, currency)}.` });
  const ownInput = own.querySelector('input');
  if (!suggested.length) return [h('input', { type: 'hidden', name: 'choice', value: 'own' }), own];
  const radios = [...suggested.map((amount, i) => [String(amount), money(amount, currency), i === 0]), ['own', 'Other amount', false]]
    .map(([value, text, checked]) => h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'choice', value, checked }), ' ', text));
  ownInput.addEventListener('input', () => { radios.at(-1).querySelector('input').checked = true; });
  // The radios alone in their fieldset: axe wants a group to hold one set of radios only.
  return [h('fieldset', { class: 'amounts' }, h('legend', {}, 'Amount'), h('div', { class: 'row choices' }, radios)), own];
}

/** What a donation achieves at the estimate in force: "about 3 bed nets", or null. */
export function impactOf(organization, amountMinor) {
  const estimate = organization.impactEstimates?.[0];
  if (!estimate || estimate.currency !== organization.currency || !(estimate.costPerOutcomeMinor > 0)) return null;
  return { text: outcomesText(amountMinor / estimate.costPerOutcomeMinor, estimate.outcomeUnit), estimate };
}

/**
 * The "Donate" section of an organisation's page. `onDonated(donation)` runs after each
 * donation (the page shows its supporters again).
 */
export function donateSection(organization, { onDonated } = {}) {
  const section = h('section', { class: 'card give-card donate', 'aria-labelledby': 'donate-title' }, h('h2', { id: 'donate-title' }, 'Donate'));
  if (!organization.verified) {
    section.append(h('p', { class: 'notice' }, `${organization.name} is not verified, so it takes no donations through Commons.`));
    return section;
  }
  if (!session.signedIn) {
    section.append(h('p', {}, h('a', { href: `#/sign-in/${encodeURIComponent(`organization/${organization.slug}`)}` }, 'Sign in to donate'),
      ' from your Commons wallet.'));
    return section;
  }
  const currency = organization.currency;
  const balance = h('p', { class: 'balance' }, 'Your wallet: …');
  const thanks = h('div', { 'aria-live': 'polite' });
  const showBalance = (amountMinor) => {
    replace(balance, 'Your wallet holds ', h('strong', { class: 'balance-amount' }, money(amountMinor, currency)),
      ` for donations in ${currency}.`);
    topUp.open = amountMinor < organization.minimumDonationMinor || topUp.open;
  };
  const topUp = h('details', { class: 'top-up-box' }, h('summary', {}, `Top up your wallet (${currency})`),
    topUpForm({ currencies: [currency], title: `Add ${currency} from a card`, onDone: (made) => { showBalance(made.balanceMinor); topUp.open = false; } }));

  let key = newId();
  const form = h('form', { class: 'donate-form', 'aria-labelledby': 'donate-title', novalidate: true },
    amountChoices(organization),
    field('Message to the organisation (optional)', 'message', { kind: 'textarea', maxlength: 500, rows: 2 }),
    h('div', { class: 'field check' }, h('label', {}, h('input', { type: 'checkbox', name: 'public', value: 'yes', checked: true }),
      ' Show me among the supporters')),
    h('button', { type: 'submit' }, 'Donate'));
  onSubmit(form, async (values) => {
    try {
      const amountMinor = values.choice === 'own' || !values.choice ? typedAmount(values.amount, currency) : Number(values.choice);
      const made = await api('/v1/donations', { method: 'POST', idempotencyKey: key, body: {
        organization: organization.id, amountMinor, currency, message: values.message || undefined,
        visibility: values.public ? 'public' : 'anonymous' } });
      key = newId();
      form.reset();
      showBalance(made.balanceMinor);
      const impact = impactOf(organization, made.donation.amountMinor);
      const said = `Thank you! You gave ${money(made.donation.amountMinor, currency)} to ${organization.name}.`;
      replace(thanks, h('div', { class: 'notice thanks', role: 'status' },
        h('p', {}, h('strong', {}, said), ` Your wallet now holds ${money(made.balanceMinor, currency)}.`),
        impact ? h('p', {}, `That is ${impact.text}, at ${costText(impact.estimate)} (${impact.estimate.source}).`) : null,
        h('p', {}, h('a', { href: '#/donations' }, 'See my donations'), made.donation.visibility === 'public' ? ' and share this one.' : '.')));
      announce(said);
      await onDonated?.(made.donation);
    } catch (error) {
      if (!keepKey(error)) key = newId();
      throw amountError(error);
    }
  });
  // What the chosen amount does, before giving, at the estimate in force.
  const preview = h('p', { class: 'impact-preview', 'aria-live': 'polite' });
  const showPreview = () => {
    const values = new FormData(form);
    const choice = values.get('choice');
    let amountMinor = NaN;
    try { amountMinor = choice === 'own' || !choice ? typedAmount(values.get('amount'), currency) : Number(choice); } catch { /* no amount yet */ }
    const impact = amountMinor > 0 ? impactOf(organization, amountMinor) : null;
    preview.textContent = impact
      ? `${money(amountMinor, currency)} gives ${impact.text}, at ${costText(impact.estimate)} (${impact.estimate.source}, ${impact.estimate.publishedOn}).`
      : '';
  };
  form.insertBefore(preview, form.querySelector('button[type=submit]'));
  for (const type of ['input', 'change', 'reset']) form.addEventListener(type, () => setTimeout(showPreview));
  showPreview();
  section.append(balance, topUp, thanks, form);
  section.ready = loadWallet().then((wallet) => showBalance(balanceIn(wallet, currency)), (error) => alertError(error, section));
  return section;
}
