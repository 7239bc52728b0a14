// Charities to give to, browsed by cause (category) and tag or searched by name
// (GET /v1/organizations): each with its verified badge, mission and homepage. The causes
// and tags offered are the ones the charities have.

import { api, query } from './api.js';
import { h, replace, field, alertError, announce } from './ui.js';
import { label } from './give-format.js';

/** A homepage's host, as a link's text: "https://www.againstmalaria.com" → "againstmalaria.com". */
export function hostOf(url) {
  try { return new URL(url).hostname.replace(/^www\./, ''); } catch { return url; }
}

/** Safe to link to: only http(s) addresses. */
export function webAddress(url) {
  try { return ['http:', 'https:'].includes(new URL(url).protocol) ? url : null; } catch { return null; }
}

export function verifiedBadge(organization) {
  return organization.verified
    ? h('span', { class: 'badge verified' }, h('span', { 'aria-hidden': 'true' }, '✓ '), 'Verified')
    : h('span', { class: 'badge warn' }, 'Not verified');
}

function charityItem(charity, pickTag) {
  const href = `#/organization/${encodeURIComponent(charity.slug)}`;
  const homepage = charity.homepage && webAddress(charity.homepage);
  return h('li', { class: 'card charity' },
    h('div', { class: 'spread' }, h('h3', {}, h('a', { href }, charity.name)), verifiedBadge(charity)),
    h('p', {}, charity.mission),
    h('p', { class: 'muted' }, charity.categories.map(label).join(', ') || null,
      charity.kind === 'both' ? ' · also takes things in person' : null),
    charity.tags.length ? h('ul', { class: 'tags', 'aria-label': `Tags of ${charity.name}` }, charity.tags.map((tag) => h('li', {},
      h('button', { type: 'button', class: 'tag', 'aria-label': `Show charities tagged ${label(tag)}`, onclick: () => pickTag(tag) }, `#${tag}`)))) : null,
    h('p', { class: 'row' },
      h('a', { href, class: 'button' }, 'Donate', h('span', { class: 'visually-hidden' }, ` to ${charity.name}`)),
      homepage ? h('a', { href: homepage, rel: 'noopener', target: '_blank' }, hostOf(homepage), h('span', { class: 'visually-hidden' }, ' (homepage, opens a new tab)')) : null));
}

/** The section; `filter` ({ category, tag, q }) is what it shows first. */
export function charitiesSection(filter = {}) {
  const state = { category: filter.category || '', tag: filter.tag || '', q: filter.q || '' };
  const causes = new Set(state.category ? [state.category] : []);
  const tags = new Set(state.tag ? [state.tag] : []);
  const controls = h('form', { class: 'toolbar', role: 'search', 'aria-label': 'Find charities' });
  const list = h('ul', { class: 'results give-list charity-list', 'aria-label': 'Charities' });
  const more = h('p');
  const summary = h('p', { class: 'muted', 'aria-live': 'polite' });
  const draw = () => replace(controls,
    field('Search charities', 'q', { kind: 'search', value: state.q, placeholder: 'malaria, cash…', maxlength: 200 }),
    field('Cause', 'category', { kind: 'select', value: state.category, options: [['', 'Any cause'], ...[...causes].sort().map((c) => [c, label(c)])] }),
    field('Tag', 'tag', { kind: 'select', value: state.tag, options: [['', 'Any tag'], ...[...tags].sort().map((t) => [t, `#${t}`])] }),
    h('div', { class: 'field toolbar-action' }, h('button', { type: 'submit' }, 'Show charities')));
  const section = h('section', { class: 'charities', 'aria-labelledby': 'charities-title' },
    h('h2', { id: 'charities-title' }, 'Charities'), controls, summary, list, more);

  const pickTag = (tag) => {
    state.tag = tag;
    tags.add(tag);
    draw();
    show().then(() => controls.querySelector('[name=tag]').focus());
  };
  const show = () => load().catch((error) => alertError(error, list));

  async function load(cursor) {
    const page = await api(`/v1/organizations${query({ kind: 'charity', category: state.category, tag: state.tag, q: state.q, limit: 20, cursor })}`);
    if (!cursor) replace(list);
    const grew = page.items.some((c) => c.categories.some((x) => !causes.has(x)) || c.tags.some((x) => !tags.has(x)));
    page.items.forEach((c) => { c.categories.forEach((x) => causes.add(x)); c.tags.forEach((x) => tags.add(x)); });
    if (grew && !controls.contains(document.activeElement)) draw();
    list.append(...page.items.map((charity) => charityItem(charity, pickTag)));
    const filters = [state.category && label(state.category), state.tag && `#${state.tag}`, state.q && `“${state.q}”`].filter(Boolean);
    const shown = list.querySelectorAll('li.charity').length;
    summary.textContent = `${shown}${page.nextCursor ? '+' : ''} ${shown === 1 ? 'charity' : 'charities'}${filters.length ? ` for ${filters.join(', ')}` : ''}.`;
    if (!cursor && page.items.length === 0) list.append(h('li', { class: 'notice' }, 'No charity matches; try another cause or tag.'));
    replace(more, page.nextCursor ? h('button', { type: 'button', class: 'secondary', onclick: () => load(page.nextCursor).catch((e) => alertError(e, list)) }, 'Show more charities') : null);
    if (!cursor) announce(summary.textContent);
  }

  controls.addEventListener('change', (event) => {
    if (event.target.tagName !== 'SELECT') return;
    Object.assign(state, Object.fromEntries(new FormData(controls)));
    show();
  });
  controls.addEventListener('submit', (event) => {
    event.preventDefault();
    Object.assign(state, Object.fromEntries(new FormData(controls)));
    show();
  });
  draw();
  section.ready = show();
  // Opened on a cause or tag: the others are offered too.
  if (state.category || state.tag || state.q) {
    api(`/v1/organizations${query({ kind: 'charity', limit: 100 })}`).then((page) => {
      page.items.forEach((c) => { c.categories.forEach((x) => causes.add(x)); c.tags.forEach((x) => tags.add(x)); });
      if (!controls.contains(document.activeElement)) draw();
    }, () => { /* the options stay the ones shown */ });
  }
  return section;
}
