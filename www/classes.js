// The class buttons: one per class of the scene in increasing order of its label (a button's
// place is its class's colour and shape in the plane), each named as the data wrote it (−1,
// +1, 3, 7, setosa; the lab's own classes 0, 1, … as "class 1", "class 2", …), and a "new
// class" button. A click adds a point of the selected class, a shift-click one of the other;
// a class with no point yet appears only when "new class" (or the key after the last class's)
// asks for one. Keys 1–6 choose the classes in that order.

import { t, tr } from './i18n.js';

const KEYED = 6;
let group = null;
let shownJson = null;
let choices = []; // [{label, name}] as Lab.class_choices gives them
let asked = null; // a class "new class" made, until the scene's classes change: {label, name}
let selected = 0;

// Every class a button offers, in increasing order.
const offered = () => (asked ? [...choices, { label: asked.label, name: asked.name }] : choices);
const rankOf = (label) => offered().findIndex((c) => c.label === label);

// The class a click adds.
export const currentClass = () => selected;

// The class a shift-click adds: the second class for the first and the first for any other.
export function otherClass() {
  const list = offered();
  if (list.length < 2) return selected;
  return rankOf(selected) === 0 ? list[1].label : list[0].label;
}

// Chooses the class of rank `k` (key k + 1); the key after the last class's asks for a new one.
export function chooseRank(k) {
  const list = offered();
  if (k < list.length) select(list[k].label);
  else if (k === list.length) newClass();
}

function select(label) {
  choose(label);
  draw();
}

// The selected class is also the label the points table's new row offers.
function choose(label) {
  if (label === selected) return;
  selected = label;
  const field = document.getElementById('new-label');
  if (field) field.value = String(label);
}

// A class above every label, so the others keep their colours; named as the others are.
function newClass() {
  const list = offered();
  if (list.length >= KEYED) return;
  const top = list.length ? list[list.length - 1].label : -1;
  if (top >= 2147483647) return;
  const label = top + 1;
  const own = list.every((c) => c.name === `class ${c.label + 1}`);
  asked = { label, name: own ? `class ${label + 1}` : String(label) };
  select(label);
}

// Takes the scene's classes (`json`, from Lab.class_choices), each frame.
export function showClasses(json) {
  if (json === shownJson) return;
  const before = offered();
  const rank = Math.max(0, before.findIndex((c) => c.label === selected));
  shownJson = json;
  choices = JSON.parse(json);
  // The asked-for class has its points now, or the scene has changed under it.
  asked = null;
  const list = offered();
  if (list.length && rankOf(selected) < 0) choose(list[Math.min(rank, list.length - 1)].label);
  draw();
}

function draw() {
  if (!group) return;
  const list = offered();
  const buttons = list.map((c, k) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'class-button';
    button.dataset.label = String(c.label);
    button.setAttribute('aria-pressed', String(c.label === selected));
    const swatch = document.createElement('span');
    swatch.className = `swatch c${k % 6}`;
    const name = tr(c.name); // the lab's "class 1"; a file's own names stay as they are
    const shown = name.length > 20 ? `${name.slice(0, 19)}…` : name;
    button.append(swatch, `${shown} `);
    if (shown !== name) button.title = name;
    if (k < KEYED) {
      const key = document.createElement('kbd');
      key.textContent = String(k + 1);
      button.append(key);
    }
    button.addEventListener('click', () => select(c.label));
    return button;
  });
  const more = document.createElement('button');
  more.type = 'button';
  more.id = 'new-class';
  more.title = t('class.new-title');
  more.append(t('class.new'));
  if (list.length < KEYED) {
    const key = document.createElement('kbd');
    key.textContent = String(list.length + 1);
    more.append(' ', key);
  } else {
    more.disabled = true;
  }
  more.addEventListener('click', newClass);
  group.replaceChildren(group.querySelector('.label'), ...buttons, more);
}

// Takes over the group of class buttons (`element`).
export function wireClasses(element) {
  group = element;
  draw();
}
