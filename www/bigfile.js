// Large files without long tasks on the page's thread. A file of BIG_FILE_BYTES or more is
// handed to the worker behind the page as it was chosen (a `File`: the page never reads more
// than its start) and read there (the same reader as the page's and the command line's),
// which keeps the points in its copies of the lab and sends them back packed; the page then
// reads them a piece of about SLICE_MS at a time between frames, takes them whole at the end
// and computes what its frames keep of them a walk at a time. Meanwhile the scene on screen
// stays as it was, a note on the plot says how far the reading is, and its Cancel button, or
// any edit of the scene, abandons it.

import { PackedPoints } from './pkg/kernel_playground.js';
import { on, onRestart, post } from './behind.js';
import { t } from './i18n.js';

export const BIG_FILE_BYTES = 4_000_000;
const SLICE_MS = 25;

let lastId = 0;
// The worker's reading under way: { id, resolve, reject }.
let reading = null;
// The load under way, if any: { cancelled, why }.
let current = null;

on('read', (m) => {
  if (!reading || m.id !== reading.id) return;
  const { resolve, reject } = reading;
  reading = null;
  if (m.error) reject(new Error(m.error));
  else resolve(new Uint8Array(m.packed));
});

// A restarted worker has lost the file it was reading.
onRestart(() => {
  if (!reading) return;
  const { reject } = reading;
  reading = null;
  reject(new Error(t('bigfile.worker-restarted')));
});

function readBehind(file, columns, sides) {
  return new Promise((resolve, reject) => {
    reading = { id: ++lastId, resolve, reject };
    post({ kind: 'read', id: reading.id, file, columns, sides });
  });
}

// 1300000 as "1,300,000" (not by Intl: its first use loads locale data, a long task of its own
// on a slow machine).
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Whether a load is under way.
export const loading = () => current !== null;

// Abandons the load under way (the scene on screen stays).
export function cancelLoad(why) {
  if (current) {
    current.cancelled = true;
    current.why = why;
  }
  // The worker's answer, when it comes, is not waited for.
  if (reading) {
    const { reject } = reading;
    reading = null;
    reject(new Error(why));
  }
}

// Reads `file` (a `File` or `Blob` named `name`; `columns` as --columns takes them) into every side of the
// page: `hooks.sides()` gives the sides (page.js's `sideOf`), `hooks.show(text)` the note on the plot (null:
// none), `hooks.adopted()` runs once the points are on every side (the worker's copies have
// them already). Resolves to null when done, else to why not (the file's error, or a cancel).
export async function loadBehind(name, file, columns, hooks) {
  cancelLoad(t('bigfile.other-file'));
  const load = { cancelled: false, why: '' };
  current = load;
  const sides = hooks.sides();
  const before = sides.map((s) => s.fingerprint());
  // An edit of any side, or compare turned on or off, abandons the load.
  const edited = () => {
    const now = hooks.sides();
    return now.length !== sides.length || now.some((s, i) => s !== sides[i] || s.fingerprint() !== before[i]);
  };
  const megabytes = (file.size / 1e6).toFixed(1);
  const started = performance.now();
  const reading = () => t('bigfile.reading', name, megabytes, ((performance.now() - started) / 1000).toFixed(1));
  hooks.show(reading());
  const ticker = setInterval(() => hooks.show(reading()), 250);
  const stop = (why) => {
    clearInterval(ticker);
    if (current === load) current = null;
    hooks.show(null);
    return why;
  };
  let packed;
  try {
    packed = await readBehind(file, columns, sides.map((_, i) => i));
  } catch (e) {
    return stop(e.message);
  }
  clearInterval(ticker);
  const readers = [];
  let taken = 0;
  try {
    for (let i = 0; i < sides.length; i += 1) readers.push(new PackedPoints());
    // Pieces sized to take about SLICE_MS each, from how long the last one took.
    let piece = 1 << 20;
    for (const [i, reader] of readers.entries()) {
      for (let at = 0; at < packed.byteLength;) {
        if (load.cancelled || edited()) return stop(load.why || t('bigfile.edited'));
        const began = performance.now();
        reader.feed(packed.subarray(at, at + piece));
        at += piece;
        const ms = performance.now() - began;
        // At most twice the last piece, and 4 MB: a slow moment must not make one long task.
        piece = Math.max(1 << 16, Math.min(2 * piece, 1 << 22, Math.round(piece * SLICE_MS / Math.max(ms, 1))));
        const share = (i + reader.fraction()) / readers.length;
        hooks.show(t('bigfile.preparing', name, Math.round(100 * share), grouped(reader.count())));
        await nextTask();
      }
    }
    // (An edit, undo or compare switched in the last moment: the scene is another one.)
    if (load.cancelled || edited()) return stop(load.why || t('bigfile.edited'));
    for (const [i, side] of sides.entries()) {
      side.take_points(readers[i]);
      taken = i + 1;
    }
  } catch (e) {
    return stop(e.message || String(e));
  } finally {
    // The packed points not handed to a side (a cancel, an error) are freed.
    for (const r of readers.slice(taken)) r.free();
  }
  stop(null);
  hooks.adopted();
  // What the frames keep of the points (their fingerprint, window, classes, colours), a walk
  // of them per task: left to the first frame, they would hold it for all of them. (An edit
  // meanwhile changes the points again: the frames then compute them for it.)
  // (A side closed meanwhile, compare turned off, has nothing more to prepare.)
  const prepare = (side, step) => { try { return side.prepare_points(step); } catch { return false; } };
  for (const side of sides) {
    for (let step = 0; prepare(side, step); step += 1) await nextTask();
    await nextTask();
  }
  return null;
}
