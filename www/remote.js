// The worker behind the page, from the page's side: edits sent on to its copies of the lab, the
// note on the plot while a request runs long, and the page fitting by itself when no worker can
// run.

import { FrameClient, LONG_MS, hasWorker, onFailure, onNote } from './behind.js';
import { requestRender } from './frame.js';
import { t } from './i18n.js';
import { $, guard, page, renderMessage, sides } from './page.js';
import { workerPainted } from './pointer.js';
import { background, openView, renderView } from './views.js';

const canvas = $('plot');

// ---- the worker behind the page -------------------------------------------------------------

// Each side's lab records its own edits; its client takes them with its next request
// (FrameClient.pull), so the page writes none here.

// A new right-hand scene: behind the page, its copy in the worker starts from the whole scene.
export function setTwin(next) {
  page.twin = next || null;
  if (!page.clientB) return;
  // Whatever the worker was doing for the side before is dropped.
  page.clientB.detach();
  if (page.twin) {
    page.twin.set_remote(true);
    page.clientB.resync();
  }
}

let progressTimer = null;

// While a request runs long (a large fit, on either side when comparing: the worker answers
// them in turn), the plot says so; it stays live meanwhile, and an edit then cancels it.
function showProgress() {
  const running = [page.client, page.clientB].map((c) => c && c.running).filter(Boolean)
    .sort((a, b) => b.ms - a.ms)[0] || null;
  const long = Boolean(running && running.ms > LONG_MS);
  const badge = $('working');
  if (badge.hidden === long) badge.hidden = !long;
  if (long) {
    const seconds = (running.ms / 1000).toFixed(1);
    badge.textContent = running.phase === 'picture' ? t('badge.drawing', seconds) : t('badge.fitting', seconds);
  }
  // One look when the request could first be long, then one every 250 ms while it is. A
  // timer left when the answer came only finds nothing running: a slider's every step
  // started and stopped one before, which a slow phone's step felt.
  if (running && !progressTimer) {
    progressTimer = setTimeout(() => {
      progressTimer = null;
      showProgress();
    }, long ? 250 : LONG_MS + 1 - running.ms);
  }
}

// The open view, if the worker computes its figure: its id and the view canvas's size.
function figureWanted() {
  const id = page.app && openView(page.app);
  if (!id || $('view-wrap').hidden || !page.app.view_computed_behind(id)) return null;
  const view = $('view');
  return { view: id, width: view.width, height: view.height };
}

// Without a worker (none could run), the page fits scenes of up to PAGE_POINTS points itself;
// a larger one shows its points only, so that no edit waits seconds for a fit it cannot cancel.
export const PAGE_POINTS = 2000;
const unfitted = new WeakSet();

export function boundPageFits() {
  if (!page.pageFits) return;
  for (const lab of sides()) {
    const large = lab.point_count() > PAGE_POINTS;
    if (large === unfitted.has(lab)) continue;
    lab.set_remote(large);
    if (large) unfitted.add(lab);
    else unfitted.delete(lab);
  }
}

export function startClient() {
  onNote(() => renderMessage(page.lastFrame));
  if (new URLSearchParams(location.search).has('sync')) return;
  if (!hasWorker()) {
    page.pageFits = true;
    return;
  }
  page.client = new FrameClient(0, () => page.app, canvas, workerPainted, showProgress, figureWanted, () => page.app && guard(() => renderView(page.app)));
  page.clientB = new FrameClient(1, () => page.twin, $('plot-b'), workerPainted, showProgress);
  // When no worker can run, the page fits (scenes up to PAGE_POINTS points) itself.
  onFailure(() => {
    page.client = null;
    page.clientB = null;
    page.pageFits = true;
    if (page.app) page.app.set_remote(false);
    if (page.twin) page.twin.set_remote(false);
    showProgress();
    requestRender();
  });
}
