// The worker behind the page, watched. A worker can stop without a word: closed, killed, its
// copy of the wasm failed to load, or a throw inside it. Any of these is noticed here, the
// worker is started afresh after a pause that grows with each failure, and every side sends
// its whole scene again (`onRestart`); the page shows one line saying so until the new worker
// is well. When it fails too often, no worker can run: `onFailure` hands the work to the page.
//
// Each worker is handed the page's compiled module (`shareModule`) rather than fetching and
// compiling its own copy; where it cannot be handed (none compiled, or a browser that cannot
// post one), the worker fetches the wasm itself. Where the page's own module failed, the page
// runs nothing and says why: the worker is stopped for good, without a word of its own.
//
// How a stop is noticed:
// - start: the worker says 'ready' once its wasm runs (or 'error' if it could not load it)
//   within START_MS;
// - death: the worker holds a Web Lock named after it for its whole life (it says so in its
//   'ready'); the page asks for the same lock and is granted it the moment the worker is gone
//   (closed or killed), with no event needed;
// - silence: every PING_MS the page pings a worker that is not busy; one that stays silent for
//   SILENT_MS has stopped. A worker announces each piece of work ('busy' … 'free'): a large fit
//   may legitimately take a minute, during which it cannot answer (its lock says it lives, and
//   an edit cancels the work: behind.js). Where Web Locks are missing, a worker busy for over
//   BUSY_MS counts as stopped;
// - errors: `onerror`, `onmessageerror`, and a 'fault' message (a throw while working).

import { t } from './i18n.js';

const START_MS = 10_000;
// For the benchmarks: `?worker-slowdown=4` makes the worker as slow as a device four times
// slower than this one (worker.js), as Chromium's CPU throttling does to the page's thread
// (at most 20 times).
const SLOWDOWN = Math.min(20, Number(new URLSearchParams(location.search).get('worker-slowdown')) || 1);
const PING_MS = 1000;
const SILENT_MS = 3000;
const BUSY_MS = 120_000;
// Pauses before the first, second and third restart within WINDOW_MS; a fourth failure in that
// window gives up.
const BACKOFF_MS = [200, 1000, 3000];
const WINDOW_MS = 60_000;
// How long the line about a restart stays once the new worker is ready.
const NOTE_MS = 4000;

let worker = null;
// 'none' (not started), 'starting', 'ready', 'waiting' (to restart), 'failed' (none can run),
// 'off' (the page's own module failed: none is wanted)
let status = 'none';
let generation = 0;
const token = Math.random().toString(36).slice(2);
let failures = [];
let restarts = 0;
let note = null;
let busySince = null;
let pingSent = null;
let lockAbort = null;
let startTimer = null;
let retryTimer = null;
let noteTimer = null;
let ticker = null;

// The page's compiled wasm (a promise of a `WebAssembly.Module`), or null.
let shared = null;

const handlers = {};
const restarted = [];
const failed = [];
const noted = [];

export function on(kind, handler) {
  handlers[kind] = handler;
}

// The page's compiled module (a promise), handed to every worker started from now on.
export function shareModule(module) {
  shared = module;
}

// `fn` runs after the worker was started afresh (everything it had is lost: send it again).
export function onRestart(fn) {
  restarted.push(fn);
}

// `fn` runs once no worker can run: the page then does the work itself.
export function onFailure(fn) {
  failed.push(fn);
}

// `fn` runs when the line about the worker changes.
export function onNote(fn) {
  noted.push(fn);
}

// The line the page shows about the worker (what happened to it), or null.
export const workerNote = () => note;

// For the tests: the worker's state, how many times it was restarted after a failure.
export const workerState = () => ({ status, restarts, busy: busySince !== null });

// How long the worker has been on its current piece of work (ms), or 0.
export const busyMs = () => (busySince === null ? 0 : performance.now() - busySince);

// Whether there is (or will be again in a moment) a worker; started on first use.
export function hasWorker() {
  if (status === 'none') {
    if (typeof Worker === 'undefined') giveUp(t('worker.missing'));
    else spawn();
  }
  return status === 'starting' || status === 'ready' || status === 'waiting';
}

export function post(message, transfer = []) {
  if (hasWorker() && worker) worker.postMessage(message, transfer);
}

function setNote(text) {
  clearTimeout(noteTimer);
  note = text;
  for (const fn of noted) fn();
}

function spawn() {
  generation += 1;
  const gen = generation;
  const name = `kernel-playground-${token}-${gen}`;
  try {
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name });
  } catch (e) {
    worker = null;
    giveUp(t('worker.not-created', e && e.message ? e.message : e));
    return;
  }
  status = 'starting';
  const mine = (fn) => (ev) => { if (gen === generation) fn(ev); };
  worker.onmessage = mine((ev) => heard(ev.data, name));
  worker.onerror = mine((ev) => {
    ev.preventDefault();
    fail(t('worker.error', ev.message || '–'));
  });
  worker.onmessageerror = mine(() => fail(t('worker.unreadable')));
  if (!ticker) ticker = setInterval(tick, PING_MS);
  handOver(gen);
}

// The worker's first message: the page's compiled module, or null (it fetches its own). What
// the page posts before it arrives waits in the worker until its wasm runs. A worker started
// while the page's module still downloads waits for it; its START_MS run from the hand-over.
// A page whose module failed stops it.
function handOver(gen) {
  Promise.resolve(shared).then((module) => {
    if (gen !== generation || !worker) return;
    try {
      worker.postMessage({ kind: 'wasm', module: module || null, slowdown: SLOWDOWN });
    } catch {
      worker.postMessage({ kind: 'wasm', module: null, slowdown: SLOWDOWN });
    }
    startTimer = setTimeout(() => fail(t('worker.not-started')), START_MS);
  }, () => {
    stop();
    status = 'off';
    clearInterval(ticker);
    ticker = null;
  });
}

function heard(m, name) {
  pingSent = null;
  if (m.kind === 'ready') {
    clearTimeout(startTimer);
    status = 'ready';
    if (m.locked) watchLock(name);
    // The line about a restart goes once the new worker has been well for a moment.
    if (note) noteTimer = setTimeout(() => setNote(null), NOTE_MS);
  } else if (m.kind === 'error') {
    fail(t('worker.no-wasm', m.message));
  } else if (m.kind === 'fault') {
    fail(t('worker.failed', m.message));
  } else if (m.kind === 'busy') {
    busySince = performance.now();
  } else if (m.kind === 'free') {
    busySince = null;
  } else if (m.kind !== 'pong') {
    const key = m.side ? `${m.kind}/${m.side}` : m.kind;
    if (handlers[key]) handlers[key](m);
  }
}

// Asks for the lock the worker holds while it lives: granted when it is gone.
function watchLock(name) {
  if (!navigator.locks) return;
  const gen = generation;
  lockAbort = new AbortController();
  navigator.locks.request(name, { signal: lockAbort.signal }, () => {
    if (gen === generation && status === 'ready') fail(t('worker.stopped'));
  }).catch(() => {});
}

function tick() {
  if (status !== 'ready') return;
  // A hidden page's timers are slowed down: its silences mean nothing.
  if (document.visibilityState === 'hidden') {
    pingSent = null;
    return;
  }
  const now = performance.now();
  if (busySince !== null) {
    if (!navigator.locks && now - busySince > BUSY_MS) fail(t('worker.not-answering'));
    return;
  }
  if (pingSent === null) {
    pingSent = now;
    worker.postMessage({ kind: 'ping' });
  } else if (now - pingSent > SILENT_MS) {
    fail(t('worker.not-answering'));
  }
}

// Ends the worker there is (its messages and its lock no longer count).
function stop() {
  generation += 1;
  clearTimeout(startTimer);
  clearTimeout(retryTimer);
  if (lockAbort) lockAbort.abort();
  lockAbort = null;
  if (worker) worker.terminate();
  worker = null;
  busySince = null;
  pingSent = null;
}

// Starts a worker afresh; every side sends its scene again (`first`, one of the `onRestart`
// functions, before the others).
function respawn(first = null) {
  spawn();
  if (status === 'failed') return;
  if (first) first();
  for (const fn of restarted) if (fn !== first) fn();
}

// Stops the worker on purpose (an edit cancels a long request) and starts another at once;
// `first` resends before the others. Whether it did (not while a failed worker waits).
export function restart(first = null) {
  if (status !== 'ready' && status !== 'starting') return false;
  stop();
  respawn(first);
  return true;
}

function fail(reason) {
  if (status === 'failed' || status === 'waiting' || status === 'off') return;
  console.warn(`The worker behind the page ${reason}.`);
  stop();
  const now = performance.now();
  failures = failures.filter((t) => now - t < WINDOW_MS);
  failures.push(now);
  if (failures.length > BACKOFF_MS.length) {
    giveUp(reason);
    return;
  }
  status = 'waiting';
  setNote(t('worker.restarting', reason));
  retryTimer = setTimeout(() => {
    restarts += 1;
    respawn();
    if (status !== 'failed') setNote(t('worker.restarted', reason));
  }, BACKOFF_MS[failures.length - 1]);
}

function giveUp(reason) {
  stop();
  status = 'failed';
  clearInterval(ticker);
  ticker = null;
  setNote(t('worker.gave-up', reason));
  for (const fn of failed) fn();
}
