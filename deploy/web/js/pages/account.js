// My account: profile, sessions (sign out here or elsewhere), password change, password
// reset with an emailed code, and deleting the account.

import { api, ApiError } from '../api.js';
import { session } from '../session.js';
import { h, field, heading, onSubmit, announce, replace, when, alertError } from '../ui.js';

export async function render(view, [section]) {
  if (section === 'reset') return renderReset(view);
  if (section === 'deleted') {
    view.append(heading('Your account is deleted'),
      h('p', {}, 'Your profile, items and lists are gone, and your personal data can no longer be read anywhere in Commons.'),
      h('p', {}, h('a', { href: '#/free' }, 'Back to Commons')));
    return;
  }
  if (!session.signedIn) {
    view.append(heading('My account'),
      h('p', {}, 'Sign in to see your profile, your sessions and your things.'),
      h('p', { class: 'row' }, h('a', { class: 'button', href: '#/sign-in/account' }, 'Sign in or create an account'),
        h('a', { class: 'button secondary', href: '#/account/reset' }, 'Reset a forgotten password')));
    return;
  }
  const me = await api('/v1/me');
  session.remember(me.displayName);
  view.append(heading('My account'),
    h('p', { class: 'row' }, h('a', { href: '#/mine' }, 'My items'), h('a', { href: '#/messages' }, 'Messages'),
      h('a', { href: '#/donations' }, 'My donations'), h('a', { href: '#/lists' }, 'My lists')),
    me.role === 'admin' ? h('p', {}, h('a', { href: '#/admin' }, 'Operator console')) : null,
    h('div', { class: 'columns' }, profileForm(me), h('div', {}, sessionsCard(), passwordForm(), deleteCard(me))));
}

function profileForm(me) {
  let version = null;
  const form = h('form', { class: 'card', 'aria-labelledby': 'profile-title' },
    h('h2', { id: 'profile-title' }, 'Profile'),
    h('p', { class: 'muted' }, `${me.email} · member since ${me.memberSince ? new Date(me.memberSince).toLocaleDateString() : 'today'}`),
    field('Display name', 'displayName', { value: me.displayName, required: true, maxlength: 60, autocomplete: 'nickname' }),
    field('Phone (only you see it)', 'phone', { kind: 'tel', value: me.phone ?? '', autocomplete: 'tel' }),
    h('button', { type: 'submit' }, 'Save profile'));
  return onSubmit(form, async ({ displayName, phone }) => {
    const changed = await api('/v1/me', { method: 'PATCH', body: { displayName, phone: phone || null }, headers: version ? { 'If-Match': version } : {} });
    session.remember(changed.displayName);
    announce('Profile saved.');
    form.querySelector('.notice')?.remove();
    form.append(h('p', { class: 'notice', role: 'status' }, 'Saved.'));
  });
}

function sessionsCard() {
  const list = h('ul', { class: 'messages', 'aria-live': 'polite' }, h('li', {}, 'Loading…'));
  const card = h('section', { class: 'card', 'aria-labelledby': 'sessions-title' },
    h('h2', { id: 'sessions-title' }, 'Where you are signed in'), list,
    h('p', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', onclick: signOut }, 'Sign out')));
  const load = async () => {
    try {
      const { items } = await api('/v1/sessions');
      replace(list, items.map((item) => h('li', { class: item.current ? 'mine' : '' },
        h('div', { class: 'spread' },
          h('span', {}, h('strong', {}, item.device || 'A browser'), item.current ? ' (this one)' : ''),
          item.current ? null : h('button', { type: 'button', class: 'secondary', 'aria-label': `Sign out ${item.device || 'that session'}`,
            onclick: async (event) => {
              event.target.disabled = true;
              try { await api(`/v1/sessions/${item.id}`, { method: 'DELETE' }); announce('Signed out there.'); await load(); }
              catch (error) { event.target.disabled = false; alertError(error, card); }
            } }, 'Sign out there')),
        h('p', { class: 'muted' }, `Started ${when(item.createdAt)}, last used ${when(item.lastUsedAt)}`))));
    } catch (error) { alertError(error, card); }
  };
  load();
  return card;
}

async function signOut() {
  try { await api('/v1/sessions/current', { method: 'DELETE' }); } catch { /* signed out here either way */ }
  session.forget();
  announce('Signed out.');
  location.hash = '#/free';
}

function passwordForm() {
  const form = h('form', { class: 'card', 'aria-labelledby': 'password-title' },
    h('h2', { id: 'password-title' }, 'Change password'),
    field('Current password', 'currentPassword', { kind: 'password', autocomplete: 'current-password', required: true }),
    field('New password', 'newPassword', { kind: 'password', autocomplete: 'new-password', required: true, minlength: 10,
      hint: 'At least 10 characters. Your other sessions end.' }),
    h('button', { type: 'submit' }, 'Change password'));
  return onSubmit(form, async (values) => {
    await api('/v1/me/password', { method: 'PUT', body: values });
    form.reset();
    announce('Password changed.');
    form.append(h('p', { class: 'notice', role: 'status' }, 'Password changed; your other sessions have ended.'));
  });
}

function deleteCard(me) {
  const form = h('form', { class: 'card', 'aria-labelledby': 'delete-title' },
    h('h2', { id: 'delete-title' }, 'Delete my account'),
    h('p', {}, 'Your profile, your items, your lists and your personal data in every service become unreadable. This cannot be undone.'),
    field(`Type your email (${me.email}) to confirm`, 'confirm', { kind: 'email', required: true }),
    h('button', { type: 'submit', class: 'danger' }, 'Delete my account'));
  return onSubmit(form, async ({ confirm }) => {
    if (confirm.trim().toLowerCase() !== me.email.toLowerCase()) {
      throw new ApiError({ detail: 'That is not your email.', errors: { confirm: ['Type your email exactly as shown to confirm.'] } }, 422);
    }
    try {
      await api('/v1/me', { method: 'DELETE' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        throw new ApiError({ detail: 'For your safety, sign in again (within the last 10 minutes) before deleting your account.' }, 403);
      }
      throw error;
    }
    session.forget();
    location.hash = '#/account/deleted';
  });
}

function renderReset(view) {
  const ask = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'reset-ask-title' },
    h('h2', { id: 'reset-ask-title' }, '1. Get a reset code'),
    field('Email', 'email', { kind: 'email', autocomplete: 'email', required: true }),
    h('button', { type: 'submit' }, 'Email me a code')),
  async ({ email }) => {
    const answer = await api('/v1/password-resets', { method: 'POST', body: { email } });
    ask.querySelector('.notice')?.remove();
    ask.append(h('p', { class: 'notice', role: 'status' }, answer?.status || 'If an account has this email, a code is on its way.'));
  });
  const confirm = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'reset-confirm-title' },
    h('h2', { id: 'reset-confirm-title' }, '2. Choose a new password'),
    field('Code from the email', 'token', { required: true }),
    field('New password', 'newPassword', { kind: 'password', autocomplete: 'new-password', required: true, minlength: 10 }),
    h('button', { type: 'submit' }, 'Set new password')),
  async (values) => {
    await api('/v1/password-resets/confirm', { method: 'POST', body: { token: values.token.trim(), newPassword: values.newPassword } });
    session.forget();
    replace(confirm, h('h2', {}, 'Password changed'), h('p', {}, 'Every session has ended. '), h('a', { class: 'button', href: '#/sign-in/account' }, 'Sign in with the new password'));
    announce('Password changed.');
  });
  view.append(heading('Reset your password'), h('div', { class: 'columns' }, ask, confirm));
}
