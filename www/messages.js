// The page's message line, and what it says about links. Pure (no DOM, no wasm), so node's
// test runner checks it (tests/e2e/messages.test.mjs).
//
// One owner: each message is kept under its cause and replaced when that cause speaks again;
// the line says each distinct text once; and a message goes when its cause does:
//   link    a link's refusal or the parts it left out: until the scene changes or another opens
//   file    a file's error or warnings: until the scene changes, undo/redo, or another file
//   action  an action that failed (a value refused): until the scene changes or undo/redo
//   notice  a passing note ("Link copied"): until its timer, or the scene changes
// Messages that follow from the state (the model's own message, a scene too large for a
// link) are not kept: the page passes them in with each frame.

const ORDER = ['link', 'file', 'action', 'notice'];

// The sentences below (and www/lesson-file.js's) in the page's language: the page hands over its translators
// (www/i18n.js: t for these keys, tr for the lab's own words quoted in them); alone (node's
// tests) they are English.
const ENGLISH = {
  'message.link-refused': 'This link could not be opened: {}; {}.',
  'message.scene-unchanged': 'the scene on screen is unchanged',
  'message.default-instead': 'the default scene is shown instead',
  'message.parts-left-out': 'This link opened, leaving out what this lab does not read: {}.',
  'message.went-wrong': 'Something went wrong: {}',
  'message.lesson-refused': 'The lesson {} could not be opened: {}; the scene on screen is unchanged.',
};
export let t = (key, ...values) => ENGLISH[key].replace(/\{\}/g, () => String(values.shift()));
export let tr = (text) => text;
export function speakWith(translators) {
  ({ t, tr } = translators);
}

export class MessageLine {
  constructor() {
    this.kept = new Map();
  }

  // Says `text` for `cause`, in place of what it said before (nothing: the cause is quiet).
  set(cause, text) {
    if (!ORDER.includes(cause)) throw new Error(`unknown cause of a message: ${cause}`);
    if (text) this.kept.set(cause, String(text));
    else this.kept.delete(cause);
  }

  clear(...causes) {
    for (const cause of causes) this.kept.delete(cause);
  }

  // The scene on screen changed (an edit, a new file, undo or redo): what was said about the
  // scene before goes.
  sceneChanged() {
    this.clear(...ORDER);
  }

  get(cause) {
    return this.kept.get(cause) ?? null;
  }

  // The line: the kept messages in the order of their causes, then those of the state, each
  // distinct text once ('' when there is nothing to say).
  text(fromState = []) {
    const parts = [];
    const said = new Set();
    for (const text of [...ORDER.map((c) => this.kept.get(c)), ...fromState]) {
      const trimmed = text ? String(text).trim() : '';
      if (!trimmed || said.has(trimmed)) continue;
      said.add(trimmed);
      parts.push(trimmed);
    }
    return parts.join(' — ');
  }
}

// What the line says when a link is refused: why, and what is on screen instead.
export function refusedLink(reason, hadScene) {
  return t('message.link-refused', tr(reason), hadScene ? t('message.scene-unchanged') : t('message.default-instead'));
}

// What the line says when a link opened with parts left out (null: nothing was).
export function partsLeftOut(warnings) {
  if (!warnings || warnings.length === 0) return null;
  return t('message.parts-left-out', warnings.map(tr).join('; '));
}

// An error thrown by the lab (a string) or by the page, as one line.
export function errorText(e) {
  const text = typeof e === 'string' ? e : t('message.went-wrong', e && e.message ? e.message : e);
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
