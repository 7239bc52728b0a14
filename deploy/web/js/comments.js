// The comments under an item: everyone's, oldest first, with who wrote them and when; a
// signed-in person adds one (shown at once) and deletes their own (the item's owner any).
// An item page calls renderComments(section, listingId, { ownerId }) with an empty section.

import { api, ApiError } from './api.js';
import { displayName, isMe } from './listing-people.js';
import { session } from './session.js';
import { h, replace, field, heading, onSubmit, announce, when, dateTime, messageOf, newId } from './ui.js';

const maximumLength = 2000;
/** Every comment of the listing, oldest first. */
async function allComments(listingId) {
  const items = [];
  let cursor;
  for (let page = 0; page < 20; page += 1) {
    const answer = await api(`/v1/listings/${encodeURIComponent(listingId)}/comments?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return items;
}

/**
 * Fills `section` with the listing's comments and, for a signed-in person, a form to add one.
 * `ownerId` (the listing's owner) may delete every comment, as the API allows.
 */
export async function renderComments(section, listingId, { ownerId } = {}) {
  const signedIn = session.signedIn;
  const mayDeleteAll = isMe(ownerId);
  const titleId = `comments-title-${listingId}`;
  const list = h('ol', { class: 'comments', 'aria-labelledby': titleId });
  const empty = h('p', { class: 'muted' }, 'No comments yet. Ask the seller a question, or say what you think.');
  section.classList.add('comments-section');
  if (section.tagName === 'SECTION') section.setAttribute('aria-labelledby', titleId);
  const title = heading('Comments', 2);
  title.id = titleId;
  replace(section, title, h('p', { class: 'loading' }, 'Loading comments…'));

  const refreshEmpty = () => { empty.hidden = list.children.length > 0; };

  function entry(comment) {
    const mine = isMe(comment.authorId);
    const author = h('strong', { class: 'comment-author' }, mine ? 'You' : '…');
    if (!mine) displayName(comment.authorId).then((name) => { author.textContent = name; });
    const item = h('li', { class: mine ? 'mine' : undefined, dataset: { commentId: comment.id } },
      h('p', { class: 'spread comment-meta' }, author,
        h('time', { datetime: comment.postedAt, title: dateTime(comment.postedAt), class: 'muted' }, when(comment.postedAt))),
      h('p', { class: 'comment-text' }, comment.text));
    if (mine || mayDeleteAll) {
      const remove = h('button', {
        type: 'button', class: 'link danger-link',
        'aria-label': mine ? `Delete your comment from ${when(comment.postedAt)}` : 'Delete this comment',
        onclick: async () => {
          remove.disabled = true;
          item.querySelector('.notice')?.remove();
          try {
            await api(`/v1/listings/${encodeURIComponent(listingId)}/comments/${encodeURIComponent(comment.id)}`, { method: 'DELETE' });
            item.remove();
            refreshEmpty();
            announce('Comment deleted.');
            title.focus();
          } catch (error) {
            remove.disabled = false;
            item.append(h('p', { class: 'notice error', role: 'alert' }, messageOf(error)));
          }
        },
      }, 'Delete');
      item.append(remove);
    }
    return item;
  }

  let comments;
  try {
    comments = await allComments(listingId);
  } catch (error) {
    replace(section, title, h('p', { class: 'notice error', role: 'alert' }, `The comments could not be loaded. ${messageOf(error)}`));
    return;
  }
  replace(list, comments.map(entry));
  refreshEmpty();

  let add;
  if (signedIn) {
    add = onSubmit(h('form', { class: 'comment-form', novalidate: true },
      field('Your comment', 'text', { kind: 'textarea', maxlength: maximumLength, rows: 3, hint: 'Everyone who sees the item can read it.' }),
      h('button', { type: 'submit' }, 'Post comment')),
    async ({ text }) => {
      const trimmed = (text || '').trim();
      // Said here, in words, rather than by the browser's own bubble or a round trip.
      if (!trimmed) throw new ApiError({ title: 'The comment is empty.', errors: { text: ['Write something before posting your comment.'] } }, 422);
      const posted = await api(`/v1/listings/${encodeURIComponent(listingId)}/comments`, { method: 'POST', body: { text: trimmed }, idempotencyKey: newId() });
      list.append(entry(posted));
      refreshEmpty();
      add.reset();
      announce('Comment posted.');
    });
  } else {
    add = h('p', {}, h('a', { href: `#/sign-in/${encodeURIComponent(`item/${listingId}`)}` }, 'Sign in to comment'));
  }
  replace(section, title, list, empty, add);
}
