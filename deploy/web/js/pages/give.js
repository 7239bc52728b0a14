// #/give: donation centres near a place (map and list, with hours and what they accept),
// charities by cause and tag, and what people shared of their giving. #/give/tag/<tag> and
// #/give/category/<category> open the charities on that tag or cause.

import { session } from '../session.js';
import { h, heading } from '../ui.js';
import { centresSection } from '../give-centres.js';
import { charitiesSection } from '../give-charities.js';
import { feedSection } from '../give-feed.js';

export async function render(view, [by, value]) {
  const filter = by === 'tag' || by === 'category' ? { [by]: value } : {};
  const centres = centresSection();
  const charities = charitiesSection(filter);
  const feed = feedSection({ limit: 5 });
  view.append(
    heading('Give'),
    h('p', { class: 'lead' }, 'Bring things to a donation centre nearby, or give money to a verified charity from your wallet. ',
      session.signedIn ? h('a', { href: '#/donations' }, 'My wallet and donations') : h('a', { href: '#/sign-in/donations' }, 'Sign in to donate')),
    centres, charities, feed);
  await Promise.all([centres.ready, charities.ready, feed.ready]);
}
