// Shared by the browser tests and the browser benchmark: serve site/ on a free loopback port
// and start Debian's Chromium headless through playwright-core.
import { chromium } from 'playwright-core';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// The built site (KP_SITE names another build, to compare two in the benchmarks).
export const siteDir = path.resolve(process.env.KP_SITE || path.join(here, '../../site'));

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];

export async function start() {
  const server = await serve(siteDir, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
  const base = `http://127.0.0.1:${server.address().port}/`;
  return {
    base,
    browser,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

// A server in front of the site at `base` (a test's own loopback port): `answer(req, res)`
// answers what it chooses (returning true), and everything else is passed on from the site,
// with `headers` besides its type (e.g. GitHub Pages' `Cache-Control`).
// Its `url` is the front's address; `stop()` closes it and every connection it holds.
export async function frontServer(base, answer, headers = {}) {
  const front = http.createServer((req, res) => (async () => {
    if (await answer(req, res)) return;
    const passed = await fetch(new URL(req.url, base));
    res.writeHead(passed.status, { ...headers, 'Content-Type': passed.headers.get('Content-Type') || 'application/octet-stream' });
    res.end(Buffer.from(await passed.arrayBuffer()));
  })().catch(() => res.destroy()));
  await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${front.address().port}/`,
    async stop() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    },
  };
}

// A page that records every console error and page error. Its folds ("more model settings"…)
// are opened, as a returning visitor who opened them finds them (the page remembers), so every
// control can be clicked; `folded` keeps the first visit's panel.
export async function openPage(browser, url, { width = 1400, height = 1000, folded = false } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  await page.goto(url);
  await waitForFrame(page);
  if (!folded) await unfold(page);
  return { page, errors };
}

// Opens every fold of the panel and waits until the page has remembered those it opened for
// its next loads (a fold is stored from its 'toggle' event, which comes a task later).
// (A fold the page opened by itself for a link's setting is open already and not stored.)
export async function unfold(page) {
  const opened = await page.evaluate(() => {
    const closed = [...document.querySelectorAll('details.more')].filter((fold) => !fold.open);
    for (const fold of closed) fold.open = true;
    return closed.map((fold) => fold.id);
  });
  await foldsStored(page, opened);
}

// Waits until the page's stored folds hold each of `ids` open.
export async function foldsStored(page, ids) {
  await page.waitForFunction((wanted) => {
    let state = {};
    try {
      state = JSON.parse(localStorage.getItem('kernel-playground.folds')) || {};
    } catch {
      return true; // a browser that keeps nothing: there is nothing to wait for
    }
    return wanted.every((id) => state[id] === true);
  }, ids, { timeout: 10000 });
}

// Resolves once the page has drawn a frame newer than `after` (a frame object or null) whose
// model is that of the scene as it stands (not a step behind, when a worker computes it).
export async function waitForFrame(page, after = null) {
  await page.waitForFunction(
    (prev) => {
      const f = window.kernelPlayground && window.kernelPlayground.lastFrame;
      return f && !f.behind && f !== prev && (prev === null || JSON.stringify(f) !== prev);
    },
    after === null ? null : JSON.stringify(after),
    { timeout: 20000 },
  );
  return page.evaluate(() => window.kernelPlayground.lastFrame);
}

export async function lastFrame(page) {
  return page.evaluate(() => window.kernelPlayground.lastFrame);
}

// Moves the C slider one step; returns the frame of the new C once it is painted.
export async function nudgeC(page) {
  const before = await lastFrame(page);
  await page.focus('#C');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (c) => {
      const f = window.kernelPlayground.lastFrame;
      return f && !f.behind && f.C !== c;
    },
    before.C,
    { timeout: 20000 },
  );
  return lastFrame(page);
}

// Waits until nothing waits for the worker behind the page and two animation frames have
// passed (so any pending render has run).
export async function settle(page) {
  await page.waitForFunction(() => !window.kernelPlayground || window.kernelPlayground.idle !== false, null, { timeout: 20000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => !window.kernelPlayground || window.kernelPlayground.idle !== false, null, { timeout: 20000 });
}

// Waits until the page's unseen drag rehearsal (www/rehearsal.js) has ended. It runs in the
// first idle moments after the first picture, and its first steps meet the page's code cold
// (tasks of 50–70 ms): a test that counts long tasks starts counting after it.
export async function rehearsed(page) {
  await page.waitForFunction(() => window.kernelPlayground?.rehearsal?.done === true, null, { timeout: 20000 });
}

// A fingerprint of the canvas pixels and the number of distinct colours in a sample.
export async function canvasSignature(page, id = 'plot') {
  return page.evaluate((canvasId) => {
    const c = document.getElementById(canvasId);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      hash = (hash * 31 + data[i] * 7 + data[i + 1] * 13 + data[i + 2]) | 0;
      if (i % 997 === 0) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
    return { hash, colours: colours.size };
  }, id);
}

// The frame that answered a step: the first painted with the step's new model, not a step
// behind (on a slow device a draft, its full picture following once the steps pause:
// www/draft.js), read after the page has settled (for the benchmarks: watchStep before the
// step, stepFrame after).
export const watchStep = (page) => page.evaluate(() => {
  window.__stepFrame = null;
  const painted = () => {
    const f = window.kernelPlayground.lastFrame;
    if (!f.refit || f.behind) return;
    window.__stepFrame = f;
    window.removeEventListener('kernel-playground-frame', painted);
  };
  window.addEventListener('kernel-playground-frame', painted);
});
export const stepFrame = (page) => page.evaluate(() => window.__stepFrame);

// For the benchmarks: the page's CPU slowed `rate` times (Chromium's own emulation of a slower
// device, as Lighthouse's mobile profile does with 4); 1 leaves it as it is.
export async function slowCpu(page, rate) {
  if (!(rate > 1)) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

// The page's query for a benchmark's `mode`: everything on the page's thread ('sync'), every
// scene fitted behind the page ('worker'), or the page's own choice ('auto': a small, quick
// scene fitted on the page, www/remote.js); the worker slowed `workerRate` times
// (www/worker.js), which Chromium's throttling does not reach.
export function benchQuery(mode, workerRate) {
  const query = [];
  if (mode === 'sync') query.push('sync');
  if (mode === 'worker') query.push('worker');
  if (mode !== 'sync' && workerRate > 1) query.push(`worker-slowdown=${workerRate}`);
  return query.length ? `?${query.join('&')}` : '';
}
