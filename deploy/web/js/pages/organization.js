// #/organization/<id or slug>: one charity or donation centre. Its mission, homepage and
// verified badge; what a donation achieves by each impact estimate, with its source; where
// and when to bring things; the donate form; and the people who gave.

import { api } from '../api.js';
import { h, heading, money } from '../ui.js';
import { drawMap } from '../map.js';
import { directionsLink } from '../place.js';
import { label, hoursLines, costText, outcomesText } from '../give-format.js';
import { verifiedBadge, webAddress, hostOf } from '../give-charities.js';
import { donateSection } from '../give-donate.js';
import { supportersSection } from '../give-supporters.js';

const kinds = { charity: 'Charity', centre: 'Donation centre', both: 'Charity and donation centre' };

function about(organization) {
  const homepage = organization.homepage && webAddress(organization.homepage);
  const rating = organization.rating;
  return h('section', { class: 'card give-card about', 'aria-label': `About ${organization.name}` },
    h('p', { class: 'row' }, verifiedBadge(organization), h('span', { class: 'muted' }, kinds[organization.kind] || organization.kind)),
    h('p', { class: 'mission' }, organization.mission),
    organization.description ? h('p', {}, organization.description) : null,
    homepage ? h('p', {}, 'Homepage: ', h('a', { href: homepage, rel: 'noopener', target: '_blank', class: 'homepage' }, hostOf(homepage),
      h('span', { class: 'visually-hidden' }, ' (opens a new tab)'))) : null,
    rating ? h('p', { class: 'muted' }, `Rated ${rating.value} of ${rating.scale} by ${rating.source} (${rating.date}).`) : null,
    organization.categories.length || organization.tags.length ? h('ul', { class: 'tags', 'aria-label': 'Causes and tags' },
      organization.categories.map((c) => h('li', {}, h('a', { class: 'tag', href: `#/give/category/${encodeURIComponent(c)}` }, label(c)))),
      organization.tags.map((t) => h('li', {}, h('a', { class: 'tag', href: `#/give/tag/${encodeURIComponent(t)}` }, `#${t}`)))) : null);
}

function estimateItem(estimate, organization, current) {
  const example = organization.suggestedAmountsMinor[1] ?? organization.suggestedAmountsMinor[0] ?? organization.minimumDonationMinor * 10;
  const sourceURL = estimate.sourceURL && webAddress(estimate.sourceURL);
  return h('li', { class: current ? 'estimate current' : 'estimate' },
    h('p', {}, h('strong', {}, costText(estimate)), current && estimate.currency === organization.currency && estimate.costPerOutcomeMinor > 0
      ? `: ${money(example, organization.currency)} gives ${outcomesText(example / estimate.costPerOutcomeMinor, estimate.outcomeUnit)}.` : '.'),
    h('p', { class: 'source' }, 'Source: ', sourceURL ? h('a', { href: sourceURL, rel: 'noopener', target: '_blank' }, estimate.source,
      h('span', { class: 'visually-hidden' }, ' (opens a new tab)')) : estimate.source, `, published ${estimate.publishedOn}.`));
}

function impact(organization) {
  const [current, ...earlier] = organization.impactEstimates;
  if (!current) return null;
  return h('section', { class: 'card give-card impact', 'aria-labelledby': 'impact-title' },
    h('h2', { id: 'impact-title' }, 'What a donation does'),
    h('ul', { class: 'estimates' }, estimateItem(current, organization, true)),
    earlier.length ? h('details', {}, h('summary', {}, `Earlier estimates (${earlier.length})`),
      h('ul', { class: 'estimates' }, earlier.map((estimate) => estimateItem(estimate, organization, false)))) : null,
    h('p', { class: 'hint' }, 'Estimates are approximate and revised over time; they are not a promise of what one donation achieves.'));
}

function place(organization) {
  if (!organization.location && !organization.openingHours.length && !organization.acceptedCategories.length) return null;
  const hours = hoursLines(organization.openingHours);
  return h('section', { class: 'card give-card place', 'aria-labelledby': 'place-title' },
    h('h2', { id: 'place-title' }, 'Bring things'),
    organization.address ? h('p', {}, organization.address) : null,
    h('p', {}, h('strong', {}, 'Accepts: '), organization.acceptedCategories.map(label).join(', ') || 'ask the centre'),
    h('h3', {}, 'Opening hours'),
    hours.length ? h('ul', { class: 'hours-list' }, hours.map((line) => h('li', {}, line))) : h('p', {}, 'By appointment.'),
    organization.location ? drawMap({ centre: organization.location, radiusMetres: 1000, unit: 'km',
      points: [{ ...organization.location, label: organization.name, kind: 'centre' }], caption: `Where ${organization.name} is` }) : null,
    organization.location ? h('p', {}, h('a', { href: directionsLink(organization.location), rel: 'noopener', target: '_blank' }, 'Directions',
      h('span', { class: 'visually-hidden' }, ` to ${organization.name} (opens a new tab)`))) : null);
}

export async function render(view, [id]) {
  const organization = await api(`/v1/organizations/${encodeURIComponent(id || '')}`);
  const supporters = supportersSection(organization);
  const donate = donateSection(organization, { onDonated: () => supporters.reload() });
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/give' }, '← Give')),
    heading(organization.name),
    h('div', { class: 'columns' },
      h('div', {}, about(organization), impact(organization), place(organization)),
      h('div', {}, donate, supporters)));
  await Promise.all([donate.ready, supporters.ready]);
}
