// How the Give pages say things: causes and tags as words, opening hours, what an impact
// estimate means for an amount ("about 3 bed nets"), and the API's amounts in minor units
// turned into money in its sentences.

import { ApiError } from './api.js';
import { money } from './ui.js';

/** A slug as words: "global-health" → "Global health". */
export function label(slug) {
  const text = String(slug).replace(/[-_]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const dayNames = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const dayOrder = Object.keys(dayNames);

/** Opening hours as lines, Monday first: ["Tue 10:00–18:00", …]. */
export function hoursLines(openingHours = []) {
  return [...openingHours]
    .sort((a, b) => dayOrder.indexOf(a.day) - dayOrder.indexOf(b.day) || a.opens.localeCompare(b.opens))
    .map((slot) => `${dayNames[slot.day] || slot.day} ${slot.opens}–${slot.closes}`);
}

const irregular = { life: 'lives', child: 'children', person: 'people', man: 'men', woman: 'women' };

function pluralWord(word) {
  if (irregular[word]) return irregular[word];
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/**
 * The plural of an outcome unit: the noun before "of" ("year of schooling"), the first word
 * when a participle follows it ("life saved", "child vaccinated"), else the last word ("bed net").
 */
export function plural(unit) {
  const words = unit.split(' ');
  const of = words.indexOf('of');
  let at = words.length - 1;
  if (of > 0) at = of - 1;
  else if (words.length > 1 && /(ed|en)$/.test(words[words.length - 1])) at = 0;
  words[at] = pluralWord(words[at]);
  return words.join(' ');
}

/** Outcomes as people say them: "about 3 bed nets", "about 0.32% of one life saved". */
export function outcomesText(outcomes, unit) {
  if (!(outcomes > 0)) return `nothing measurable yet in ${plural(unit)}`;
  if (outcomes >= 1) {
    const rounded = outcomes >= 10 ? Math.round(outcomes) : Math.round(outcomes * 10) / 10;
    return `about ${rounded.toLocaleString()} ${rounded === 1 ? unit : plural(unit)}`;
  }
  const percent = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 2 }).format(outcomes * 100);
  return `about ${percent}% of one ${unit}`;
}

/** An estimate's cost: "$5,500.00 per life saved". */
export function costText(estimate) {
  return `${money(estimate.costPerOutcomeMinor, estimate.currency)} per ${estimate.outcomeUnit}`;
}

/** Amounts in the API's sentences ("500 minor units of USD") as money ("$5.00"). */
export function moneyInText(text) {
  return String(text).replace(/(-?\d+) minor units of ([A-Z]{3})/g, (_, amount, currency) => money(Number(amount), currency));
}

/**
 * An ApiError about an amount, with its sentences beside the form's `field`: the API names
 * the field amountMinor, or (a wallet that holds too little, 409) no field at all.
 */
export function amountError(error, field = 'amount') {
  if (!(error instanceof ApiError)) return error;
  const fields = { ...error.fields };
  const type = String(error.problem.type || '');
  const about = fields.amountMinor || (type.endsWith('insufficient-funds') || type.endsWith('below-minimum') ? [error.message] : null);
  if (about) {
    delete fields.amountMinor;
    fields[field] = [].concat(about).map((text) => moneyInText(/^[a-z]/.test(text) ? `The amount ${text}.` : text));
  }
  const problem = { ...error.problem, detail: moneyInText(error.message), errors: fields };
  return new ApiError(problem, error.status);
}
