// The status line under a plot: at most two lines a class can read, in order of importance —
// the accuracies, then the facts a method declares as its headline (support vectors, the
// margin, w and b) — and beside it a "details" disclosure with everything else: the inside
// numbers a method marks so (objectives, iterations, a solver's step), the timings, and any
// headline fact the line had no room for at this width.

import { fmt } from './controls.js';
import { t, tr } from './i18n.js';

// The most lines the status line takes.
export const STATUS_LINES = 2;

// A fact as people read it: its label, its value (to `digits` significant digits), and its
// note.
export function factText(fact, digits = 4) {
  const v = fact.value;
  let value;
  if (typeof v === 'number') value = Number.isInteger(v) ? String(v) : fmt(v, digits);
  else if (typeof v === 'boolean') value = v ? t('fact.yes') : t('fact.no');
  else if (Array.isArray(v)) value = `(${v.map((x) => fmt(x, digits)).join(', ')})`;
  else value = tr(String(v));
  return [tr(fact.label), value, tr(fact.note)].filter(Boolean).join(' ');
}

// How many lines of text `line` holds (its own height may be more: it keeps room for two).
export function textLines(line) {
  const range = document.createRange();
  range.selectNodeContents(line);
  const tops = new Set();
  for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
  return tops.size;
}

// The details beside a status line (`status` → `status-details`, `status-b` →
// `status-details-b`).
export function detailsOf(line) {
  return document.getElementById(line.id.replace('status', 'status-details'));
}

// A status with nothing more to say (a scene still being prepared): no details, and no last
// frame for a new width to show again (it would bring back the last scene's numbers).
export function hideDetails(line) {
  lastFrames.delete(line);
  const details = detailsOf(line);
  if (details) details.hidden = true;
}

// Each status line's fits: by its words' shape, width and look, how much of them it showed.
// A slider's steps bring back the same few shapes (a count of support vectors gaining a digit,
// a margin's last digit dropping), and each shape measured anew lays the page out mid-frame.
const fits = new WeakMap();
const FITS_KEPT = 64;

// Each status line's width, as last laid out. Reading `clientWidth` in the middle of a frame
// makes the browser lay the page out there and then, and again once the frame's other changes
// are made: the width is taken from a ResizeObserver instead, which reports it after the
// browser's own layout, and a line whose width changed is fitted again at once.
const widths = new WeakMap();
const lastFrames = new WeakMap();
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const width = target.clientWidth;
    if (widths.get(target) === width) continue;
    widths.set(target, width);
    const f = lastFrames.get(target);
    if (f) updateStatus(f, target);
  }
});

function widthOf(line) {
  if (!widths.has(line)) {
    widths.set(line, line.clientWidth);
    resized.observe(line);
  }
  return widths.get(line);
}

// The words' shape: their digits all one (the line sets figures of one width, style.css), so
// words that differ only in their digits, as a slider's every step does, wrap alike.
const shape = (words) => JSON.stringify(words).replace(/[0-9]/g, '0');

// Frame `f`'s status on `line`: the headline as fits in two lines, the rest in its details.
export function updateStatus(f, line) {
  const has = (v) => v !== null && v !== undefined;
  // What a lecture reads, most important first. The first (the step, the accuracies) are
  // always shown, in shorter words where two lines are narrow (a phone). The number of points
  // heads the details; the line says which scene it is about in its data-points.
  const first = [];
  const headline = [];
  const inside = [];
  if (has(f.train_accuracy)) {
    // The step, on the narrowest line, only in the details (the trace and the buttons say it).
    if (has(f.steps)) first.push([t('status.step', f.steps), t('status.step', f.steps), t('status.step', f.steps), '']);
    const train = `${fmt(100 * f.train_accuracy, 4)}%`;
    if (f.test_points > 0) {
      const test = has(f.test_accuracy) ? `${fmt(100 * f.test_accuracy, 4)}%` : '–';
      first.push(
        [t('status.training-accuracy', train), t('status.training-accuracy', train), t('status.training', train)],
        [t('status.test-accuracy-held', test, f.test_points), t('status.test-accuracy', test), t('status.test', test)],
      );
    } else {
      first.push([t('status.training-accuracy', train), t('status.training-accuracy', train), t('status.training', train)]);
    }
  }
  // The line reads to three digits, the details to four. (A regression's scores are facts:
  // it has no accuracies.)
  for (const fact of f.facts || []) {
    if (fact.inside) inside.push(factText(fact));
    else headline.push([factText(fact, 3), factText(fact)]);
  }
  // No model (the message says why): the points are all there is to count.
  if (first.length === 0 && headline.length === 0) first.push([t('status.points', f.points)]);
  // The fit, and the whole frame it is part of (fit, picture and status); behind the page,
  // the worker's frame, and the page's painting.
  const timings = [t('status.points', f.points), t('status.fit-ms', f.fit_ms.toFixed(1), f.frame_ms.toFixed(1))];
  if (f.remote) timings.push(t('status.behind', f.paint_ms.toFixed(1)));
  // (Each attribute written only when it changes: a frame that changes nothing there leaves
  // the page's style as it was.)
  const set = (name, value) => { if (line.getAttribute(name) !== value) line.setAttribute(name, value); };
  set('title', f.remote ? t('status.behind', f.paint_ms.toFixed(1)) : '');
  // A model a step behind the points (being computed) is shown, and its numbers greyed.
  line.classList.toggle('behind', Boolean(f.behind));
  set('aria-busy', String(Boolean(f.behind)));
  set('data-points', String(f.points));
  // As much of the headline as two lines hold at this width; the rest heads the details,
  // which are in place first, so the line is measured at the width it keeps.
  const details = detailsOf(line);
  if (details) details.hidden = false;
  let shown = headline.length;
  let words = 0;
  const text = () => [...first.map((forms) => forms[Math.min(words, forms.length - 1)]), ...headline.slice(0, shown).map(([short]) => short)]
    .filter(Boolean).join(' · ');
  // Words of the same shape at the same width and look as last time fit as they did then:
  // measured again only when one of those changed.
  lastFrames.set(line, f);
  const fitKey = `${shape([first, headline])} ${widthOf(line)} ${document.documentElement.className}`;
  if (!fits.has(line)) fits.set(line, new Map());
  const kept = fits.get(line);
  const fitted = kept.get(fitKey);
  if (fitted) {
    // Kept as the newest: the shapes a slider keeps coming back to are the last to go.
    kept.delete(fitKey);
    kept.set(fitKey, fitted);
    ({ shown, words } = fitted);
    if (line.textContent !== text()) line.textContent = text();
  } else {
    line.textContent = text();
    while (textLines(line) > STATUS_LINES && (shown > 0 || words < 3)) {
      if (shown > 0) shown -= 1;
      else words += 1;
      line.textContent = text();
    }
    // The oldest shape goes when the line keeps too many.
    if (kept.size >= FITS_KEPT) kept.delete(kept.keys().next().value);
    kept.set(fitKey, { shown, words });
  }
  if (!details) return;
  // What the line's shorter words left out.
  if (f.test_points > 0) timings[0] = t('status.points-split', f.points, f.train_points, f.test_points);
  if (words > 2 && has(f.steps)) timings[0] = `${t('status.step', f.steps)} · ${timings[0]}`;
  const rows = [timings[0], ...headline.slice(shown).map(([, long]) => long), ...inside, ...timings.slice(1)];
  const body = details.querySelector('.status-details-body');
  // Unchanged (hovering redraws the frame): left as it is, and where it is scrolled.
  if (body.dataset.text === rows.join('\n')) return;
  body.dataset.text = rows.join('\n');
  // The list's items kept and only their changed words written: the timings change with every
  // frame, and a new list each time was a page's worth of new elements to style and lay out.
  let list = body.firstElementChild;
  if (!list || list.tagName !== 'UL') {
    list = document.createElement('ul');
    body.replaceChildren(list);
  }
  while (list.children.length > rows.length) list.lastElementChild.remove();
  while (list.children.length < rows.length) list.append(document.createElement('li'));
  rows.forEach((text, i) => {
    const item = list.children[i];
    if (item.textContent !== text) item.textContent = text;
  });
}
