// Explanations on the page: every control's sentence or two from the catalogue (the parameter
// table's `explain`, a choice's chosen option's, the chosen method's) becomes the control's
// accessible description (aria-describedby) and a short popover behind a small ⓘ button beside
// its label. The popover opens while the pointer is over the button or the button has the
// keyboard's focus, stays open after a click or a tap until another click, a tap elsewhere or
// Esc, so a mouse, a keyboard and a finger all reach it.

import { t } from './i18n.js';

let count = 0;
const explained = []; // { text: () => string, note } for each explained thing, refreshed on change
let pinned = null;    // the popover a click or a tap keeps open

function element(tag, attributes = {}, text = '') {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}

function show(note, on) {
  note.hidden = !on;
  const button = note.previousElementSibling;
  if (button && button.classList.contains('help-button')) button.setAttribute('aria-expanded', String(on));
}

function closePinned() {
  if (pinned) show(pinned, false);
  pinned = null;
}

// The ⓘ button for `name` and its popover, which holds the explanation and describes `targets`
// (the control, its readout…). `text` is a string or a function read again at each change.
// Returns [button, popover], to be placed where the label is.
export function explain(name, text, targets = []) {
  const read = typeof text === 'function' ? text : () => text;
  const id = `help-${++count}`;
  const note = element('span', { id, class: 'help-note', role: 'tooltip', hidden: '' }, read());
  const button = element('button', {
    type: 'button', class: 'help-button', 'aria-label': t('help.about', name), 'aria-describedby': id,
    'aria-expanded': 'false',
  }, 'i');
  for (const target of targets) describeBy(target, id);
  button.addEventListener('pointerenter', (ev) => { if (ev.pointerType === 'mouse') show(note, true); });
  button.addEventListener('pointerleave', (ev) => { if (ev.pointerType === 'mouse' && pinned !== note) show(note, false); });
  button.addEventListener('focus', () => show(note, true));
  button.addEventListener('blur', () => { if (pinned !== note) show(note, false); });
  button.addEventListener('click', () => {
    if (pinned === note) { closePinned(); return; }
    closePinned();
    pinned = note;
    show(note, true);
  });
  explained.push({ read, note });
  return [button, note];
}

// Adds `id` to what describes `target`, keeping what describes it already.
function describeBy(target, id) {
  const ids = (target.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  if (!ids.includes(id)) ids.push(id);
  target.setAttribute('aria-describedby', ids.join(' '));
}

// Reads every explanation again (a menu's chosen option explains itself too).
export function refreshExplanations() {
  for (const { read, note } of explained) {
    const text = read();
    if (note.textContent !== text) note.textContent = text;
  }
}
// The language menu switched live (www/i18n.js): every explanation in the new language.
window.addEventListener('kernel-playground-language', refreshExplanations);

// The explanation of a parameter row: its own sentence and, for a menu, the chosen option's.
export function rowText(row, select) {
  if (!select || !row.options) return row.explain;
  const chosen = row.options.find((o) => o.value === select.value);
  return chosen && chosen.explain ? t('help.chosen', row.explain, chosen.label.trim(), chosen.explain) : row.explain;
}

// The page's own controls, which are not rows of the parameter table.
const PAGE_CONTROLS = ['compare', 'tool', 'load-csv', 'paste-csv', 'save-python', 'new-x', 'new-y', 'new-label', 'new-test'];
// (Their explanations: the page catalogue's `explain.<id>`.)

// Describes the page's own controls (those with a visible label get an ⓘ too).
export function explainPageControls() {
  for (const id of PAGE_CONTROLS) {
    const text = t(`explain.${id}`);
    const control = document.getElementById(id);
    if (!control) continue;
    const label = control.closest('label') || document.querySelector(`label[for="${id}"]`);
    const [button, note] = explain(label ? label.textContent.trim() : id, text, [control]);
    if (label && !control.closest('table')) {
      label.after(button, note);
    } else {
      // No room beside it (a table cell): the description alone, kept out of sight.
      note.classList.add('help-silent');
      control.after(note);
    }
  }
}

document.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape') return;
  const open = document.querySelector('.help-note:not([hidden])');
  if (!open) return;
  closePinned();
  for (const note of document.querySelectorAll('.help-note:not([hidden])')) show(note, false);
  // Esc here closes the popover and nothing else (not a dialog, not a typed value).
  ev.stopPropagation();
}, true);

// A tap or a click anywhere else closes a pinned popover.
document.addEventListener('pointerdown', (ev) => {
  if (pinned && !ev.target.closest('.help-button, .help-note')) closePinned();
});

// A menu's description follows its choice.
document.addEventListener('change', (ev) => {
  if (ev.target.tagName === 'SELECT') refreshExplanations();
});
