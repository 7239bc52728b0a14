// The console's read models: for one service at a time, each projection with its checkpoint,
// whether it has caught up, how far behind the log's head it is, the event it is halted on,
// and its parked events (take one back to retry it in the next replay); a form to park (skip)
// an event a projection cannot apply; and a replay of the read model, followed until it ends.
// Behind a gateway with replicas, every replica shows (the service asks its peers), each with
// its own projections and replay, and one button replays them all.

import { api } from './api.js';
import { h, replace, field, onSubmit, announce, messageOf, alertError } from './ui.js';

const services = ['accounts', 'listings', 'geo-search', 'donations', 'shopping-lists'];

/** The section; `.ready` settles when the first service's projections have been read. */
export function projectionsSection() {
  const body = h('div', { class: 'admin-projections', 'aria-live': 'polite' });
  const picker = h('form', { class: 'toolbar admin-filter', 'aria-label': 'Which service' },
    field('Service', 'service', { kind: 'select', options: services.map((name) => [name, name]), value: 'listings' }),
    h('button', { type: 'submit', class: 'secondary' }, 'Show read model'));
  const section = h('section', { class: 'admin-section', 'aria-labelledby': 'admin-projections-title' },
    h('h2', { id: 'admin-projections-title', tabindex: '-1' }, 'Read models'),
    h('p', { class: 'hint' }, 'Where each service’s projections stand in the log. Parking and taking back are recorded in the log under your account.'),
    picker, body);

  let service = 'listings';
  let polling = null;
  // What has been typed into the park form, kept when the view is drawn again (a second
  // load, a replay followed), so that a redraw never parks an event for another projection.
  let parkDraft = {};
  let latest = 0;
  async function load() {
    const turn = ++latest;
    const { replicas } = await api(`/v1/admin/${service}/replicas`);
    if (turn !== latest) return;
    replace(body, view(replicas));
    clearTimeout(polling);
    // A running replay is followed until it ends.
    if (replicas.some((replica) => replica.projections?.replay?.state === 'running') && section.isConnected) {
      polling = setTimeout(() => load().catch(alertError), 1000);
    }
  }

  /** Starts a replay on the replica at `address`, or on every replica without one. */
  async function startReplay(button, address) {
    button.disabled = true;
    try {
      const query = address === undefined ? '' : `?address=${encodeURIComponent(address)}`;
      const { replicas } = await api(`/v1/admin/${service}/replicas/replay${query}`, { method: 'POST' });
      const refused = replicas.filter((replica) => replica.status !== 202);
      announce(refused.length === 0 ? `Replaying the ${service} read model.`
        : `Replaying the ${service} read model; ${refused.length} replica${refused.length === 1 ? ' was' : 's were'} busy or away.`);
      await load();
    } catch (error) { button.disabled = false; button.after(h('span', { class: 'notice error', role: 'alert' }, messageOf(error))); }
  }

  function view(replicas) {
    const answering = replicas.filter((replica) => replica.projections);
    // Parking is in the log: every replica's list is the same, so the first one's serves.
    const projections = answering[0]?.projections.projections ?? [];
    const parkForm = h('form', { class: 'toolbar admin-park', 'aria-label': `Park an event for ${service}` },
      field('Projection', 'projection', { kind: 'select', options: projections.map((p) => [p.name, p.name]), value: parkDraft.projection }),
      field('Event id', 'eventId', { required: true, maxlength: 36, autocomplete: 'off', placeholder: 'From the event log', value: parkDraft.eventId }),
      field('Reason', 'reason', { required: true, maxlength: 500, value: parkDraft.reason }),
      h('button', { type: 'submit' }, 'Park event'));
    const keepDraft = () => { parkDraft = Object.fromEntries(new FormData(parkForm)); };
    parkForm.addEventListener('input', keepDraft);
    parkForm.addEventListener('change', keepDraft);
    onSubmit(parkForm, async (values) => {
      await api(`/v1/admin/${service}/projections/${encodeURIComponent(values.projection)}/parked`,
        { method: 'POST', body: { eventId: values.eventId.trim(), reason: values.reason } });
      announce(`Parked ${values.eventId.trim()} for ${values.projection}. Replay to leave it out of what is shown.`);
      parkDraft = {};
      await load();
    });
    const all = h('button', { type: 'button', class: 'secondary', dataset: { action: 'replay-all' },
      disabled: replicas.every((replica) => replica.projections?.replay?.state === 'running') }, 'Replay every replica');
    all.addEventListener('click', () => startReplay(all));
    return [
      ...replicas.map((replica) => replicaView(replica, replicas.length)),
      replicas.length > 1 ? h('p', { class: 'row' }, all) : null,
      h('h3', {}, 'Parked events'),
      parkedList(projections),
      parkForm,
    ].filter(Boolean);
  }

  /** One replica: its projections, where the log's head is, and its replay. */
  function replicaView(replica, count) {
    const name = replica.projections?.replica ?? replica.address;
    const title = count > 1 ? h('h3', {}, `Replica ${name}`) : null;
    if (!replica.projections) {
      return h('div', { class: 'admin-replica', dataset: { address: replica.address } }, title,
        h('p', { class: 'notice error' }, `${replica.address} did not answer: ${replica.error}.`));
    }
    const status = replica.projections;
    const replay = h('button', { type: 'button', class: 'secondary', dataset: { action: 'replay' },
      disabled: status.replay?.state === 'running' }, 'Replay read model',
      count > 1 ? h('span', { class: 'visually-hidden' }, ` of replica ${name}`) : null);
    replay.addEventListener('click', () => startReplay(replay, replica.address));
    return h('div', { class: 'admin-replica', dataset: { address: replica.address } },
      title,
      h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `Projections of ${service} on ${name}` }, h('table', { class: 'admin-table' },
        h('caption', { class: 'visually-hidden' }, `Projections of ${service} on ${name}`),
        h('thead', {}, h('tr', {}, ['Projection', 'Checkpoint', 'Behind', 'State'].map((title) => h('th', { scope: 'col' }, title)))),
        h('tbody', {}, status.projections.map((projection) => h('tr', { dataset: { projection: projection.name } },
          h('th', { scope: 'row' }, projection.name),
          h('td', {}, projection.checkpoint),
          h('td', {}, String(projection.lagEvents)),
          h('td', {}, projection.stalledOn ? h('span', { class: 'badge warn' }, `Halted: ${projection.stalledOn}`)
            : h('span', { class: 'badge' }, projection.caughtUp ? 'Caught up' : 'Catching up'))))))),
      h('p', { class: 'muted' }, `Log head ${status.head} · replica ${status.replica}`),
      h('p', { class: 'admin-replay' }, replaySentence(status.replay)),
      h('p', { class: 'row' }, replay));
  }

  function parkedList(projections) {
    const parked = projections.flatMap((projection) => projection.parked.map((event) => ({ projection: projection.name, ...event })));
    if (parked.length === 0) return h('p', { class: 'muted admin-parked-none' }, 'No event is parked.');
    return h('ul', { class: 'admin-parked' }, parked.map(({ projection, eventId, reason }) => {
      const button = h('button', { type: 'button', class: 'secondary', dataset: { action: 'unpark' } }, 'Take back',
        h('span', { class: 'visually-hidden' }, ` ${eventId} for ${projection}`));
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          await api(`/v1/admin/${service}/projections/${encodeURIComponent(projection)}/parked/${encodeURIComponent(eventId)}`, { method: 'DELETE' });
          announce(`Took back ${eventId}; the next replay applies it.`);
          await load();
        } catch (error) { button.disabled = false; button.after(h('span', { class: 'notice error', role: 'alert' }, messageOf(error))); }
      });
      return h('li', { dataset: { eventId, projection } }, h('code', {}, eventId), ` for ${projection}: “${reason}” `, button);
    }));
  }

  onSubmit(picker, async (values) => {
    if (values.service !== service) parkDraft = {};
    service = values.service;
    await load();
  });
  section.ready = load().catch((error) => replace(body, h('p', { class: 'notice error', role: 'alert' }, messageOf(error))));
  return section;
}

function replaySentence(replay) {
  if (!replay) return 'No replay since this replica started.';
  const applied = `${replay.applied} event${replay.applied === 1 ? '' : 's'} applied`;
  if (replay.state === 'running') return `Replaying: ${applied} so far.`;
  if (replay.state === 'failed') return `The last replay failed (${replay.error}); the live read model is unchanged.`;
  return `The last replay is done: ${applied}, swapped in.`;
}
