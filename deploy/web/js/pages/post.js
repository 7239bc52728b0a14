// Giving something away (or selling it): photos straight from the phone's camera, each
// uploaded as soon as it is taken and previewed from the device meanwhile; what it is; when
// it can be picked up; and where (a neighbourhood, the device's position or a point on the
// map, with an optional street address only the promised person will see).

import { api, ApiError } from '../api.js';
import { h, field, heading, replace, onSubmit, announce, minorUnits, messageOf, newId } from '../ui.js';
import { currentPlace, knownPlaces, devicePlace } from '../place.js';
import { drawMap } from '../map.js';
import { categories, conditions } from '../listing-format.js';

const maximumPhotos = 8;

export function render(view) {
  const photos = []; // { url, id, error, upload, item }
  const idempotencyKey = newId(); // one per form: a retried submit posts once
  let point = currentPlace();

  // Photos: every pick (or camera shot) adds to the list; each uploads at once.
  const previews = h('ul', { class: 'photo-previews' });
  const photoField = field('Add photos', 'photos', {
    kind: 'file', accept: 'image/*', capture: 'environment', multiple: true,
    hint: `Take them with the camera or pick them from the phone, up to ${maximumPhotos}. The first is the one people see in the list.`,
  });
  const input = photoField.querySelector('input');
  input.addEventListener('change', () => {
    for (const file of input.files) addPhoto(file);
    input.value = '';
  });

  function addPhoto(file) {
    if (photos.length >= maximumPhotos) {
      announce(`At most ${maximumPhotos} photos.`);
      return;
    }
    const entry = { url: URL.createObjectURL(file), id: null, error: null };
    const status = h('span', { class: 'muted' }, 'Uploading…');
    const remove = h('button', { type: 'button', class: 'link' }, 'Remove', h('span', { class: 'visually-hidden' }, ` photo ${file.name}`));
    entry.item = h('li', {}, h('img', { src: entry.url, alt: `Photo: ${file.name}` }), status, remove);
    remove.addEventListener('click', () => {
      photos.splice(photos.indexOf(entry), 1);
      URL.revokeObjectURL(entry.url);
      entry.item.remove();
      announce('Photo removed.');
    });
    // The same bytes are the same image, so a busy service's 429 or 503 is simply tried again.
    entry.upload = api('/v1/images', { method: 'POST', body: file, retryBusy: true }).then((image) => {
      entry.id = image.id;
      status.textContent = 'Uploaded';
    }, (error) => {
      entry.error = error;
      status.textContent = messageOf(error);
      status.className = 'field-error';
    });
    photos.push(entry);
    previews.append(entry.item);
  }

  // The pickup point.
  const pointText = h('p', { class: 'pickup-choice', 'aria-live': 'polite' });
  const pointProblem = h('div');
  const mapSlot = h('div');
  const pointField = field('Near', 'pickupLocation', {
    kind: 'select', value: '', options: [['', 'Where I chose (see the map)'], ...knownPlaces.map((p, index) => [String(index), p.name])],
  });
  pointField.querySelector('select').addEventListener('change', (event) => {
    if (event.target.value !== '') choosePoint(knownPlaces[Number(event.target.value)]);
  });
  const locate = h('button', {
    type: 'button', class: 'secondary', onclick: async () => {
      locate.disabled = true;
      try { choosePoint(await devicePlace()); } catch (error) {
        replace(pointProblem, h('p', { class: 'notice error', role: 'alert' }, error.message));
      } finally { locate.disabled = false; }
    },
  }, 'Use where I am');
  function choosePoint(chosen) {
    point = { lat: chosen.lat, lon: chosen.lon, name: chosen.name };
    replace(pointProblem);
    drawPoint();
  }
  function drawPoint() {
    pointText.textContent = `Pickup point: ${point.name} (${point.lat.toFixed(5)}, ${point.lon.toFixed(5)})`;
    replace(mapSlot, drawMap({
      centre: point, radiusMetres: 1500, points: [{ lat: point.lat, lon: point.lon, label: 'The pickup point' }],
      caption: 'Click on the map to move the pickup point there.',
      onPick: (picked) => {
        pointField.querySelector('select').value = '';
        choosePoint({ ...picked, name: 'The point you picked' });
      },
    }));
  }
  drawPoint();

  // Pickup windows: as many as the giver likes to add.
  const windows = h('div', { class: 'pickup-windows' });
  const addWindow = () => windows.append(h('div', { class: 'columns pickup-window' },
    field('From', 'startsAt', { kind: 'datetime-local' }), field('Until', 'endsAt', { kind: 'datetime-local' })));
  addWindow();

  const form = h('form', { class: 'card post-form', 'aria-labelledby': 'post-title' },
    h('h2', { id: 'post-title', class: 'visually-hidden' }, 'The item'),
    h('fieldset', {}, h('legend', {}, 'Photos'), photoField, previews),
    field('What is it?', 'title', { required: true, maxlength: 120, placeholder: 'A wooden chair' }),
    field('Description', 'description', { kind: 'textarea', maxlength: 5000, hint: 'Size, colour, anything that is broken.' }),
    h('div', { class: 'columns' },
      field('Category', 'category', { kind: 'select', required: true, value: '', options: [['', 'Choose a category'], ...categories.map((c) => [c, c])] }),
      field('Condition', 'condition', { kind: 'select', value: 'good', options: conditions })),
    field('Price in euros (leave empty to give it away)', 'price', { inputmode: 'decimal', autocomplete: 'off' }),
    h('fieldset', {}, h('legend', {}, 'Pickup times'),
      field('When can people come?', 'note', { kind: 'textarea', maxlength: 500, hint: 'For example: weekday evenings after six.' }),
      windows,
      h('button', { type: 'button', class: 'secondary', onclick: addWindow }, 'Add another pickup time')),
    h('fieldset', {}, h('legend', {}, 'Pickup point'),
      pointText, pointField, h('p', { class: 'row' }, locate), pointProblem, mapSlot,
      field('Street address (optional)', 'streetAddress', {
        maxlength: 200, autocomplete: 'address-line1',
        hint: 'Shown only to the person you promise it to; everyone else sees an area within 500 m.',
      })),
    h('button', { type: 'submit' }, 'Post it'));

  onSubmit(form, async (values) => {
    const body = {
      title: values.title, category: values.category, condition: values.condition,
      pickupTimes: { windows: windowsOf(form) }, pickupLocation: { lat: point.lat, lon: point.lon },
    };
    if (values.description.trim()) body.description = values.description;
    if (values.note.trim()) body.pickupTimes.note = values.note.trim();
    if (values.streetAddress.trim()) body.streetAddress = values.streetAddress.trim();
    if (values.price.trim()) {
      const amountMinor = minorUnits(values.price, 'EUR');
      if (!(amountMinor > 0)) throw new ApiError({ detail: 'Check the price.', errors: { price: ['Write a price such as 12.50, or leave it empty to give it away.'] } }, 422);
      body.price = { amountMinor, currency: 'EUR' };
    }
    await Promise.all(photos.map((entry) => entry.upload));
    if (photos.some((entry) => entry.error)) {
      throw new ApiError({ detail: 'A photo did not upload.', errors: { photos: ['A photo did not upload: remove it, or add it again.'] } }, 422);
    }
    body.imageIds = [...new Set(photos.map((entry) => entry.id))];
    const listing = await api('/v1/listings', { method: 'POST', body, idempotencyKey });
    announce(`${listing.title} is posted.`);
    location.hash = `#/mine/${listing.id}`;
  });

  view.append(heading('Give something away'),
    h('p', { class: 'muted' }, 'People near you see it at once. You choose who gets it.'),
    form);
  return () => photos.forEach((entry) => URL.revokeObjectURL(entry.url));
}

/** The pickup windows filled in, as the API takes them; half-filled ones are an error. */
function windowsOf(form) {
  const windows = [];
  for (const row of form.querySelectorAll('.pickup-window')) {
    const [start, end] = [...row.querySelectorAll('input')].map((input) => input.value);
    if (!start && !end) continue;
    if (!start || !end) {
      throw new ApiError({ detail: 'Check the pickup times.', errors: { endsAt: ['Give both when a pickup time starts and when it ends.'] } }, 422);
    }
    windows.push({ startsAt: new Date(start).toISOString(), endsAt: new Date(end).toISOString() });
  }
  return windows;
}
