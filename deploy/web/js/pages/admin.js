// #/admin: the operator console, for administrators. The moderation queue (listings with open
// reports: dismiss them, or remove the listing), organisation verification, the event-log
// browser, and each service's read model (projections, parked events, replays). Everything goes
// through the same admin APIs the CLI uses, which record who did what in the event log; the
// console only shows itself to an account whose role is admin, and a member who opens it is
// told so instead of meeting the API's refusals.

import { api } from '../api.js';
import { h, heading } from '../ui.js';
import { reportsSection } from '../admin-reports.js';
import { organizationsSection } from '../admin-organizations.js';
import { logSection } from '../admin-log.js';
import { projectionsSection } from '../admin-projections.js';

export async function render(view) {
  const me = await api('/v1/me');
  if (me.role !== 'admin') {
    view.append(heading('Operator console'),
      h('p', { class: 'notice' }, 'The operator console is for administrators of Commons. Your account is a member account, so there is nothing here for you.'),
      h('p', {}, h('a', { href: '#/account' }, 'Back to my account')));
    return;
  }
  const reports = reportsSection();
  const organizations = organizationsSection();
  const log = logSection();
  const projections = projectionsSection();
  view.append(heading('Operator console'),
    h('p', { class: 'lead' }, 'Review reported listings, verify organisations, browse the event log and look after the read models. Each decision is recorded in the event log under your account.'),
    h('nav', { class: 'row admin-jump', 'aria-label': 'Console sections' },
      h('a', { href: '#admin-reports-title', onclick: jump }, 'Reported listings'),
      h('a', { href: '#admin-organizations-title', onclick: jump }, 'Organisations'),
      h('a', { href: '#admin-log-title', onclick: jump }, 'Event log'),
      h('a', { href: '#admin-projections-title', onclick: jump }, 'Read models')),
    reports, organizations, log, projections);
  await Promise.all([reports.ready, organizations.ready, log.ready, projections.ready]);
}

/** In-page links: the hash holds the route, so scroll to the section instead of following them. */
function jump(event) {
  event.preventDefault();
  const target = document.getElementById(event.currentTarget.getAttribute('href').slice(1));
  target?.scrollIntoView({ block: 'start' });
  target?.focus({ preventScroll: true });
}
