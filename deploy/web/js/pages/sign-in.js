// Sign in or create an account; then back to where the person was going.

import { api } from '../api.js';
import { session } from '../session.js';
import { h, field, heading, onSubmit, announce } from '../ui.js';

export function render(view, [next = 'free', reason]) {
  // Only from this page: a person who went elsewhere while signing in stays there.
  const here = location.hash;
  const goOn = () => { if (location.hash === here) location.hash = `#/${next}`; };
  const signIn = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title' }, 'Sign in'),
    field('Email', 'email', { kind: 'email', autocomplete: 'username', required: true }),
    field('Password', 'password', { kind: 'password', autocomplete: 'current-password', required: true }),
    h('button', { type: 'submit' }, 'Sign in'),
    h('p', { class: 'hint' }, h('a', { href: '#/account/reset' }, 'Forgot your password?'))),
  async ({ email, password }) => {
    await session.start('/v1/sessions', { email, password });
    const me = await api('/v1/me');
    session.remember(me.displayName);
    announce(`Signed in as ${me.displayName}.`);
    goOn();
  });
  const signUp = onSubmit(h('form', { class: 'card', 'aria-labelledby': 'sign-up-title' },
    h('h2', { id: 'sign-up-title' }, 'New to Commons?'),
    field('Your name', 'displayName', { autocomplete: 'nickname', required: true, maxlength: 60 }),
    field('Email', 'email', { kind: 'email', autocomplete: 'email', required: true }),
    field('Password', 'password', { kind: 'password', autocomplete: 'new-password', required: true, minlength: 10, hint: 'At least 10 characters; not a common password.' }),
    h('button', { type: 'submit' }, 'Create my account')),
  async ({ displayName, email, password }) => {
    await session.start('/v1/accounts', { email, password, displayName }, displayName);
    announce('Welcome to Commons.');
    goOn();
  });
  view.append(heading('Sign in to Commons'),
    reason === 'ended' ? h('p', { class: 'notice', role: 'status' }, 'Your session has ended; sign in again to go on.') : null,
    session.signedIn ? h('p', { class: 'notice' }, 'You are signed in. ', h('a', { href: `#/${next}` }, 'Go on')) : null,
    h('div', { class: 'columns' }, signIn, signUp));
}
