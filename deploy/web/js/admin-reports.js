// The console's moderation queue: every listing with open reports (hidden ones first), with its
// photo, owner and status, the reasons people gave and how many gave each, and the two
// decisions an administrator can take: dismiss the reports (a hidden listing shows again) or
// remove the listing (it stays hidden; only its owner still sees it). Each decision re-reads
// the queue, which read-your-writes makes show at once.

import { api } from './api.js';
import { h, replace, announce, when, messageOf, newId } from './ui.js';
import { photo, statusBadge } from './listing-format.js';
import { displayName, eachListing } from './listing-people.js';

/** The queue as a section; `.ready` settles when it has been read once. */
export function reportsSection() {
  const status = h('div', { class: 'admin-status' });
  const list = h('div', { class: 'admin-queue' }, h('p', { class: 'muted' }, 'Reading the queue…'));
  const section = h('section', { class: 'admin-section', 'aria-labelledby': 'admin-reports-title' },
    h('h2', { id: 'admin-reports-title', tabindex: '-1' }, 'Reported listings'),
    h('p', { class: 'hint' }, 'Listings people reported. Enough different people hide a listing until you decide.'),
    status, list);

  async function load() {
    const items = [];
    let cursor = null;
    try {
      // The queue comes a page of listings at a time; ten pages are more than a morning's work.
      for (let pages = 0; pages < 10; pages += 1) {
        const page = await api('/v1/listings/reports?limit=100' + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''));
        items.push(...page.items);
        cursor = page.nextCursor ?? null;
        if (!cursor) break;
      }
    } catch (error) {
      replace(list, h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
      return;
    }
    // Hidden listings wait on a decision; among the rest, the most reported first.
    items.sort((a, b) => (b.status === 'hidden') - (a.status === 'hidden') || b.reports.length - a.reports.length);
    const cards = new Map(items.map((item) => [item.listingId.toLowerCase(), card(item)]));
    replace(list, items.length
      ? [h('p', { class: 'results-summary' }, cursor ? `The first ${items.length} listings waiting for a decision; decide on these to see the rest.`
        : items.length === 1 ? 'One listing waits for a decision.' : `${items.length} listings wait for a decision.`),
        h('ul', { class: 'results admin-reports' }, [...cards.values()].map((c) => c.node))]
      : h('p', {}, 'No open reports. Nothing waits for a decision.'));
    // The queue names a listing; its photo and owner come from the listing itself.
    eachListing([...cards.keys()], (listing) => cards.get(String(listing.id).toLowerCase())?.fill(listing));
  }

  /** Says what happened above the queue, then re-reads it. */
  async function decided(sentence) {
    replace(status, h('p', { class: 'notice', role: 'status' }, sentence));
    announce(sentence);
    await load();
  }

  function card(item) {
    const id = item.listingId;
    const title = item.title;
    const photoSlot = h('div', { class: 'result-photo' }, h('div', { class: 'no-photo', role: 'img', 'aria-label': 'No photo' }));
    const owner = h('span', { class: 'muted' });
    const actions = h('div', { class: 'mine-actions' });

    const resolve = (button, decision, sentence) => async () => {
      button.disabled = true;
      actions.querySelector('.card-error')?.remove();
      try {
        await api(`/v1/listings/${encodeURIComponent(id)}/reports/resolve`, { method: 'POST', body: { decision }, idempotencyKey: newId() });
        await decided(sentence);
      } catch (error) {
        button.disabled = false;
        actions.prepend(h('p', { class: 'notice error card-error', role: 'alert' }, messageOf(error)));
      }
    };
    const named = (label) => [label, h('span', { class: 'visually-hidden' }, ` on “${title}”`)];
    const dismiss = h('button', { type: 'button', class: 'secondary', dataset: { action: 'dismiss' } }, named('Dismiss reports'));
    dismiss.addEventListener('click', resolve(dismiss, 'dismissed', item.status === 'hidden'
      ? `Dismissed the reports on “${title}”. It is shown again.` : `Dismissed the reports on “${title}”.`));
    const remove = h('button', { type: 'button', class: 'danger', dataset: { action: 'remove' } }, named('Remove listing'));
    remove.addEventListener('click', () => {
      const sure = h('button', { type: 'button', class: 'danger', dataset: { action: 'confirm-remove' } }, 'Yes, remove it');
      sure.addEventListener('click', resolve(sure, 'removed', `Removed “${title}”. Only its owner can still see it.`));
      const keep = h('button', { type: 'button', class: 'secondary', onclick: () => { confirm.replaceWith(remove); remove.focus(); } }, 'Keep it');
      const confirm = h('span', { class: 'row', role: 'group', 'aria-label': `Remove “${title}”?` },
        h('span', {}, 'Remove it for everyone but its owner?'), sure, keep);
      remove.replaceWith(confirm);
      sure.focus();
    });
    actions.append(h('div', { class: 'row' }, dismiss, remove));

    const reporters = new Set(item.reports.map((report) => report.reporterId.toLowerCase())).size;
    const node = h('li', { class: 'result admin-report', dataset: { listingId: id } },
      photoSlot,
      h('div', { class: 'result-body' },
        h('h3', {}, h('a', { href: `#/item/${encodeURIComponent(id)}` }, title)),
        h('p', { class: 'row' }, statusBadge(item.status),
          h('span', { class: 'report-count' }, countText(item.reports.length, reporters)), owner),
        h('ul', { class: 'reasons', 'aria-label': `Reasons given for “${title}”` }, reasons(item.reports)),
        actions));

    return {
      node,
      fill(listing) {
        replace(photoSlot, photo(listing));
        displayName(listing.ownerId).then((name) => { owner.textContent = `posted by ${name} ${when(listing.postedAt)}`; });
      },
    };
  }

  const ready = load();
  section.ready = ready;
  return section;
}

function countText(reports, reporters) {
  const said = reports === 1 ? '1 report' : `${reports} reports`;
  return reports === 1 ? said : `${said} from ${reporters === 1 ? 'one person' : `${reporters} people`}`;
}

/** The reasons, the same words counted once: “Broken” ×2 — by Ada, Grace, latest 3 minutes ago. */
function reasons(reports) {
  const groups = new Map();
  for (const report of reports) {
    const key = report.reason === null ? null : report.reason.trim().toLowerCase();
    if (!groups.has(key)) groups.set(key, { reason: report.reason, reports: [] });
    groups.get(key).reports.push(report);
  }
  return [...groups.values()].sort((a, b) => b.reports.length - a.reports.length).map((group) => {
    const by = h('span', { class: 'muted' }, '');
    Promise.all(group.reports.map((report) => displayName(report.reporterId))).then((names) => {
      const latest = group.reports.map((report) => report.reportedAt).sort().at(-1);
      by.textContent = ` — by ${names.join(', ')}, ${group.reports.length > 1 ? 'latest ' : ''}${when(latest)}`;
    });
    return h('li', {},
      group.reason === null ? h('em', {}, 'A reason no one can read any more (the reporter deleted their account)') : `“${group.reason}”`,
      group.reports.length > 1 ? h('strong', { class: 'reason-count' }, ` ×${group.reports.length}`) : null,
      by);
  });
}
