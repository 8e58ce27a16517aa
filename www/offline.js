// The lab without a network: registers the service worker (sw.js at the site's root, built by
// scripts/service-worker.mjs), which keeps every file of the site after a first visit. It is
// registered once the first plot is drawn and the page has been quiet for QUIET_MS since (no
// large file loading behind it), then at an idle moment: its downloads never delay the first
// picture, and its install, which unpacks the module, never shares the device's cores with a
// file being read and drawn.
//
// A new deploy's service worker installs beside the running one and waits. A page nobody has
// touched yet lets it take over and reloads at once (the scene is in the address, so it comes
// back as it was); a page in use says a new version is ready, and the next load takes it.
// Opened from a file (the one-file download) there is no service worker and this does nothing.

import { loading } from './bigfile.js';
import { showMessage } from './page.js';

const QUIET_MS = 3000;

const supported = 'serviceWorker' in navigator && /^https?:$/.test(location.protocol);
const READY = 'A new version of the lab is ready: reload the page to use it.';

// Whether the visitor has done anything on the page yet.
let touched = false;
for (const type of ['pointerdown', 'keydown', 'input']) {
  addEventListener(type, () => { touched = true; }, { capture: true, once: true });
}

// Lets the waiting service worker take over, then loads the page again from its files.
let takingOver = false;
function takeOver(waiting) {
  if (takingOver) return;
  takingOver = true;
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage('take-over');
}

function newVersion(waiting) {
  if (touched) showMessage(READY, 'notice');
  else takeOver(waiting);
}

// Calls `then` with `worker` once it has installed: now, or when it does. A new deploy's worker
// may already be installing when the page asks (the browser looks for one on every load), and
// its 'updatefound' has then been and gone.
function whenInstalled(worker, then) {
  if (worker.state === 'installed') {
    then(worker);
    return;
  }
  worker.addEventListener('statechange', () => {
    if (worker.state === 'installed') then(worker);
  });
}

async function register() {
  const hadController = Boolean(navigator.serviceWorker.controller);
  let registration;
  try {
    // Relative to the page (index.html, at the site's root), whose folder is then its scope.
    registration = await navigator.serviceWorker.register('sw.js');
  } catch {
    return; // no service worker (a site built without one, storage refused): the lab still runs
  }
  // Only a page that a service worker served already can be behind a new one.
  if (!hadController) return;
  // Another tab's load let a new deploy take over: this page's files now come from it.
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!takingOver) showMessage(READY, 'notice');
  });
  if (registration.waiting) newVersion(registration.waiting);
  else if (registration.installing) whenInstalled(registration.installing, newVersion);
  registration.addEventListener('updatefound', () => {
    if (registration.installing) whenInstalled(registration.installing, newVersion);
  });
}

if (supported) {
  // (A new version that finished installing during an earlier visit takes over before this page
  // loads: sw.js answers the load with a page that hands over, then loads this one again.)
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 500));
  // Looked at every second from the first frame on: registers once no large file has been
  // loading for QUIET_MS.
  let quietSince = null;
  const whenQuiet = () => {
    const now = performance.now();
    if (loading()) quietSince = null;
    else if (quietSince === null) quietSince = now;
    if (quietSince !== null && now - quietSince >= QUIET_MS) idle(register, { timeout: 3000 });
    else setTimeout(whenQuiet, 1000);
  };
  window.addEventListener('kernel-playground-frame', () => {
    quietSince = performance.now();
    setTimeout(whenQuiet, QUIET_MS);
  }, { once: true });
}
