// Building the page: elements made in code (never from HTML strings, so nothing a person
// typed can become markup), forms whose API errors appear as sentences beside their fields,
// announcements for screen readers, and the formats people read money, distance and time in.

import { ApiError } from './api.js';

/**
 * An element: h('a', { href: '#/x', class: 'y', onclick: f }, 'text', child, …).
 * Attributes named on… become listeners; `false`, null and undefined attributes and
 * children are left out; arrays of children are flattened.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything inside `element` with `children`. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** Says `message` to screen readers (and shows nothing). */
export function announce(message) {
  const region = document.getElementById('announce');
  region.textContent = '';
  setTimeout(() => { region.textContent = message; }, 50);
}

let fieldIds = 0;

/**
 * A labelled form field. kind: an input type, 'textarea' or 'select' (options: [[value, label]]).
 * Any other attribute goes to the control (required, min, placeholder, …).
 */
export function field(label, name, { kind = 'text', options = [], hint, value, ...attributes } = {}) {
  const id = `field-${name}-${++fieldIds}`;
  let control;
  if (kind === 'textarea') control = h('textarea', { id, name, ...attributes }, value ?? '');
  else if (kind === 'select') {
    control = h('select', { id, name, ...attributes },
      options.map(([optionValue, optionLabel]) => h('option', { value: optionValue, selected: String(optionValue) === String(value ?? '') }, optionLabel)));
  } else control = h('input', { id, name, type: kind, value: value ?? undefined, ...attributes });
  const hintId = hint ? `${id}-hint` : null;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint && h('p', { class: 'hint', id: hintId }, hint));
}

/** Clears the errors `showErrors` put in `form`. */
export function clearErrors(form) {
  form.querySelectorAll('.field-error, .form-error').forEach((node) => node.remove());
  form.querySelectorAll('[aria-invalid]').forEach((control) => {
    control.removeAttribute('aria-invalid');
    const describedBy = (control.getAttribute('aria-describedby') || '').split(' ').filter((id) => !id.endsWith('-error')).join(' ');
    if (describedBy) control.setAttribute('aria-describedby', describedBy); else control.removeAttribute('aria-describedby');
  });
}

/**
 * Shows an error in `form`: each of an ApiError's field errors beside its field (matched by
 * name, also the last part of a dotted path such as `location.lat`), and the rest as a
 * sentence at the top of the form. Focuses the first field in error.
 */
export function showErrors(form, error) {
  clearErrors(form);
  const general = [];
  const fields = error instanceof ApiError ? error.fields : {};
  let first = null;
  for (const [path, messages] of Object.entries(fields)) {
    const names = [path, path.split('.').pop(), path.split('.')[0]];
    const control = names.map((name) => form.querySelector(`[name="${CSS.escape(name)}"]`)).find(Boolean);
    const text = [].concat(messages).join(' ');
    if (!control) { general.push(text); continue; }
    const id = `${control.id || control.name}-error`;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', `${control.getAttribute('aria-describedby') || ''} ${id}`.trim());
    control.closest('.field, fieldset')?.append(h('p', { class: 'field-error', id }, text));
    first = first || control;
  }
  if (general.length === 0 && !first) general.push(messageOf(error));
  if (general.length) form.prepend(h('p', { class: 'form-error', role: 'alert' }, general.join(' ')));
  (first || form.querySelector('.form-error'))?.focus?.();
  if (first) first.focus();
}

/** A sentence for any error: the API's own, or one for a connection that failed. */
export function messageOf(error) {
  if (error instanceof ApiError) return error.message;
  if (error?.name === 'AbortError') return 'Cancelled.';
  return 'Commons could not be reached. Check the connection and try again.';
}

/**
 * Runs `action(values)` when `form` is submitted, with its button disabled meanwhile and
 * errors shown beside the fields. `values` are the form's fields by name (strings).
 */
export function onSubmit(form, action) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit], button:not([type])');
    if (button) button.disabled = true;
    clearErrors(form);
    try {
      await action(Object.fromEntries(new FormData(form)), event);
    } catch (error) {
      if (form.isConnected) showErrors(form, error);
      else alertError(error);
    } finally {
      if (button) button.disabled = false;
    }
  });
  return form;
}

/** A notice at the top of the view for an error that belongs to no form. */
export function alertError(error, where = document.getElementById('view')) {
  const notice = h('p', { class: 'notice error', role: 'alert' }, messageOf(error));
  where.prepend(notice);
  return notice;
}

/** A page's heading, focused when the page is shown so that screen readers start there. */
export function heading(text, level = 1) {
  return h(`h${level}`, { tabindex: level === 1 ? '-1' : undefined }, text);
}

/** An amount of money in minor units, in the browser's language: 1250 EUR → "€12.50". */
export function money(amountMinor, currency = 'EUR') {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amountMinor / 10 ** digits);
}

/** Minor units from what a person typed ("12,50" or "12.50"), or NaN. */
export function minorUnits(text, currency = 'EUR') {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  const cleaned = String(text).trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return NaN;
  return Math.round(Number(cleaned) * 10 ** digits);
}

/** A distance in metres as people say it in `unit` ('km' or 'mi'). */
export function distance(metres, unit = 'km') {
  if (metres === undefined || metres === null) return '';
  if (unit === 'mi') {
    const miles = metres / 1609.344;
    return miles < 0.1 ? 'nearby' : `about ${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;
  }
  // Below 950 m in hundreds of metres; from there in tenths of kilometres (never "1000 m").
  return metres < 950 ? `about ${Math.max(100, Math.round(metres / 100) * 100)} m` : `about ${(metres / 1000).toFixed(1)} km`;
}

/** A moment as "3 min ago", "yesterday", or a date. */
export function when(iso) {
  const date = new Date(iso);
  const seconds = (Date.now() - date.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (Math.abs(seconds) < 60) return 'just now';
  if (Math.abs(seconds) < 3600) return format.format(-Math.round(seconds / 60), 'minute');
  if (Math.abs(seconds) < 86400) return format.format(-Math.round(seconds / 3600), 'hour');
  if (Math.abs(seconds) < 7 * 86400) return format.format(-Math.round(seconds / 86400), 'day');
  return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** A date and time for a moment, for pickup windows and receipts. */
export function dateTime(iso) {
  return new Date(iso).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** A UUID for Idempotency-Key and offline commands. */
export function newId() { return crypto.randomUUID(); }
