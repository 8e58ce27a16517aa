// The page's one state: the lab (both sides of a comparison, the side the controls edit, the
// undo history: one `Lab` handle, src/web/lab.rs), the workers behind its sides, what the
// pointer holds and the last frames. Every module of the page reads and writes it here, and
// nowhere else keeps a copy; the maths, the scenes and the rule of a comparison live in Rust.

import { Lab } from './pkg/kernel_playground.js';
import { MessageLine, errorText } from './messages.js';
import { workerNote } from './behind.js';
import { t, tr } from './i18n.js';

export const $ = (id) => document.getElementById(id);

export const page = {
  lab: null,          // the page's lab (a `Lab`): every edit of the scene goes through it
  // The lab's sides as the modules draw and read them (sideOf): the left, the one the views,
  // the keyboard and the link follow; and when comparing the right, the same points under
  // other settings. A new one for each scene opened, so a side's answers to an older scene
  // (the worker's) are known by it.
  app: null,
  twin: null,
  dragging: null,     // index of the point being dragged
  highlighted: -1,
  lastFrame: null,
  lastFrameB: null,
  // The worker behind the page that fits the left-hand scene and computes its field (null: the
  // page does it itself, as without workers or with `?sync` in the address).
  client: null,
  // The same for the right-hand side when comparing (its own copy of the lab in the worker).
  clientB: null,
  // The left side's worker client while the page fits a small, quick scene itself
  // (www/remote.js: `client` is then null).
  standby: null,
  // Without a worker that can run, the page fits (small) scenes itself.
  pageFits: false,
  // Whether the scene is too large for a link (the address then holds none).
  linkTooLong: false,
};

export const messages = new MessageLine();
const messageBox = $('message');

// ---- messages -----------------------------------------------------------------------------

// The message line is `messages`' (www/messages.js): what is kept by cause, with what the
// state says (a scene too large for a link, the model's message), each said once.
export function showMessage(text, cause = 'action') {
  messages.set(cause, text);
  renderMessage(page.lastFrame);
}

export function renderMessage(frame) {
  const state = [];
  if (workerNote()) state.push(workerNote());
  if (page.linkTooLong) {
    state.push(t('message.link-too-long', page.lastFrame ? page.lastFrame.points : ''));
  }
  if (frame && frame.message) state.push(tr(frame.message));
  const text = messages.text(state);
  messageBox.hidden = text === '';
  messageBox.textContent = text;
}

// Runs `action`; an error is said under `cause`, after `prefix` (a file's name).
export function guard(action, cause = 'action', prefix = '') {
  try {
    return action();
  } catch (e) {
    showMessage(prefix + (typeof e === 'string' ? tr(errorText(e)) : errorText(e)), cause);
    return undefined;
  }
}

// ---- compare: two settings side by side on the same points -------------------------------

// The right-hand side shares the left's points and the settings that make them (the lab applies
// the rule: page.lab.set, add_point, clear…); the link carries its own settings as `compare=`.
export const sides = () => (page.twin ? [page.app, page.twin] : [page.app]);
export const controlled = () => (page.twin && page.lab.editing() === 1 ? page.twin : page.app);

// Side `index` of `lab` (0 the left, 1 the right): the lab's calls made of one side
// (`Lab.side_calls`), each with the side given, and the page-wide ones that take a side first
// (adding and moving a point on its plot). Anything else is the lab's own (page.lab.set…).
let calls = null;
export function sideOf(lab, index) {
  calls ??= new Set([...Lab.side_calls().split(','), 'add_point', 'move_point']);
  const side = { index };
  for (const name of calls) side[name] = (...args) => lab[name](index, ...args);
  return side;
}
