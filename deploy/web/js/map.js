// A map that needs no tile server: an SVG drawn around the chosen place, with distance rings
// and a scale, and each result at its true bearing and distance (a local flat projection,
// exact enough for tens of kilometres). Markers are links; clicking elsewhere picks a place.

const svgNS = 'http://www.w3.org/2000/svg';
const size = 400;
const metresPerDegreeLat = 111_132;

function node(tag, attributes = {}, ...children) {
  const element = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined && value !== null) element.setAttribute(name, String(value));
  for (const child of children) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return element;
}

/**
 * Draws `points` ({ lat, lon, label, kind, href }) around `centre` ({ lat, lon }) within
 * `radiusMetres`. `onPick({ lat, lon })`, when given, is called for a click on the map.
 * Answers a <figure> holding the SVG and a caption.
 */
export function drawMap({ centre, radiusMetres, points, onPick, caption, unit = 'km' }) {
  const metresPerDegreeLon = metresPerDegreeLat * Math.cos((centre.lat * Math.PI) / 180);
  const scale = (size / 2 - 16) / radiusMetres; // pixels per metre
  const toXY = (p) => [size / 2 + (p.lon - centre.lon) * metresPerDegreeLon * scale, size / 2 - (p.lat - centre.lat) * metresPerDegreeLat * scale];
  const fromXY = (x, y) => ({ lat: centre.lat + (size / 2 - y) / scale / metresPerDegreeLat, lon: centre.lon + (x - size / 2) / scale / metresPerDegreeLon });

  const svg = node('svg', { viewBox: `0 0 ${size} ${size}`, class: 'map', role: 'img', 'aria-label': caption || 'Map of the results around the chosen place' });
  svg.append(node('rect', { x: 0, y: 0, width: size, height: size, class: 'map-land' }));
  // The grid: north is up, a line every quarter of the radius.
  for (let i = 1; i < 8; i++) {
    svg.append(node('line', { x1: (i * size) / 8, y1: 0, x2: (i * size) / 8, y2: size, class: 'map-grid' }));
    svg.append(node('line', { x1: 0, y1: (i * size) / 8, x2: size, y2: (i * size) / 8, class: 'map-grid' }));
  }
  const unitMetres = unit === 'mi' ? 1609.344 : 1000;
  for (const fraction of [1 / 3, 2 / 3, 1]) {
    const r = radiusMetres * fraction * scale;
    const amount = (radiusMetres * fraction) / unitMetres;
    svg.append(node('circle', { cx: size / 2, cy: size / 2, r, class: 'map-ring' }));
    svg.append(node('text', { x: size / 2 + 4, y: size / 2 - r + 12, class: 'map-ring-label' }, `${amount < 1 ? amount.toFixed(1) : Math.round(amount * 10) / 10} ${unit}`));
  }
  svg.append(node('text', { x: size - 18, y: 22, class: 'map-north' }, 'N'));
  svg.append(node('circle', { cx: size / 2, cy: size / 2, r: 6, class: 'map-here' }, node('title', {}, 'The chosen place')));

  for (const point of points) {
    const [x, y] = toXY(point);
    if (x < 0 || y < 0 || x > size || y > size) continue;
    const marker = node('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 8, class: `map-marker ${point.kind || ''}` }, node('title', {}, point.label));
    if (point.href) {
      const link = node('a', { href: point.href, 'aria-label': point.label }, marker);
      svg.append(link);
    } else svg.append(marker);
  }

  if (onPick) {
    svg.classList.add('pickable');
    svg.addEventListener('click', (event) => {
      if (event.target.closest('a')) return;
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * size, y = ((event.clientY - box.top) / box.height) * size;
      onPick(fromXY(x, y));
    });
  }
  const figure = document.createElement('figure');
  figure.className = 'map-figure';
  const text = document.createElement('figcaption');
  text.textContent = caption || '';
  figure.append(svg, text);
  return figure;
}
