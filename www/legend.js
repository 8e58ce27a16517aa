// The legend beside the plot: one entry for each mark the frame draws, as the lab lists them
// (`legend` in the frame, from Scene::legend in src/core/plane/legend.rs), each with a small copy of
// the mark (a class's shape and colour from its colour index, as in the plane) and its
// explanation as its description and behind its ⓘ (www/help.js). It follows the plot on the
// left (the one the views and the link follow).

import { explain } from './help.js';
import { tr } from './i18n.js';

const list = document.getElementById('legend-entries');
let shown = null; // the legend drawn last, as JSON

function element(tag, attributes = {}, text = '') {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

// A colour of the lab's (`ink`, `{class: i}`, `{rgb: [r, g, b]}`) as CSS.
function paint(colour) {
  if (colour && colour.class !== undefined) return `var(--k${colour.class % 6})`;
  if (colour && Array.isArray(colour.rgb)) return `rgb(${colour.rgb.join(', ')})`;
  return 'var(--ink)';
}

// A pen's width in the swatch's pixels, and its dashes.
const WIDTHS = { light: 2, stroke: 3, bold: 4 };
const DASHES = { long: '4 2.7', short: '2.4 2.4' };

function stroke(el, pen) {
  el.style.stroke = paint(pen.colour);
  el.style.strokeWidth = pen.weight && pen.weight.px !== undefined ? pen.weight.px : (WIDTHS[pen.weight] || 2);
  if (DASHES[pen.dash]) el.style.strokeDasharray = DASHES[pen.dash];
  el.style.fill = 'none';
}

function svg(tag, attributes) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  return el;
}

// A method's mark drawn from the shapes its swatch lists (in a box 26 × 18).
function drawnSwatch(shapes) {
  const picture = svg('svg', { viewBox: '0 0 26 18', class: 'key-drawn' });
  for (const shape of shapes) {
    let el = null;
    if (shape.shape === 'line') {
      el = svg('line', { x1: shape.from[0], y1: shape.from[1], x2: shape.to[0], y2: shape.to[1] });
      stroke(el, shape.pen);
    } else if (shape.shape === 'ellipse') {
      el = svg('ellipse', { cx: shape.centre[0], cy: shape.centre[1], rx: shape.radii[0], ry: shape.radii[1] });
      stroke(el, shape.pen);
      if (shape.fill) el.style.fill = paint(shape.fill);
    } else if (shape.shape === 'polygon') {
      el = svg('polygon', { points: shape.points.map((p) => p.join(',')).join(' ') });
      el.style.fill = paint(shape.fill);
    } else if (shape.shape === 'text') {
      el = svg('text', { x: shape.at[0], y: shape.at[1], 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      el.textContent = shape.text;
      el.style.fill = paint(shape.colour);
    }
    if (el) picture.append(el);
  }
  return picture;
}

// The swatch of a mark: the plane's own marks are spans the stylesheet (www/help.css) draws
// by their classes; a method's marks bring their own shapes.
function swatch(mark) {
  const key = element('span', { class: `key-mark key-${mark.type.replaceAll('_', '-')}`, 'aria-hidden': 'true' });
  if (Array.isArray(mark.swatch)) {
    key.append(drawnSwatch(mark.swatch));
    return key;
  }
  switch (mark.type) {
    case 'class':
      key.classList.add('swatch', `c${mark.colour % 6}`);
      break;
    case 'test':
      key.classList.add('swatch', `c${mark.colour % 6}`);
      break;
    case 'free_support':
    case 'bound_support':
      key.append(element('span', { class: 'swatch c0' }));
      break;
    case 'regions':
      key.classList.add(`kn${mark.negative % 6}`);
      key.style.setProperty('--positive', `var(--k${mark.positive % 6})`);
      key.style.setProperty('--negative', `var(--k${mark.negative % 6})`);
      break;
    default:
  }
  return key;
}

function draw(legend) {
  list.replaceChildren();
  for (const entry of legend) {
    const li = element('li', { 'data-mark': entry.mark.type });
    const name = element('span', { class: 'legend-label' }, tr(entry.label));
    const [button, note] = explain(tr(entry.label), tr(entry.explain), [li]);
    li.append(swatch(entry.mark), name, button, note);
    list.append(li);
  }
}

window.addEventListener('kernel-playground-frame', () => {
  const frame = window.kernelPlayground && window.kernelPlayground.lastFrame;
  const legend = frame && Array.isArray(frame.legend) ? frame.legend : [];
  const json = JSON.stringify(legend);
  if (json === shown) return;
  shown = json;
  // A popover open in the old legend closes with it.
  draw(legend);
});
