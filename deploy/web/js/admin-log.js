// The console's event-log browser: the log newest first, paging back to older events,
// narrowed by category and type, or one stream's history (oldest first); each event with its time, type, stream and position, and, on demand, its
// body and metadata as the log holds them. Personal data is never opened: the API lists each
// sealed value by key, shown as "sealed" while the owner's key exists and "gone" once their
// account was deleted. A stream's name opens that stream's history.

import { api, query } from './api.js';
import { h, replace, field, onSubmit, messageOf, dateTime } from './ui.js';

const pageSize = 20;

/** The section; `.ready` settles when the first page has been read. */
export function logSection() {
  const list = h('ol', { class: 'admin-events' });
  const more = h('p', { class: 'row' });
  const summary = h('p', { class: 'results-summary', 'aria-live': 'polite' });
  const form = h('form', { class: 'toolbar admin-filter admin-log-filter', 'aria-label': 'Which events' },
    field('Category', 'category', { maxlength: 100, placeholder: 'Any, e.g. listing', autocomplete: 'off' }),
    field('Type', 'type', { maxlength: 100, placeholder: 'Any, e.g. ListingPosted', autocomplete: 'off' }),
    field('Stream', 'stream', { maxlength: 200, placeholder: 'Or one stream, e.g. account-…', autocomplete: 'off' }),
    h('button', { type: 'submit', class: 'secondary' }, 'Show events'));
  const section = h('section', { class: 'admin-section', 'aria-labelledby': 'admin-log-title' },
    h('h2', { id: 'admin-log-title', tabindex: '-1' }, 'Event log'),
    h('p', { class: 'hint' }, 'Every fact Commons recorded, newest first. Personal data stays sealed with its owner’s key.'),
    form, summary, list, more);

  let latest = 0;
  /** Shows the first page for `values` (or the next one, from `from`: a stream's next version, or the log's older page). */
  async function load(values, from) {
    const turn = ++latest;
    const stream = values.stream?.trim();
    const page = stream
      ? await api(`/v1/admin/log/streams/${encodeURIComponent(stream)}${query({ from, limit: pageSize })}`)
      : await api(`/v1/admin/log/events${query({ order: 'newest', category: values.category?.trim(), type: values.type?.trim(), before: from, limit: pageSize })}`);
    if (turn !== latest) return; // a newer choice is on its way
    if (!from) replace(list);
    list.append(...page.events.map((view) => eventItem(view, showStream)));
    const shown = list.children.length;
    const next = stream ? page.next : (page.more ? page.next : null);
    summary.textContent = shown === 0 ? 'No events match.'
      : `${shown}${next ? '+' : ''} event${shown === 1 ? '' : 's'}${stream ? ` in ${stream}` : ''}.`;
    replace(more, next ? h('button', { type: 'button', class: 'secondary', onclick: async (event) => {
      event.target.disabled = true;
      try { await load(values, next); } catch (error) { event.target.disabled = false; more.append(h('span', { class: 'notice error', role: 'alert' }, messageOf(error))); }
    } }, stream ? 'Show more events' : 'Show older events') : null);
  }

  /** Fills the form with one stream and shows its history. */
  function showStream(stream) {
    form.elements.category.value = '';
    form.elements.type.value = '';
    form.elements.stream.value = stream;
    form.requestSubmit();
    section.querySelector('h2').focus();
  }

  onSubmit(form, (values) => load(values));
  section.ready = load({}).catch((error) => {
    replace(list, h('li', { class: 'notice error', role: 'alert' }, messageOf(error)));
  });
  return section;
}

/** One event: a line to scan, and its body and metadata behind a disclosure. */
function eventItem({ event, personalData }, showStream) {
  const sealed = personalData.map(({ keyId, state }) => h('span', {
    class: `badge ${state === 'gone' ? 'done' : 'warn'}`, title: `Key ${keyId}`,
  }, state === 'gone' ? 'Personal data gone' : 'Personal data sealed'));
  return h('li', { class: 'admin-event', dataset: { eventId: event.id, type: event.type, position: event.position } },
    h('div', { class: 'spread' },
      h('strong', {}, event.type),
      h('span', { class: 'muted' }, `#${event.position} · ${dateTime(event.recordedAt)}`)),
    h('p', {}, h('button', { type: 'button', class: 'link', onclick: () => showStream(event.stream) }, event.stream),
      h('span', { class: 'muted' }, ` version ${event.version}`), ' ', sealed),
    h('details', {},
      h('summary', {}, 'Body and metadata'),
      h('pre', { class: 'admin-json', tabindex: '0' }, JSON.stringify({ id: event.id, data: event.data, metadata: event.metadata, checkpoint: event.checkpoint }, null, 2))));
}
