// The controls, made from the lab's catalogue (the parameter table of src/methods/table.rs, gathered
// from the methods' own rows; the methods of src/methods/registry.rs): one labelled row per parameter, shown for the methods that read
// it and enabled when the current settings make it matter. Nothing here knows a method or a
// parameter by name.

import { explain, explainPageControls, refreshExplanations, rowText } from './help.js';
import { t, tr } from './i18n.js';

const $ = (id) => document.getElementById(id);

export const fmt = (v, digits = 3) => {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(digits)));
};
const roundSig = (v) => Number(v.toPrecision(3));

function element(tag, attributes = {}, text = '') {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}

// A slider's readout, which takes a typed value too (www/entry.js commits it): the setting
// exactly as typed, while the slider shows the nearest position.
function readout(row) {
  return element('input', {
    type: 'text', inputmode: 'decimal', class: 'readout', id: `${row.id}-value`, 'data-readout': row.key,
    'aria-label': t('control.value', row.label), title: t('control.type-value', row.label), autocomplete: 'off', spellcheck: 'false', size: '6',
  });
}

// One control for a parameter row: a slider (log or linear) with its readout, a menu, a
// number box, or a check box.
function control(row) {
  const kind = row.kind;
  const attrs = { id: row.id, 'data-key': row.key };
  switch (kind.type) {
    case 'log_slider':
      return [element('input', { ...attrs, type: 'range', 'data-log': '1', min: kind.lo, max: kind.hi, step: '0.01' }),
        readout(row)];
    case 'slider':
      return [element('input', { ...attrs, type: 'range', min: kind.lo, max: kind.hi, step: kind.step }),
        readout(row)];
    case 'integer':
      return [element('input', { ...attrs, type: 'range', min: kind.min, max: kind.slider_max, step: '1' }),
        readout(row)];
    case 'number': {
      const bump = element('button', { type: 'button', 'data-bump': row.key, title: t('control.new-title', row.label) }, t('control.new'));
      return [element('input', { ...attrs, type: 'number', min: '0', step: '1' }), bump];
    }
    case 'expression':
      // A kernel built by rule, typed: set as it is typed, once it reads as a kernel.
      return [element('input', {
        ...attrs, type: 'text', class: 'expression', autocomplete: 'off', spellcheck: 'false',
        autocapitalize: 'off', placeholder: row.hint,
      })];
    case 'choice': {
      const select = element('select', attrs);
      for (const { value, label } of row.options) select.append(element('option', { value }, label));
      return [select];
    }
    default: {
      const parts = [element('input', { ...attrs, type: 'checkbox' })];
      if (row.hint) parts.push(element('span', { class: 'hint' }, row.hint));
      return parts;
    }
  }
}

// Builds every control from the catalogue into the page's containers; each explains itself
// (www/help.js): its description, and an ⓘ beside its label.
export function buildControls(catalogue) {
  tasks = catalogue;
  const task = $('task');
  for (const t of catalogue.tasks) task.append(element('option', { value: t.id }, t.title));
  const taskOf = () => catalogue.tasks.find((t) => t.id === task.value) || catalogue.tasks[0];
  task.after(...explain(t('help.the-task'), () => `${taskOf().title}: ${taskOf().explain}`, [task]));
  // One task alone needs no menu.
  $('task-row').hidden = catalogue.tasks.length < 2;
  const model = $('model');
  const method = () => catalogue.methods.find((m) => m.id === model.value && m.task === task.value)
    || catalogue.methods[0];
  $('model').closest('.row').querySelector('label').after(
    ...explain(t('help.the-model'), () => `${method().title}: ${method().explain}`, [model]));
  const usedBy = (key) => catalogue.methods.filter((m) => m.params.includes(key)).map((m) => m.id);
  for (const row of catalogue.params) {
    if (row.group === 'layer') {
      const div = element('div', { class: 'toggle' });
      const label = element('label');
      const input = element('input', { type: 'checkbox', id: row.id, 'data-key': row.key });
      label.append(input, ` ${row.label}`);
      div.append(label, ...explain(row.label, row.explain, [input]));
      $('layer-params').append(div);
      continue;
    }
    const group = { model: 'model-params', points: 'points-params', view: 'view-params' }[row.group];
    if (!group) continue;
    // A row the table marks `more` waits in its group's fold ("more model settings"…).
    const container = row.more && $(`${group}-more`) ? `${group}-more` : group;
    const div = element('div', { class: 'row' });
    // A key two methods each have a row of is shown, as each row, for its own readers.
    if (row.group === 'model') div.dataset.models = (row.readers ?? usedBy(row.key)).join(' ');
    const parts = control(row);
    parts[0].dataset.default = row.default;
    // The notes' other name for the value (σ beside an RBF kernel's γ), filled by enableControls.
    const also = ['log_slider', 'slider', 'integer'].includes(row.kind.type)
      ? [element('span', { class: 'also', id: `${row.id}-also`, 'aria-live': 'polite' })] : [];
    const select = parts[0].tagName === 'SELECT' ? parts[0] : null;
    // The control and its readout (or its 'new' button) share the description.
    const help = explain(row.label, () => rowText(row, select), parts);
    div.append(element('label', { class: 'label', for: row.id }, row.label), ...help, ...parts, ...also);
    $(container).append(div);
  }
  fillModels('classification');
  $('stepping-panel').dataset.models = catalogue.methods.filter((m) => m.steppable).map((m) => m.id).join(' ');
  explainPageControls();
  found = null;
}

// The catalogue's methods and presets by task (set by buildControls).
let tasks = null;

// The model menu lists the methods of `task`; the preset menu its presets (and the lecture
// examples, which are classification's). New points have a class in classification alone.
function fillModels(task) {
  $('class-buttons').hidden = task !== 'classification';
  const model = $('model');
  if (model.dataset.task !== task) {
    model.dataset.task = task;
    model.replaceChildren(...tasks.methods.filter((m) => m.task === task)
      .map((m) => element('option', { value: m.id }, m.title)));
  }
  for (const option of $('preset').querySelectorAll('option')) {
    const of = tasks.preset_tasks[option.value] || 'classification';
    option.hidden = of !== task;
    option.disabled = of !== task;
  }
  // The learning curves' second method is one of the same task.
  const beside = document.querySelector('[data-key="learn_vs"]');
  if (beside && beside.dataset.task !== task) {
    beside.dataset.task = task;
    beside.replaceChildren(beside.options[0], ...tasks.methods.filter((m) => m.task === task)
      .map((m) => element('option', { value: m.id }, m.title)));
  }
}

export const keyed = () => Array.from(document.querySelectorAll('[data-key]'));

export function controlValue(el) {
  if (el.type === 'checkbox') return el.checked ? '1' : '0';
  if (el.dataset.log) return String(roundSig(10 ** Number(el.value)));
  return el.value;
}

export function showValue(el) {
  const out = $(`${el.id}-value`);
  if (!out) return;
  out.value = el.dataset.log ? fmt(Number(controlValue(el))) : el.value;
}

// The setting's own text (C = 0.3125, not 0.313), unless it is too long to read at a glance.
const exact = (text) => (text.length <= 12 ? text : fmt(Number(text)));

// Each model shows its own controls; of those, only the ones its settings make matter are
// enabled (the lab decides: Lab.enabled).
// (Each property written only when it changes: a slider's every step comes here, and a
// written text, even the same, is the page's layout to do again.)
export function enableControls(app) {
  const model = $('model').value;
  const { rows, params, also } = walked();
  for (const { row, models } of rows) {
    const hidden = !models.includes(model);
    if (row.hidden !== hidden) row.hidden = hidden;
  }
  for (const { el, out, row } of params) {
    const off = !app.enabled(el.dataset.key);
    if (el.disabled !== off) el.disabled = off;
    if (out && out.disabled !== off) out.disabled = off;
    row.classList.toggle('disabled', off);
  }
  for (const { el, key } of also) {
    const text = tr(app.also_written(key));
    if (el.textContent !== text) el.textContent = text;
  }
  showUnits(app);
}

// What enableControls walks, found once: buildControls makes every row and control, and the
// page queried them again at each step of a slider (a millisecond of a slow phone's frame).
let found = null;
function walked() {
  found ??= {
    rows: Array.from(document.querySelectorAll('[data-models]'), (row) => ({ row, models: row.dataset.models.split(' ') })),
    params: Array.from(document.querySelectorAll('#model-params [data-key], #model-params-more [data-key]'),
      (el) => ({ el, out: $(`${el.id}-value`), row: el.closest('.row') })),
    also: Array.from(document.querySelectorAll('.also'), (el) => ({ el, key: el.id.slice(0, -'-also'.length) })),
    logSliders: Array.from(document.querySelectorAll('input[type=range][data-log]')),
  };
  return found;
}

// A log slider the lab shows in other units (a Gaussian kernel's γ as its bandwidth σ, when
// chosen: Lab.shown_as) takes their word, range and value; back to its own when no longer.
// Its input is turned back into the setting's units when it is set (edits.js).
function showUnits(app, force = false) {
  for (const el of walked().logSliders) {
    const key = el.dataset.key;
    const shown = app.shown_as(key);
    const mode = shown ? '1' : '';
    if (!force && mode === (el.dataset.shown || '')) continue;
    el.dataset.shown = mode;
    el.dataset.ownMin ??= el.min;
    el.dataset.ownMax ??= el.max;
    const label = el.closest('.row').querySelector('label.label');
    label.dataset.own ??= label.textContent;
    const units = shown ? JSON.parse(shown) : null;
    el.min = units ? units.lo : el.dataset.ownMin;
    el.max = units ? units.hi : el.dataset.ownMax;
    label.textContent = units ? tr(units.label) : label.dataset.own;
    el.value = Math.log10(Number(app.shown(key)));
    const out = $(`${el.id}-value`);
    if (out) {
      out.value = exact(app.shown(key));
      out.setAttribute('aria-label', t('control.value', label.textContent));
    }
  }
}

// A scene just opened (a link, a file, Back): the model's fold opens when it holds a setting
// of this model that is not the default (a link's one-vs-rest, say), so what the scene was made
// with is in sight.
export function revealSettings(app) {
  for (const el of document.querySelectorAll('#model-more [data-default]')) {
    const fold = el.closest('details.more');
    if (!fold.open && !el.closest('.row').hidden && app.get(el.dataset.key) !== el.dataset.default) {
      fold.dataset.auto = '1'; // opened for this scene, not remembered (folds.js)
      fold.open = true;
    }
  }
}

export function syncControls(app) {
  fillModels(app.get('task'));
  showUnits(app, true);
  for (const el of keyed()) {
    // In the units the slider shows (σ for γ, when chosen), else the setting itself.
    const value = el.dataset.shown ? app.shown(el.dataset.key) : app.get(el.dataset.key);
    if (el.type === 'checkbox') el.checked = value === '1';
    else if (el.dataset.log) el.value = Math.log10(Number(value));
    else el.value = value;
    // A method chosen beside the lab's in another task is not run here (the learning curves
    // take one of the scene's task): the menu says so.
    if (el.dataset.key === 'learn_vs' && el.selectedIndex < 0) el.value = 'none';
    showValue(el);
    // The readout gives the setting itself, exactly as set (typed, or from a link), also
    // where a link or a file's scale took it beyond the slider's range (γ = 2e8 for data in
    // units of 10⁻⁴).
    const out = $(`${el.id}-value`);
    if (out) out.value = exact(value);
  }
  enableControls(app);
  refreshExplanations();
}
