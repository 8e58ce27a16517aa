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

// The swatch of a mark: a span the stylesheet (www/help.css) draws by its classes.
function swatch(mark) {
  const key = element('span', { class: `key-mark key-${mark.type.replaceAll('_', '-')}`, 'aria-hidden': 'true' });
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
    case 'ellipses':
    case 'means':
      key.classList.add(`k${mark.colour % 6}`);
      break;
    case 'regions':
      key.classList.add(`kn${mark.negative % 6}`);
      key.style.setProperty('--positive', `var(--k${mark.positive % 6})`);
      key.style.setProperty('--negative', `var(--k${mark.negative % 6})`);
      break;
    case 'mistake_count':
      key.textContent = '2';
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
