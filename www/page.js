// The page's one state: the scenes on screen (the left, and the right when comparing), the
// workers behind them, what the pointer holds and the last frames. Every module of the page
// reads and writes it here, and nowhere else keeps a copy; the maths, the scenes and their
// undo history live in Rust (the `App` handles; `SceneHistory` in www/scenes.js).

import { MessageLine, errorText } from './messages.js';
import { workerNote } from './behind.js';
import { t, tr } from './i18n.js';

export const $ = (id) => document.getElementById(id);

export const page = {
  app: null,          // the scene on the left: the one the views, the keyboard and the link follow
  twin: null,         // when comparing: the same points under other settings, on the right
  editSide: 0,        // which side the model controls edit: 0 left, 1 right
  dragging: null,     // index of the point being dragged
  highlighted: -1,
  lastFrame: null,
  lastFrameB: null,
  // The worker behind the page that fits the left-hand scene and computes its field (null: the
  // page does it itself, as without workers or with `?sync` in the address).
  client: null,
  // The same for the right-hand side when comparing (its own copy of the lab in the worker).
  clientB: null,
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

// The right-hand side shares the left's points and the settings that make them; the link
// carries its own settings as `compare=` (URL-encoded `key=value&…`).
export const sides = () => (page.twin ? [page.app, page.twin] : [page.app]);
export const controlled = () => (page.editSide === 1 && page.twin ? page.twin : page.app);
export const otherSide = (a) => (a === page.app ? page.twin : page.app);
