// The lab's one worker behind the page: a module worker on the same wasm that does the work
// the page's thread must not wait for. It serves these requests:
// - 'frame': the plane's model. The page sends its edits since the last request with its
//   scene's fingerprint; this copy of the lab applies them, fits, and sends back the picture
//   of the model (JSON, as UTF-8 bytes) and the regions (an RGBA image), both transferred. When the fingerprints
//   differ it asks for the whole scene instead. 'inspect' answers the tooltip's question.
//   Each carries its side of the page (0, or 1 for the right-hand scene when comparing).
// - 'figure': the open view's figure (bytes, see `Figure::to_bytes`), for the views that are
//   drawn from the model rather than from a background job.
// - 'job': a view's background job (the cross-validation grid, the validation curve, the
//   regularisation path) for the scene a URL hash describes, worked in slices of about 20 ms
//   with what it has posted after each, so frame requests are answered in between. A newer
//   job replaces the one under way: only the latest counts.
//
// The page watches it (watch.js), and first hands it the page's compiled module ('wasm'), with
// how many times slower than this machine it is to work (`slowdown`, below). It
// says 'ready' once its wasm runs ('error' if that failed), holds a Web Lock named after it while
// it lives, answers 'ping' when free, and brackets each piece of work with 'busy' and 'free' (a
// throw while working is a 'fault': the page restarts it).
import init, { FrameWorker, GridWorker } from './pkg/kernel_playground.js';

const text = (e) => String(e && e.message ? e.message : e);
// The lock is held until the worker is gone; the page is granted it then. Whether it is held
// (false where locks are missing or refused, as in a worker started from a data: URL: the
// one-file lab's, scripts/single-file.mjs).
const alive = self.name && navigator.locks
  ? new Promise((held) => {
    navigator.locks.request(self.name, () => { held(true); return new Promise(() => {}); }).catch(() => held(false));
  })
  : Promise.resolve(false);
// The page hands over the module it compiled (the first message, 'wasm'); without one (null)
// this worker fetches and compiles its own copy.
let handed;
const given = new Promise((resolve) => { handed = resolve; });

// For the benchmarks (the page's `?worker-slowdown=4`): a worker as slow as a device that many
// times slower than this one. Chromium's CPU throttling slows a page's thread but not its
// workers, so a benchmark of a slow phone would otherwise time the page's share slowed and the
// model's work at full speed. While a piece of work runs, the clock the lab reads runs
// `slowdown` times as fast (the timings it reports, which choose the drafts, are the slow
// device's), and each message it posts waits until the slow device would have posted it: its
// work so far, times `slowdown`. The work itself is the same.
let slowdown = 1;
const realNow = performance.now.bind(performance);
const realPost = self.postMessage.bind(self);
let working = null; // { started, waited }: the piece of work under way, and how long it waited

function slowed() {
  if (slowdown <= 1) return;
  performance.now = () => (working ? working.started + slowdown * (realNow() - working.started - working.waited) : realNow());
  self.postMessage = (...args) => {
    if (working) catchUp();
    realPost(...args);
  };
}

// Waits until as much time has passed since the work began as the slow device's work so far.
function catchUp() {
  const due = performance.now();
  let now = realNow();
  const from = now;
  while (now < due) now = realNow();
  working.waited += now - from;
}

const ready = Promise.all([given.then((module) => init(module ? { module_or_path: module } : undefined)), alive]);
ready.then(([, locked]) => postMessage({ kind: 'ready', locked }), (e) => postMessage({ kind: 'error', message: text(e) }));
addEventListener('unhandledrejection', (ev) => postMessage({ kind: 'fault', message: text(ev.reason) }));
addEventListener('messageerror', () => postMessage({ kind: 'fault', message: 'a message from the page could not be read' }));

// A copy of the lab for each side of the page (the right one when comparing).
const labs = [null, null];
let job = null;

onmessage = async (ev) => {
  if (ev.data && ev.data.kind === 'wasm') {
    slowdown = Math.max(1, Number(ev.data.slowdown) || 1);
    slowed();
    handed(ev.data.module);
    return;
  }
  try {
    await ready;
  } catch {
    return;
  }
  const message = ev.data;
  if (message.kind === 'ping') postMessage({ kind: 'pong' });
  else if (message.kind === 'frame') busy(() => frame(message));
  else if (message.kind === 'inspect') busy(() => inspect(message));
  else if (message.kind === 'figure') busy(() => figure(message));
  else if (message.kind === 'drop') busy(() => drop(message));
  else if (message.kind === 'read') readFile(message);
  else busy(() => startJob(message));
};

// A piece of work the worker cannot answer pings during.
function busy(work) {
  postMessage({ kind: 'busy' });
  if (slowdown > 1) working = { started: realNow(), waited: 0 };
  try {
    work();
  } catch (e) {
    postMessage({ kind: 'fault', message: text(e) });
    return;
  } finally {
    if (working) catchUp();
    working = null;
  }
  postMessage({ kind: 'free' });
}

function frame({ side = 0, id, edits, fingerprint, width, height, draft }) {
  if (!labs[side]) labs[side] = new FrameWorker('');
  const lab = labs[side];
  if (!lab.apply(edits, fingerprint)) {
    postMessage({ kind: 'frame', side, id, resync: true });
    return;
  }
  postMessage({ kind: 'frame', side, id, phase: 'fit' });
  const fitMs = lab.fit();
  postMessage({ kind: 'frame', side, id, phase: 'picture', fitMs });
  // The frame's JSON as UTF-8 bytes, moved to the page with the regions image (not copied).
  const json = lab.frame(width, height, fitMs, Number(draft) || 0);
  const regions = lab.take_regions();
  postMessage({ kind: 'frame', side, id, json: json.buffer, regions: regions.buffer }, [json.buffer, regions.buffer]);
}

function inspect({ side = 0, id, x, y, radius }) {
  if (!labs[side]) return;
  postMessage({ kind: 'inspect', side, id, json: labs[side].inspect(x, y, radius) });
}

// The open view's figure from this copy of the lab (which has the page's latest edits: the
// page asks only once the plane has caught up).
function figure({ side = 0, id, view, width, height }) {
  const bytes = labs[side] ? labs[side].figure(view, width, height) : new Uint8Array(0);
  postMessage({ kind: 'figure', side, id, bytes: bytes.buffer }, [bytes.buffer]);
}

// A side of the page is gone: its copy of the lab goes too.
function drop({ side = 0 }) {
  if (labs[side]) labs[side].free();
  labs[side] = null;
}

// A large file the page was given, read here whole (the page's thread never holds it), then
// parsed into every side's copy of the lab.
async function readFile(message) {
  let bytes;
  try {
    bytes = await message.file.arrayBuffer();
  } catch (e) {
    postMessage({ kind: 'read', id: message.id, error: text(e) });
    return;
  }
  busy(() => read({ ...message, bytes }));
}

// The file's bytes: the first side's copy reads them, the others take its points, and the
// page gets them packed (it reads them a slice at a time).
function read({ id, bytes, columns, sides }) {
  try {
    for (const side of sides) if (!labs[side]) labs[side] = new FrameWorker('');
    const packed = labs[sides[0]].read_file(new Uint8Array(bytes), columns);
    for (const side of sides.slice(1)) labs[side].take_packed(packed);
    postMessage({ kind: 'read', id, packed: packed.buffer }, [packed.buffer]);
  } catch (e) {
    postMessage({ kind: 'read', id, error: String(e && e.message ? e.message : e) });
  }
}

function startJob({ id, hash, view, tuned }) {
  if (job) job.work.free();
  try {
    job = { id, work: new GridWorker(hash, view, tuned) };
  } catch (e) {
    job = null;
    postMessage({ kind: 'job', id, error: String(e) });
    return;
  }
  run(job);
}

function run(task) {
  if (job !== task) return;
  const more = task.work.work(20);
  postMessage({ kind: 'job', id: task.id, state: task.work.state() });
  if (more) setTimeout(() => busy(() => run(task)), 0);
}
