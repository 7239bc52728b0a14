// The console's organisation verification: organisations by name (those not verified yet
// first shown, or the verified ones, or all, narrowed by words of their name), each with its
// badge and a Verify or Withdraw verification button. A decision redraws that organisation in
// place from the API's answer, so it can be undone at once from the same spot.

import { api, query } from './api.js';
import { h, replace, field, onSubmit, announce, messageOf } from './ui.js';
import { verifiedBadge } from './give-charities.js';

const kinds = { charity: 'Charity', centre: 'Donation centre', both: 'Charity and donation centre' };
const shows = [['false', 'Not verified yet'], ['true', 'Verified'], ['', 'All']];
const pageSize = 20;

/** The section; `.ready` settles when the first page has been read. */
export function organizationsSection() {
  const list = h('ul', { class: 'admin-organizations' });
  const more = h('p', { class: 'row' });
  const summary = h('p', { class: 'results-summary', 'aria-live': 'polite' });
  const form = h('form', { class: 'toolbar admin-filter', 'aria-label': 'Which organisations' },
    field('Show', 'verified', { kind: 'select', options: shows, value: 'false' }),
    field('Name', 'q', { kind: 'search', maxlength: 200, placeholder: 'Any' }),
    h('button', { type: 'submit', class: 'secondary' }, 'Show organisations'));
  const section = h('section', { class: 'admin-section', 'aria-labelledby': 'admin-organizations-title' },
    h('h2', { id: 'admin-organizations-title', tabindex: '-1' }, 'Organisations'),
    h('p', { class: 'hint' }, 'People see a verified badge on charities and donation centres you have checked.'),
    form, summary, list, more);

  /** Reads the first page for the form's choices (or the next one, after `cursor`). */
  let latest = 0;
  async function load(values, cursor) {
    const turn = ++latest;
    const page = await api(`/v1/organizations${query({ verified: values.verified, q: values.q?.trim(), limit: pageSize, cursor })}`);
    if (turn !== latest) return; // a newer choice is on its way
    if (!cursor) replace(list);
    list.append(...page.items.map((organization) => item(organization)));
    const shown = list.children.length;
    const which = shows.find(([value]) => value === values.verified)?.[1].toLowerCase();
    summary.textContent = shown === 0
      ? (values.verified === 'false' && !values.q ? 'Every organisation is verified.' : 'No organisation matches.')
      : `${shown}${page.nextCursor ? '+' : ''} organisation${shown === 1 ? '' : 's'} (${which}).`;
    replace(more, page.nextCursor ? h('button', { type: 'button', class: 'secondary', onclick: async (event) => {
      event.target.disabled = true;
      try { await load(values, page.nextCursor); } catch (error) { event.target.disabled = false; more.append(h('span', { class: 'notice error', role: 'alert' }, messageOf(error))); }
    } }, 'Show more organisations') : null);
  }

  onSubmit(form, (values) => load(values));
  form.querySelector('select').addEventListener('change', () => form.requestSubmit());
  section.ready = load({ verified: 'false', q: '' }).catch((error) => {
    replace(list, h('li', { class: 'notice error', role: 'alert' }, messageOf(error)));
  });
  return section;
}

/** One organisation with its decision; redrawn in place after one. */
function item(organization, said) {
  const verify = !organization.verified;
  const button = h('button', { type: 'button', class: verify ? '' : 'secondary', dataset: { action: verify ? 'verify' : 'withdraw' } },
    verify ? 'Verify' : 'Withdraw verification', h('span', { class: 'visually-hidden' }, ` of ${organization.name}`));
  const node = h('li', { class: 'admin-organization', dataset: { organizationId: organization.id, slug: organization.slug } },
    h('div', { class: 'spread' },
      h('h3', {}, h('a', { href: `#/organization/${encodeURIComponent(organization.slug)}` }, organization.name)),
      verifiedBadge(organization)),
    h('p', { class: 'muted' }, kinds[organization.kind] || organization.kind, organization.address ? ` · ${organization.address}` : null),
    h('p', { class: 'admin-mission' }, organization.mission),
    said ? h('p', { class: 'notice' }, said) : null, // said aloud by announce()
    h('p', { class: 'row' }, button));
  button.addEventListener('click', async () => {
    button.disabled = true;
    node.querySelector('.card-error')?.remove();
    try {
      const changed = await api(`/v1/organizations/${encodeURIComponent(organization.id)}/verification`, { method: 'PUT', body: { verified: verify } });
      const sentence = changed.verified ? `Verified ${changed.name}. People now see its verified badge.`
        : `Withdrew the verification of ${changed.name}. It shows as not verified.`;
      const redrawn = item(changed, sentence);
      node.replaceWith(redrawn);
      redrawn.querySelector('button').focus();
      announce(sentence);
    } catch (error) {
      button.disabled = false;
      button.parentNode.before(h('p', { class: 'notice error card-error', role: 'alert' }, messageOf(error)));
    }
  });
  return node;
}
