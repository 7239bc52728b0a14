// Where the person is looking from: their device's position when they allow it, a place
// they picked from the list or on the map, or the demo city's centre. Kept in localStorage.

const storageKey = 'commons.place';

/** The demo city's centre (the Dam, Amsterdam): where a newcomer starts. */
export const defaultPlace = { lat: 52.3731, lon: 4.8926, name: 'Amsterdam Centrum' };

/** Neighbourhoods a person can pick by name, without any geocoding service. */
export const knownPlaces = [
  defaultPlace,
  { lat: 52.3752, lon: 4.8840, name: 'Jordaan' },
  { lat: 52.3546, lon: 4.8937, name: 'De Pijp' },
  { lat: 52.3600, lon: 4.9240, name: 'Oost' },
  { lat: 52.3700, lon: 4.8570, name: 'West' },
  { lat: 52.3900, lon: 4.9100, name: 'Noord' },
  { lat: 52.3580, lon: 4.8690, name: 'Oud-Zuid' },
  { lat: 52.3650, lon: 4.9000, name: 'Plantage' },
];

/** The place results are shown around: `{ lat, lon, name }`. */
export function currentPlace() {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey));
    if (stored && Number.isFinite(stored.lat) && Number.isFinite(stored.lon)) return stored;
  } catch { /* fall back to the default */ }
  return defaultPlace;
}

/** Chooses the place results are shown around. */
export function setPlace(place) {
  localStorage.setItem(storageKey, JSON.stringify({ lat: +place.lat.toFixed(5), lon: +place.lon.toFixed(5), name: place.name }));
}

/** The device's position, if the person allows it; rejects with a sentence otherwise. */
export function devicePlace() {
  return new Promise((resolve, reject) => {
    if (!navigator.geolocation) { reject(new Error('This browser cannot tell where you are; pick a place instead.')); return; }
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude, name: 'Where you are' }),
      () => reject(new Error('Your position is not available; pick a place or click on the map instead.')),
      { timeout: 8000, maximumAge: 60_000 });
  });
}

/** The distance in metres between two points (haversine). */
export function metresBetween(a, b) {
  const radians = Math.PI / 180;
  const dLat = (b.lat - a.lat) * radians, dLon = (b.lon - a.lon) * radians;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * radians) * Math.cos(b.lat * radians) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(s));
}

/** A link that opens directions to a point in the person's own maps app. */
export function directionsLink(point) {
  return `https://www.openstreetmap.org/directions?route=%3B${point.lat}%2C${point.lon}#map=15/${point.lat}/${point.lon}`;
}
