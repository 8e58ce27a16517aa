// Lessons: a titled list of scenes, each a link and a caption (lesson-file.js reads and writes
// the file; docs/LESSONS.md describes it), stepped through with Previous and Next. A scene
// opens exactly as its link opens — a new entry of the browser's history, an undo step — and
// its caption shows in the lecture examples' caption box (examples.js). A lesson comes from a
// .json file (files.js hands it here) or from `?lesson=path` in the address; "Add this scene"
// appends the scene on screen to it (starting one), and "Save lesson" downloads it.

import { Lab } from './pkg/kernel_playground.js';
import { showCaption } from './examples.js';
import { download } from './files.js';
import { explain } from './help.js';
import { t } from './i18n.js';
import { cancelEntry } from './history.js';
import { MAX_SCENES, LessonError, lessonFileName, lessonJson, readLesson, refusedLesson } from './lesson-file.js';
import { errorText } from './messages.js';
import { $, page, showMessage } from './page.js';
import { TOO_LARGE, currentScene, newEntry, remember, startHistory, replaceScene, sceneHash, writeHash } from './scenes.js';


// The lesson open now (null: none): { title, scenes: [{ link, caption, shown }] }, where
// `shown` is the address the page wrote when the scene last opened (the link as the lab writes
// it), so Back and Forward find the scene again.
let lesson = null;
// The index of the scene of the lesson last opened (-1: none yet).
let position = -1;

// ---- the lesson bar ------------------------------------------------------------------------

function showBar() {
  $('lesson-bar').hidden = lesson === null;
  if (!lesson) return;
  const count = lesson.scenes.length;
  $('lesson-name').textContent = lesson.title;
  const scenes = count === 1 ? t('text.lesson-one-scene') : t('text.lesson-scenes', count);
  $('lesson-count').textContent = position < 0 ? ` · ${scenes}` : ` · ${position + 1} / ${count}`;
  $('lesson-prev').disabled = position <= 0;
  $('lesson-next').disabled = position >= count - 1;
}

function showSceneCaption(scene) {
  showCaption(scene.caption ? { caption: scene.caption } : null);
}

// Opens the lesson's scene `i` as its link opens: a new entry of the browser's history (Back
// returns to the scene before), an undo step, and what the link left out said on the line.
function openAt(i) {
  if (!lesson || !page.app || i < 0 || i >= lesson.scenes.length) return;
  const scene = lesson.scenes[i];
  newEntry();
  const opened = replaceScene(scene.link);
  // The entry is written (or, for the scene on screen again, not needed).
  cancelEntry();
  if (!opened) return;
  remember();
  position = i;
  scene.shown = location.hash;
  showSceneCaption(scene);
  showBar();
}

const next = () => openAt(position + 1);
const previous = () => openAt(position - 1);

// The lesson goes, and the caption with it; the scene on screen stays.
function close() {
  lesson = null;
  position = -1;
  showCaption(null);
  showBar();
}

// Back or Forward (or a followed link) to one of the lesson's scenes: the bar and the caption
// follow. Runs after the page has opened the address's scene.
function follow() {
  if (!lesson) return;
  const i = lesson.scenes.findIndex((s) => s.link === location.hash || s.shown === location.hash);
  if (i < 0) return;
  position = i;
  showSceneCaption(lesson.scenes[i]);
  showBar();
}

// ---- opening a lesson ------------------------------------------------------------------------

// The lesson in `text` (named `name` in messages), or null with one line saying why not.
function readText(text, name) {
  try {
    const opened = readLesson(text, (hash) => Lab.read_link(hash));
    showMessage(null, 'file');
    return opened;
  } catch (e) {
    const why = e instanceof LessonError ? e.message : errorText(e);
    showMessage(refusedLesson(name, why), 'file');
    return null;
  }
}

function adopt(opened) {
  lesson = opened;
  position = -1;
  $('lesson-title').value = lesson.title;
}

// A lesson file chosen or dropped on the plot: its first scene opens.
export function openLessonFile(text, name) {
  const opened = readText(text, name);
  if (!opened) return;
  adopt(opened);
  openAt(0);
  showBar();
}

// ---- a lesson named in the address: ?lesson=path (relative to the page) --------------------

const queried = new URLSearchParams(location.search).get('lesson');

// Whether the address names a lesson (the last visit's scene is then not offered).
export const lessonInAddress = () => queried !== null;

// The lesson file's text, fetched as the page loads (the lab starts meanwhile); a fetch that
// fails resolves to the reason.
const fetched = queried === null ? null : (async () => {
  let url;
  try {
    url = new URL(queried, location.href);
  } catch {
    return { why: t('message.lesson-not-address') };
  }
  if (url.origin !== location.origin) return { why: t('message.lesson-other-site') };
  try {
    const response = await fetch(url);
    if (!response.ok) return { why: t('message.server-answered', `${response.status} ${response.statusText}`.trim()) };
    return { text: await response.text() };
  } catch {
    return { why: t('message.server-unreachable') };
  }
})();

// Opens the lesson the address names, once the lab has opened its scene: the address's scene,
// if it is one of the lesson's, stays and is the lesson's current scene (a reload keeps the
// place); with no scene in the address the first scene opens in place of the default one; any
// other scene stays, and Next opens the first.
export async function openAddressLesson() {
  if (fetched === null) return;
  const answer = await fetched;
  if (answer.why) {
    showMessage(refusedLesson(queried, answer.why), 'file');
    return;
  }
  const opened = readText(answer.text, queried);
  if (!opened) return;
  adopt(opened);
  if (location.hash === '' || location.hash === '#') {
    // In place of the default scene: no history entry nor undo step leads back to it.
    if (replaceScene(lesson.scenes[0].link)) {
      startHistory();
      position = 0;
      lesson.scenes[0].shown = location.hash;
      showSceneCaption(lesson.scenes[0]);
    }
  } else {
    const current = currentScene() === TOO_LARGE ? null : `#${currentScene()}`;
    const i = lesson.scenes.findIndex((s) => s.link === location.hash || s.link === current);
    if (i >= 0) {
      position = i;
      lesson.scenes[i].shown = location.hash;
      showSceneCaption(lesson.scenes[i]);
    }
  }
  showBar();
}

// ---- making a lesson -------------------------------------------------------------------------

// Appends the scene on screen, with the caption typed beside the button (empty: the caption on
// screen, if any), to the lesson open; with none, a new lesson starts.
function addScene() {
  const scene = sceneHash();
  if (scene === null) {
    showMessage(t('message.lesson-too-large'));
    return;
  }
  if (lesson && lesson.scenes.length >= MAX_SCENES) {
    showMessage(t('message.lesson-full', MAX_SCENES));
    return;
  }
  writeHash();
  const typed = $('lesson-caption').value.replace(/\s+/g, ' ').trim();
  const caption = typed || ($('caption').hidden ? '' : $('caption-text').textContent);
  if (!lesson) adopt({ title: $('lesson-title').value.trim() || t('placeholder.lesson-title'), scenes: [] });
  lesson.scenes.push({ link: `#${scene}`, caption, shown: location.hash });
  position = lesson.scenes.length - 1;
  $('lesson-caption').value = '';
  showSceneCaption(lesson.scenes[position]);
  showBar();
  showMessage(t('message.lesson-added', position + 1, lesson.title), 'notice');
  setTimeout(() => showMessage(null, 'notice'), 2500);
}

function saveLesson() {
  if (!lesson) {
    showMessage(t('message.no-lesson'));
    return;
  }
  download(lessonFileName(lesson.title), new Blob([lessonJson(lesson)], { type: 'application/json' }));
}

// The title typed for the lesson renames the open one (an empty title is put back).
function retitle() {
  const title = $('lesson-title').value.replace(/\s+/g, ' ').trim();
  if (!lesson) return;
  if (title === '') {
    $('lesson-title').value = lesson.title;
    return;
  }
  lesson.title = title;
  showBar();
}

// ---- keys ------------------------------------------------------------------------------------

// PageDown and PageUp (what a presenter's clicker sends), or '.' and ',', step through the
// lesson; typing in a box and an open dialog keep their keys.
function onKey(ev) {
  if (!lesson || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.target.matches('input[type="text"], input[type="number"], textarea, select, [contenteditable]')) return;
  if (document.querySelector('dialog[open]')) return;
  const step = { PageDown: 1, '.': 1, '>': 1, PageUp: -1, ',': -1, '<': -1 }[ev.key];
  if (!step) return;
  ev.preventDefault();
  if (step > 0) next();
  else previous();
}

// ---- wiring --------------------------------------------------------------------------------

export function wireLessons() {
  $('lesson-prev').addEventListener('click', previous);
  $('lesson-next').addEventListener('click', next);
  $('lesson-close').addEventListener('click', close);
  $('lesson-add').addEventListener('click', addScene);
  $('lesson-save').addEventListener('click', saveLesson);
  $('lesson-title').addEventListener('change', retitle);
  $('lesson-caption').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      addScene();
    }
  });
  for (const [id, name, text] of [
    ['lesson-title', t('text.lesson'), t('explain.lesson-title')],
    ['lesson-caption', t('text.caption'), t('explain.lesson-caption')],
  ]) {
    const control = $(id);
    control.previousElementSibling.after(...explain(name, text, [control]));
  }
  document.addEventListener('keydown', onKey);
  // After the page's own listeners (main.js wires them first), which open the address's scene.
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
}
