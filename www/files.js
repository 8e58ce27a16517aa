// Files in and out: a chosen or dropped file (points or a scene), saving, and the link.

import { Lab } from './pkg/kernel_playground.js';
import { BIG_FILE_BYTES, loadBehind } from './bigfile.js';
import { chooseColumns } from './columns.js';
import { cancelEntry } from './history.js';
import { t, tr } from './i18n.js';
import { isLessonText } from './lesson-file.js';
import { openLessonFile } from './lessons.js';
import { $, guard, page, showMessage, sides } from './page.js';
import { handBack } from './remote.js';
import { newEntry, replaceScene, settle, writeHash } from './scenes.js';

// How much of a file's start tells a scene from points and fills the column dialog (cut at
// the last whole line).
const HEAD_BYTES = 262144;

// ---- files and sharing --------------------------------------------------------------------

export function download(name, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// A file chosen or dropped on the plot: a scene (.json) opens whole, as a link does, and a
// lesson (.json too) opens its first scene; points (CSV in any dialect, or LIBSVM's
// `label 1:x 2:y`; in regression `x,t` or `t 1:x`) replace the points and keep the settings.
// Points go to Rust as bytes, read as the command line reads them; a file with more than three
// columns first asks which are x, y and the label (columns.js).
export async function loadFile(file) {
  if (!page.app) return;
  // A large file goes to the worker as it is (page.standby: the worker waits while the page
  // fits a small scene itself): only its start is read here.
  const behind = Boolean(page.client || page.standby) && file.size >= BIG_FILE_BYTES;
  let bytes = behind ? null : new Uint8Array(await file.arrayBuffer());
  const whole = async () => bytes || new Uint8Array(await file.arrayBuffer());
  // The start of the file tells a scene from points and shows the column dialog its rows.
  const head = fileHead(bytes || new Uint8Array(await file.slice(0, HEAD_BYTES + 1).arrayBuffer()));
  const isScene = /\.json$/i.test(file.name) || new TextDecoder().decode(head).trimStart().startsWith('{');
  let ok;
  let warnings = [];
  if (isScene) {
    bytes = await whole();
    const text = new TextDecoder().decode(bytes);
    // A lesson (a title and a list of scenes, lessons.js) opens its first scene.
    if (isLessonText(text)) {
      openLessonFile(text, file.name);
      return;
    }
    newEntry();
    const opened = guard(() => JSON.parse(Lab.scene_hash(text)), 'file', `${file.name}: `);
    ok = opened && replaceScene(opened.hash);
    if (ok) warnings = opened.warnings;
  } else {
    const columns = await chooseColumns(Lab.file_preview, head, file.name);
    if (columns === null) return;
    newEntry();
    // A page fitting its small scene itself gives the plane back to the worker first.
    if (page.standby && behind) handBack();
    if (behind && page.client) {
      // Read behind the page, and taken a slice at a time: no long task on this thread.
      const why = await loadBehind(file.name, file, columns, {
        sides,
        show: showLoading,
        adopted: () => { for (const c of [page.client, page.clientB]) if (c) c.assumeSynced(); },
      });
      if (why !== null) guard(() => { throw why; }, 'file', `${file.name}: `);
      ok = why === null;
    } else {
      bytes = await whole();
      // A sentence when part of the file was left out (a novelty file's labels).
      ok = guard(() => { warnings = [page.lab.load_file(bytes, columns)].filter(Boolean); return true; }, 'file', `${file.name}: `);
    }
  }
  if (!ok) cancelEntry();
  if (ok) {
    settle();
    showMessage(warnings.length ? `${file.name}: ${warnings.map(tr).join('; ')}` : null, 'file');
  }
}

// The first 256 kB of a file, cut after its last whole line (a UTF-16 line's second byte too).
function fileHead(bytes) {
  if (bytes.byteLength <= HEAD_BYTES) return bytes;
  let end = bytes.lastIndexOf(10, HEAD_BYTES - 1) + 1;
  if (end > 0 && bytes[end] === 0) end += 1;
  return bytes.subarray(0, end || HEAD_BYTES);
}

// The note on the plot while a large file is read (null: none), with a Cancel button.
function showLoading(text) {
  const note = $('loading-file');
  note.hidden = text === null;
  if (text !== null) $('loading-file-text').textContent = text;
}

export async function copyLink() {
  writeHash();
  if (page.linkTooLong) return;
  try {
    await navigator.clipboard.writeText(location.href);
    showMessage(t('message.link-copied'), 'notice');
    setTimeout(() => showMessage(null, 'notice'), 2500);
  } catch {
    window.prompt(t('message.copy-link'), location.href);
  }
}
