// Lesson files (docs/LESSONS.md): a title and an ordered list of scenes, each a link and a
// one-line caption. Reading one checks it whole, or refuses it with one line naming the first
// thing wrong; writing one gives the same format back. Pure (no DOM, no wasm): the lab's own
// reading of a link is passed in, so node's test runner checks this module alone.

import { t, tr } from './messages.js';

export const LESSON_FORMAT = 'kernel-playground lesson';
export const LESSON_VERSION = 1;
// More scenes than a lecture could step through is a damaged file, not a lesson.
export const MAX_SCENES = 500;
const MAX_TITLE = 200;
const MAX_CAPTION = 500;

// An error whose message is one line a person reads: what is wrong with the lesson.
export class LessonError extends Error {}

const refuse = (why) => { throw new LessonError(why); };

// A value quoted in a message: short, and on one line.
function quoted(value) {
  const text = String(value).replace(/[\r\n\u2028\u2029]+/g, ' ');
  return `'${text.length > 60 ? `${text.slice(0, 57)}…` : text}'`;
}

// Whether a .json file is a lesson rather than a scene file: its format says so, or it holds a
// list of scenes. Text that is not JSON is a lesson when it reads like one (it names a list of
// scenes and is not a scene file), so its error names the line.
export function isLessonText(text) {
  let value;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return /"kernel-playground lesson"|"scenes"\s*:/.test(text) && !/"kernel-playground scene"/.test(text);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return value.format === LESSON_FORMAT || (value.format === undefined && 'scenes' in value);
}

// Where JSON.parse stopped, as "line L, column C: why".
function syntaxError(text, error) {
  const message = String(error.message);
  const at = /at position (\d+)/.exec(message);
  const position = at ? Number(at[1]) : text.length;
  const before = text.slice(0, position).split('\n');
  const why = message.replace(/\s*in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
  return `it is not JSON: line ${before.length}, column ${before[before.length - 1].length + 1}: ${why}`;
}

// A scene's link as the address writes it: '#' and the scene. A whole copied address is read
// from its '#'.
export function linkHash(link) {
  const at = link.indexOf('#');
  return at >= 0 ? link.slice(at) : `#${link}`;
}

// One line of text, or a refusal naming `what`.
function oneLine(value, what, limit, mayBeEmpty) {
  if (value === undefined) refuse(`it has no ${what}`);
  if (typeof value !== 'string') refuse(`its ${what} is not text`);
  if (/[\r\n\u2028\u2029]/.test(value)) refuse(`its ${what} is not one line`);
  if (!mayBeEmpty && value.trim() === '') refuse(`its ${what} is empty`);
  if (value.length > limit) refuse(`its ${what} is longer than ${limit} characters`);
  return value.trim();
}

// Reads a lesson file: { title, scenes: [{ link, caption }] }, each link a hash ('#…') the lab
// reads (`readLink` throws for one it refuses). Throws a LessonError naming what is wrong.
export function readLesson(text, readLink) {
  let value;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    refuse(syntaxError(text.replace(/^\uFEFF/, ''), e));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    refuse('it is not a lesson (a JSON object with a title and a list of scenes)');
  }
  if (value.format !== undefined && value.format !== LESSON_FORMAT) {
    refuse(`its format ${quoted(value.format)} is not '${LESSON_FORMAT}'`);
  }
  if (value.version !== undefined) {
    if (!Number.isInteger(value.version) || value.version < 1) refuse(`its version ${quoted(JSON.stringify(value.version))} is not a whole number from 1`);
    if (value.version > LESSON_VERSION) {
      refuse(`it is from a newer version of the lab (lesson version ${value.version}; this lab reads version ${LESSON_VERSION})`);
    }
  }
  const title = oneLine(value.title, 'title', MAX_TITLE, false);
  if (value.scenes === undefined) refuse('it has no list of scenes');
  if (!Array.isArray(value.scenes)) refuse('its scenes are not a list');
  if (value.scenes.length === 0) refuse('its list of scenes is empty');
  if (value.scenes.length > MAX_SCENES) refuse(`it has ${value.scenes.length} scenes (at most ${MAX_SCENES})`);
  const scenes = value.scenes.map((scene, i) => {
    const name = `scene ${i + 1}`;
    if (scene === null || typeof scene !== 'object' || Array.isArray(scene)) {
      refuse(`${name} is not an object with a link and a caption`);
    }
    let link;
    let caption;
    try {
      link = oneLine(scene.link, 'link', Infinity, false);
      caption = oneLine(scene.caption, 'caption', MAX_CAPTION, true);
    } catch (e) {
      refuse(`${name}: ${e.message}`);
    }
    const hash = linkHash(link);
    if (hash.length <= 1) refuse(`${name}: its link is empty`);
    try {
      readLink(hash);
    } catch (e) {
      refuse(`${name}: its link is refused: ${typeof e === 'string' ? e : e && e.message}`);
    }
    return { link: hash, caption };
  });
  return { title, scenes };
}

// The lesson as its file: pretty JSON, format and version first.
export function lessonJson(lesson) {
  const file = {
    format: LESSON_FORMAT,
    version: LESSON_VERSION,
    title: lesson.title,
    scenes: lesson.scenes.map(({ link, caption }) => ({ link, caption })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

// A file name for the lesson: its title in lower-case words joined by '-'.
export function lessonFileName(title) {
  const words = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `${words.slice(0, 60).replace(/-+$/, '') || 'lesson'}.json`;
}

// What the line says when a lesson cannot be opened.
export function refusedLesson(name, why) {
  return t('message.lesson-refused', name, tr(why));
}
