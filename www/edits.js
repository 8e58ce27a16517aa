// Edits from the panel: a control moved or typed into (its setting on the side it sets), the
// exact-entry tools (the points table, the plot's window) and the open view's tab.

import { controlValue, enableControls, showValue, syncControls } from './controls.js';
import { PlotWindow } from './entry.js';
import { requestRender, stopPlaying } from './frame.js';
import { cancelEntry } from './history.js';
import { exampleOf, showCaption } from './examples.js';
import { t, tr } from './i18n.js';
import { $, controlled, guard, messages, page, showMessage } from './page.js';
import { cancelTap, hideTooltip, setHighlight } from './pointer.js';
import { PointsTable } from './points-table.js';
import { handBack } from './remote.js';
import { newEntry, replaceScene, sceneHash, settle } from './scenes.js';
import { openView } from './views.js';

const canvas = $('plot');

export function onControl(el, value = controlValue(el)) {
  const key = el.dataset.key;
  // A lecture example from the preset menu: its scene whole, as its link opens it.
  const example = key === 'preset' ? exampleOf(value) : null;
  if (example) {
    newEntry();
    if (replaceScene('#' + example.hash)) {
      showCaption(example);
      // On a projector the controls' column scrolls on its own: the menu was chosen low in it,
      // and the caption, what to look at, is at its top.
      const column = $('controls');
      if (getComputedStyle(column).overflowY === 'auto') column.scrollTo({ top: 0 });
    } else syncControls(controlled());
    return;
  }
  // Another task, model or preset is a new scene: Back returns to the one before.
  if (el.id === 'model' || key === 'preset' || key === 'task') newEntry();
  const done = guard(() => {
    // A slider shown in other units (σ for γ) gives the setting in its own.
    if (el.dataset.shown) value = controlled().setting_from_shown(key, value);
    applySetting(key, value);
    messages.clear('action');
    return true;
  });
  // A choice that is no slider's step (a model, a kernel, a task) may fit anew from scratch, for
  // longer than a frame: a page fitting its small scene itself gives it back to the worker.
  if (el.type !== 'range') handBack();
  // The model is asked for first: behind the page, the worker starts on it while the controls
  // are brought up to date (on a slow phone, a millisecond of a slider's step).
  requestRender();
  // Typed text the lab refuses (a kernel's expression half written) is marked, not lost.
  if (el.classList.contains('expression')) el.setAttribute('aria-invalid', done ? 'false' : 'true');
  // A preset brings the settings of its lesson (noise, test fraction, C), a task its methods and
  // presets: the controls show them.
  if (key === 'preset' || key === 'task') syncControls(controlled());
  else showValue(el);
  enableControls(controlled());
  if (el.id === 'model') stopPlaying();
}

// Sets `key` to `value` (in the setting's own units, as the link writes it) where it belongs:
// the points' settings and the views on both sides, the model's on the edited side (the lab's
// rule, src/lab/comparison.rs); each side records the edit for its copy behind the page.
// Throws the lab's message when the value is refused.
export function applySetting(key, value) {
  page.lab.set(key, value);
}

// ---- exact entry: typed values, the points table, the plot's window (entry.js, points-table.js)

export const entry = {
  app: () => page.app,
  say: (text) => showMessage(text),
  settle: () => settle(),
  // A value typed into a readout: set exactly as typed (null: put the readout back).
  typed(key, text) {
    const now = $(key).dataset.shown ? controlled().shown(key) : controlled().get(key);
    if (text !== null && text.trim() !== now) onControl($(key), text.trim());
    syncControls(controlled());
    settle();
  },
  // The plot's window, on both sides ('' fits it to the points).
  setWindow(value) {
    guard(() => page.lab.set('window', value));
    requestRender();
  },
  // A second finger: the first one's tap (not yet a point) becomes half of a pinch.
  cancelTouch() {
    cancelTap();
    page.dragging = null;
    hideTooltip();
    setHighlight(-1);
  },
  // The scene with these points (the link's `x,y,label[,t];…`), its window fitted to them.
  setPoints(points) {
    if (points === '') {
      page.lab.clear();
      settle();
      return true;
    }
    const scene = sceneHash();
    if (scene === null) {
      showMessage(t('message.table-too-large'));
      return false;
    }
    const parts = scene.split('&').filter((p) => !p.startsWith('points=') && !p.startsWith('window='));
    const ok = replaceScene([...parts, `points=${points}`].join('&'));
    if (ok) settle();
    return ok;
  },
  // Pasted CSV text, read as a file is: it replaces the points.
  loadText(text) {
    newEntry();
    let notice = '';
    const ok = guard(() => { notice = page.lab.load_file(new TextEncoder().encode(text), ''); return true; }, 'file', t('message.pasted', ''));
    if (ok) {
      settle();
      showMessage(notice ? t('message.pasted', tr(notice)) : null, 'file');
    } else {
      cancelEntry();
    }
    return Boolean(ok);
  },
};
export const plotWindow = new PlotWindow(entry, canvas);
export const pointsTable = new PointsTable(entry);

// ---- views ----------------------------------------------------------------------------------

export function toggleView(id) {
  if (!page.app) return;
  const value = openView(page.app) === id ? '' : id;
  // Shared by both sides, as the control's other settings of the views are.
  guard(() => page.lab.set('views', value));
  requestRender();
}

