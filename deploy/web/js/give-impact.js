// What a person's donations achieved, per organisation (GET /v1/impact): "about N bed nets"
// at the estimates in force when they gave, today's figure when it differs, and the source
// of every estimate used.

import { api } from './api.js';
import { h, replace, money, alertError } from './ui.js';
import { outcomesText, costText } from './give-format.js';
import { webAddress } from './give-charities.js';

function source(estimate) {
  const url = estimate.sourceURL && webAddress(estimate.sourceURL);
  return h('li', {}, `${costText(estimate)}: `, url ? h('a', { href: url, rel: 'noopener', target: '_blank' }, estimate.source,
    h('span', { class: 'visually-hidden' }, ' (opens a new tab)')) : estimate.source, `, published ${estimate.publishedOn}.`);
}

function impactItem(item) {
  const org = h('a', { href: `#/organization/${encodeURIComponent(item.organization.slug || item.organization.id)}` }, item.organization.name);
  const gave = `${money(item.donatedMinor, item.currency)} in ${item.donations} ${item.donations === 1 ? 'donation' : 'donations'}`;
  const achieved = item.atDonation || item.today;
  if (!item.outcomeUnit || !achieved) {
    return h('li', { class: 'impact-item' }, h('p', {}, org, `: ${gave}. `, h('span', { class: 'muted' }, 'This organisation publishes no impact estimate in this currency.')));
  }
  const todayDiffers = item.atDonation && item.today && Math.abs(item.today.outcomes - item.atDonation.outcomes) > 1e-9;
  const estimates = [...achieved.estimates, ...(todayDiffers ? item.today.estimates : [])];
  return h('li', { class: 'impact-item' },
    h('p', {}, org, `: ${gave}, `, h('strong', { class: 'impact-line' }, outcomesText(achieved.outcomes, item.outcomeUnit)), '.'),
    todayDiffers ? h('p', { class: 'muted' }, `At today’s estimate: ${outcomesText(item.today.outcomes, item.outcomeUnit)}.`) : null,
    h('p', { class: 'hint' }, item.atDonation ? 'At the estimate in force when you gave. Source:' : 'At today’s estimate. Source:'),
    h('ul', { class: 'sources hint' }, estimates.map(source)));
}

/** The section; `reload()` shows it again. */
export function impactSection() {
  const list = h('ul', { class: 'impact-list' });
  const section = h('section', { class: 'card give-card', 'aria-labelledby': 'impact-title' },
    h('h2', { id: 'impact-title' }, 'What your donations do'), list,
    h('p', { class: 'hint' }, 'Estimates are approximate and revised over time; they are not a promise of what a donation achieved.'));
  section.reload = () => api('/v1/impact').then((answer) => {
    replace(list, answer.items.length ? answer.items.map(impactItem) : h('li', { class: 'muted' }, 'Once you donate, you see here what it does.'));
  }).catch((error) => alertError(error, section));
  section.ready = section.reload();
  return section;
}
