// The lab embedded in slides and course pages (docs/EMBEDDING.md has the host's side).
//
// `?embed=1` in the address (the query: the scene stays in the hash) shows the plot, the open
// view, the status line and only the controls `show=` names, by the keys the link writes
// (`show=C,gamma`; `step` for the stepping buttons), fitted to the frame and fitted again
// whenever the frame changes size. Embedded, the lab is a guest: it makes no entries in the
// browser's history and keeps nothing for the next visit (history.js).
//
// The host page talks to it with postMessage. A message is a plain object whose `kp` names its
// kind; anything without a `kp` is somebody else's and is ignored without a word.
//   host → lab  { kp: 'set', key, value }        a setting, in the units the link writes
//               { kp: 'load', scene }            a whole scene, as a link's hash
//               { kp: 'step' }, { kp: 'reset' }  one update of the run; back to its start
//               { kp: 'status' }                 the status, now
//   lab → host  { kp: 'ready', version }         the lab listens (earlier messages are then taken)
//               { kp: 'status', text, … }        whenever the status line or a setting changes
//               { kp: 'key', key, code, shiftKey } a key the lab does not use (slide navigation)
//               { kp: 'error', re, message }     why a kp message was not taken, in one line
// A message's `id`, if it has one, comes back on its error.

import { Lab } from './pkg/kernel_playground.js';
import { syncControls } from './controls.js';
import { applySetting } from './edits.js';
import { repaint, stopPlaying } from './frame.js';
import { beGuest } from './history.js';
import { t, tr } from './i18n.js';
import { errorText, refusedLink } from './messages.js';
import { $, controlled, messages, page, renderMessage } from './page.js';
import { replaceScene, settle } from './scenes.js';
import { limitViewHeight } from './views.js';

const options = new URLSearchParams(location.search);
export const embedded = options.get('embed') === '1';
// The version of the message format; a host can check it on `ready`.
const VERSION = 1;
// The host page, if the lab is in a frame (a lab opened on its own posts nothing).
const host = window.parent !== window ? window.parent : null;
const root = document.documentElement;

let catalogue = null;
let started = false;
const waiting = []; // messages that came before the lab could take them
let unknownNames = [];

// ---- what is shown --------------------------------------------------------------------------

// The row a name of `show=` shows, or null: the control of that setting, or the stepping
// buttons for `step`.
function namedRow(name) {
  if (name === 'step') return $('stepping');
  const control = document.querySelector(`[data-key="${CSS.escape(name)}"]`);
  return control ? control.closest('.row, .toggle') : null;
}

// Called once the controls are built: the page becomes the embedded one, with the named rows
// marked (`data-embed="row"`, and the boxes around them "around", which embed.css keeps) and the
// folds that hold them opened (not remembered as opened: folds.js).
export function embedControls(lab) {
  if (!embedded) return;
  catalogue = lab;
  beGuest();
  root.classList.add('embed');
  // A message lies over the foot of the plot, so it never takes the plot's room.
  document.querySelector('.canvas-wrap').append($('message'));
  const names = (options.get('show') || '').split(',').map((name) => name.trim()).filter(Boolean);
  unknownNames = [];
  for (const name of names) {
    const row = namedRow(name);
    if (!row) {
      unknownNames.push(name);
      continue;
    }
    row.dataset.embed = 'row';
    for (let box = row.parentElement; box && !box.matches('form, .views'); box = box.parentElement) {
      box.dataset.embed = 'around';
      if (box.matches('details') && !box.open) {
        if (box.matches('.more')) box.dataset.auto = '1';
        box.open = true;
      }
    }
  }
  $('controls').hidden = !document.querySelector('#controls [data-embed="row"]');
  limitViewHeight(() => viewRoom);
  const resized = new ResizeObserver(fit);
  for (const el of [root, $('controls'), $('view-wrap'), document.querySelector('.stage')]) resized.observe(el);
  window.addEventListener('kernel-playground-frame', fit);
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('pointerdown', () => { tabbed = false; }, true);
}

// Called once the scene is open and the page wired: the lab takes messages from now on.
export function startEmbed() {
  if (!embedded) return;
  started = true;
  post({ kp: 'ready', version: VERSION });
  if (unknownNames.length > 0) {
    const text = t('embed.no-control', unknownNames.join(','));
    messages.set('link', [messages.get('link'), text].filter(Boolean).join(' '));
    renderMessage(page.lastFrame);
    post({ kp: 'error', re: 'show', message: text });
  }
  const watch = new MutationObserver(scheduleStatus);
  watch.observe($('status'), { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  watch.observe($('message'), { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
  for (const message of waiting.splice(0)) take(message);
  fit();
  scheduleStatus();
}

// ---- fitting the frame ----------------------------------------------------------------------

// The plot as large as the frame allows under the named controls and beside the open view (or
// over it, in a frame taller than wide); the view gets the rest. The canvases follow their
// boxes' sizes (frame.js, views.js), so the plot is drawn anew at its new size, exactly.
let viewRoom = 200;
let laidOut = '';

function fit() {
  const rem = parseFloat(getComputedStyle(root).fontSize);
  const pad = 0.4 * rem;
  const gap = 0.6 * rem;
  const between = 0.8 * rem; // between the two plots of a comparison (.sides)
  const across = root.clientWidth - 2 * pad;
  const panel = $('controls');
  const panelHeight = panel.hidden ? 0 : panel.offsetHeight + gap;
  // Under the plot: the status line.
  const stage = document.querySelector('.stage');
  const below = stage.offsetHeight - document.querySelector('.canvas-wrap').offsetHeight;
  const high = root.clientHeight - 2 * pad - panelHeight;
  const plots = page.twin ? 2 : 1;
  const view = !$('view-wrap').hidden;
  const tall = view && root.clientWidth < root.clientHeight;
  const wide = (room) => (room - (plots - 1) * between) / plots;
  let side;
  if (!view) side = Math.min(high - below, wide(across));
  else if (tall) side = Math.min(wide(across), (high - below) * 0.55);
  else side = Math.min(high - below, wide((across - gap) * (plots === 2 ? 0.6 : 0.5)));
  side = Math.max(120, Math.floor(side));
  const stageWidth = plots * side + (plots - 1) * between;
  const params = $('view-params').offsetHeight;
  viewRoom = Math.max(100, (tall ? high - side - below - gap : high) - params - rem);
  const viewWidth = Math.max(200, Math.floor(tall ? across : across - gap - stageWidth));
  const layout = `${stageWidth} ${viewWidth} ${viewRoom} ${view} ${tall}`;
  if (layout === laidOut) return;
  laidOut = layout;
  root.style.setProperty('--embed-stage', `${stageWidth}px`);
  root.style.setProperty('--embed-view', `${viewWidth}px`);
  root.classList.toggle('embed-view', view);
  root.classList.toggle('embed-tall', tall);
  // A new layout is no edit: no draft is asked for (www/draft.js).
  repaint();
}

// ---- keys for the host ----------------------------------------------------------------------

// Keys the lab never uses embedded go to the host (a slide deck turns its slides with them):
// the page keys, N and P (presenter mode has no place in a frame), and `?`. Without a host
// (the embedding link opened on its own) they do nothing.
const HOST_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'n', 'N', 'p', 'P', '?']);
// The arrows and the space bar go to the host too, unless something in the lab is using them:
// a control with the focus (a slider, a menu, a box to type in; a button takes the space bar),
// or a plot or a view reached with Tab (the arrows move its cursor or turn it). A plot focused
// by a click leaves them to the host.
const SLIDE_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ']);
let tabbed = false; // whether the focus last moved by Tab rather than by a press

function usedByLab(target, key) {
  if (target.closest('button, summary')) return key === ' ';
  return target.matches('canvas') && tabbed;
}

function onKey(ev) {
  if (ev.key === 'Tab') tabbed = true;
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
  const target = ev.target instanceof Element ? ev.target : document.body;
  // Typing, or a control or a dialog with the focus: every key is the lab's.
  if (target.closest('input, select, textarea, dialog, [contenteditable="true"]')) return;
  if (!HOST_KEYS.has(ev.key) && !(SLIDE_KEYS.has(ev.key) && !usedByLab(target, ev.key))) return;
  ev.preventDefault();
  ev.stopPropagation();
  post({ kp: 'key', key: ev.key, code: ev.code, shiftKey: ev.shiftKey });
}

// ---- messages -------------------------------------------------------------------------------

function post(message) {
  if (host) host.postMessage(message, '*');
}

window.addEventListener('message', (ev) => {
  if (!embedded || !host || ev.source !== host) return;
  const message = ev.data;
  if (message === null || typeof message !== 'object' || !('kp' in message)) return;
  if (started) take(message);
  else waiting.push(message);
});

// The settings a host may set: the parameter table's keys, the model and the open views.
const settingKeys = () => ['model', 'views', ...catalogue.params.map((row) => row.key)];

function take(message) {
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  const refuse = (text) => post({ kp: 'error', re: typeof message.kp === 'string' ? message.kp : null, message: text, ...(id === undefined ? {} : { id }) });
  try {
    const said = obey(message);
    if (said) refuse(said);
  } catch (e) {
    refuse(errorText(e));
  }
}

// Does what a kp message asks; returns why not, or nothing.
function obey(message) {
  switch (message.kp) {
    case 'set': {
      const { key, value } = message;
      const valueOk = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
      if (typeof key !== 'string' || !valueOk) return t('embed.set-needs');
      if (!settingKeys().includes(key)) return t('embed.no-setting', key);
      try {
        applySetting(key, String(value));
      } catch (e) {
        return `set ${key} = ${value}: ${tr(errorText(e))}`;
      }
      if (key === 'model') stopPlaying();
      syncControls(controlled());
      settle();
      return null;
    }
    case 'load': {
      if (typeof message.scene !== 'string') return t('embed.load-needs');
      const hash = message.scene.startsWith('#') ? message.scene : `#${message.scene}`;
      // A link the lab refuses is said to the host, and the scene on screen stays.
      try {
        Lab.read_link(hash);
      } catch (e) {
        return `load: ${refusedLink(errorText(e), true)}`;
      }
      stopPlaying();
      replaceScene(hash);
      fit();
      return null;
    }
    case 'step':
    case 'reset': {
      const model = controlled().get('model');
      const method = catalogue.methods.find((m) => m.id === model);
      if (!method || !method.steppable) return t('embed.no-steps', message.kp, method ? tr(method.title) : model);
      // What the stepping buttons do, exactly.
      $(message.kp === 'step' ? 'step' : 'step-reset').click();
      return null;
    }
    case 'status':
      postStatus(true);
      return null;
    default:
      return typeof message.kp === 'string'
        ? t('embed.unknown-kind', message.kp)
        : t('embed.kp-needed');
  }
}

// ---- the status, heard by the host ----------------------------------------------------------

let statusTimer = null;
let lastPosted = '';

function scheduleStatus() {
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => postStatus(false), 50);
}

// The status line as it reads, the message line, the numbers of the last frame and every
// setting as the link writes it. Not while the model is a step behind the points (the worker
// computes the new one): the host hears the model that is on screen.
function postStatus(always) {
  if (!page.app) return;
  const line = $('status');
  if (!always && line.classList.contains('behind')) return;
  const frame = page.lastFrame || {};
  const settings = {};
  for (const key of settingKeys()) settings[key] = page.app.get(key);
  const status = {
    kp: 'status',
    text: line.textContent,
    message: $('message').hidden ? '' : $('message').textContent,
    points: page.app.point_count(),
    train_accuracy: frame.train_accuracy ?? null,
    test_accuracy: frame.test_accuracy ?? null,
    steps: frame.steps ?? null,
    facts: (frame.facts || []).map(({ label, value }) => ({ label, value })),
    settings,
  };
  const json = JSON.stringify(status);
  if (!always && json === lastPosted) return;
  lastPosted = json;
  post(status);
}
