// The first load, as a student meets it: the built site served as GitHub Pages serves it
// (gzip, level 6, for every text and wasm file; `Cache-Control: max-age=600`), opened cold
// (a fresh profile each visit) in headless Chromium, on a phone's screen (390 × 844, device
// pixel ratio 3) with Lighthouse's mobile profile (150 ms round trip, 1.6 Mbit/s down,
// 750 kbit/s up, the CPU slowed 4×: the page's thread by Chromium, the worker's by the page's
// `?worker-slowdown=4`) and unthrottled. For each, the median of VISITS visits:
// - first picture: the time from the navigation's start to the first scene's picture drawn at
//   the build (www/first-picture.svg, index.html) painted on the plot (the Element Timing API);
// - first plot: the time to the page's first `kernel-playground-frame` event (the lab's own
//   frame with a fitted model painted: from then on the plot answers a click);
// - bytes: by the first picture, what had arrived whole (the Resource Timing API: compressed,
//   with headers); by the first plot, what the server sent (compressed, headers excluded),
//   the worker's requests included.
// - returning: the first plot of the same visitor coming back (the page loaded again once its
//   service worker serves it and RETURN_AFTER_MS later), and what the server sent for it; as
//   built only (a returning page takes the module whole from the service worker either way).
// Besides the mobile profile, two lines between it and none for the same slow phone, where the
// page's choice of the packed module or the whole one (www/wasm.js) is decided.
// Run after scripts/build-web.sh:   node tests/e2e/bench-load.mjs [visits]   (default 3)
// Timings only; nothing here passes or fails.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, siteDir } from './browser.mjs';
import { resolvePath } from '../../scripts/serve.mjs';

const VISITS = Number(process.argv[2]) || 3;
const SCENE_TIMEOUT_MS = 60_000;
const RETURN_AFTER_MS = 4000;
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const PROFILES = [
  { name: 'mobile (150 ms, 1.6 Mbit/s down, 750 kbit/s up, CPU 4×)', latency: 150, down: 1.6e6, up: 750e3, cpu: 4 },
  { name: 'a slow phone on 5 Mbit/s (70 ms, 2 Mbit/s up, CPU 4×)', latency: 70, down: 5e6, up: 2e6, cpu: 4 },
  { name: 'a slow phone on 30 Mbit/s (20 ms, 10 Mbit/s up, CPU 4×)', latency: 20, down: 30e6, up: 10e6, cpu: 4 },
  { name: 'unthrottled', latency: 0, down: -1, up: -1, cpu: 1 },
];
// Each profile is visited as built ('packed' where the page chooses it: www/wasm.js loads the
// module packed unless the browser estimates a line of 8 Mbit/s or more) and, paired, with the
// module never packed (the server gives the page no packed size: 'whole'). WHOLE=0 skips those.
const MODES = process.env.WHOLE === '0' ? ['as built'] : ['as built', 'whole'];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The site's files, each gzipped once; the server counts what it sends.
const cache = new Map();
let sent = 0;
let whole = false; // the mode of the visits under way
async function body(file) {
  if (!cache.has(file)) {
    const raw = await fs.readFile(file);
    cache.set(file, { raw, gz: zlib.gzipSync(raw, { level: 6 }) });
  }
  return cache.get(file);
}

const server = http.createServer(async (req, res) => {
  const { file: named, status } = resolvePath(siteDir, new URL(req.url, 'http://localhost').pathname);
  if (status) {
    res.writeHead(status).end();
    return;
  }
  let file = named;
  try {
    if ((await fs.stat(file)).isDirectory()) file = path.join(file, 'index.html');
    let { raw, gz } = await body(file);
    if (whole && path.basename(file) === 'index.html') {
      raw = Buffer.from(raw.toString('utf8').replace(/<meta name="kp-wasm-packed" content="[^"]*">/, '<meta name="kp-wasm-packed" content="">'));
      gz = zlib.gzipSync(raw, { level: 6 });
    }
    const type = types[path.extname(file)] || 'application/octet-stream';
    const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] || '');
    const out = gzip ? gz : raw;
    const headers = { 'Content-Type': type, 'Cache-Control': 'max-age=600', 'Content-Length': out.length, Vary: 'Accept-Encoding' };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    res.writeHead(200, headers);
    sent += out.length;
    res.end(out);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_FLAGS });

// One cold visit: a new context has an empty cache.
async function visit(profile) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.addEventListener('kernel-playground-frame', () => {
      if (window.__firstPlot === undefined) window.__firstPlot = performance.now();
    });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.identifier !== 'first-picture' || window.__firstPicture !== undefined) continue;
        window.__firstPicture = e.renderTime || e.loadTime;
        // What had arrived whole by then (compressed, with headers).
        const arrived = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
          .filter((r) => r.responseEnd > 0 && r.responseEnd <= window.__firstPicture);
        window.__pictureBytes = arrived.reduce((sum, r) => sum + r.transferSize, 0);
        if (window.__timeline) window.__timeline = arrived.map((r) => `${r.name.split('/').pop()} ${r.startTime.toFixed(0)}–${r.responseEnd.toFixed(0)}`);
      }
    }).observe({ type: 'element', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latency,
    downloadThroughput: profile.down > 0 ? profile.down / 8 : -1,
    uploadThroughput: profile.up > 0 ? profile.up / 8 : -1,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  sent = 0;
  await page.goto(profile.cpu > 1 ? `${base}?worker-slowdown=${profile.cpu}` : base, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstPicture !== undefined || window.__firstPlot !== undefined, null, { timeout: SCENE_TIMEOUT_MS, polling: 20 });
  await page.waitForFunction(() => window.__firstPlot !== undefined, null, { timeout: SCENE_TIMEOUT_MS, polling: 20 });
  const bytes = sent;
  const { ms, pictureMs, pictureBytes, module } = await page.evaluate(() => ({ ms: window.__firstPlot, pictureMs: window.__firstPicture ?? NaN, pictureBytes: window.__pictureBytes ?? NaN, module: document.documentElement.dataset.wasm }));
  // The visitor comes back: the service worker serves the page. (Not with the page changed
  // for 'whole': its hash is not the one sw.js lists, so the service worker never installs.)
  if (whole) {
    await context.close();
    return { ms, bytes, pictureMs, pictureBytes, module, returningMs: NaN, returningBytes: NaN, returningModule: '–' };
  }
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: SCENE_TIMEOUT_MS, polling: 100 });
  await page.waitForTimeout(RETURN_AFTER_MS);
  sent = 0;
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstPlot !== undefined, null, { timeout: SCENE_TIMEOUT_MS, polling: 20 });
  const returningBytes = sent;
  const { returningMs, returningModule } = await page.evaluate(() => ({ returningMs: window.__firstPlot, returningModule: document.documentElement.dataset.wasm }));
  await context.close();
  return { ms, bytes, pictureMs, pictureBytes, module, returningMs, returningBytes, returningModule };
}

console.log(`${os.cpus().length} × ${os.cpus()[0].model}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const file of ['www/pkg/kernel_playground_bg.wasm', 'www/pkg/kernel_playground_bg.wasm.lzma', 'www/pkg/kernel_playground_unpack.wasm']) {
  const { raw, gz } = await body(path.join(siteDir, file));
  console.log(`${file}: ${raw.length} bytes, ${gz.length} gzipped (level 6)`);
}
console.log(`${'profile'.padEnd(58)} ${'module'.padEnd(8)} ${'first picture ms (median, each)'.padEnd(34)} ${'KiB'.padStart(5)}   ${'first plot ms (median, each)'.padEnd(34)} ${'KiB'.padStart(5)}   ${'module'.padEnd(8)} ${'returning ms (median, each)'.padEnd(34)} ${'KiB'.padStart(5)}`);
const none = (runs, key) => runs.every((r) => Number.isNaN(r[key]));
const each = (runs, key) => (none(runs, key) ? '–' : `${median(runs.map((r) => r[key])).toFixed(0)} (${runs.map((r) => r[key].toFixed(0)).join(', ')})`).padEnd(34);
const kib = (runs, key) => (none(runs, key) ? '–' : (median(runs.map((r) => r[key])) / 1024).toFixed(0)).padStart(5);
for (const profile of PROFILES) {
  for (const mode of MODES) {
    whole = mode === 'whole';
    const runs = [];
    for (let i = 0; i < VISITS; i += 1) runs.push(await visit(profile));
    const modules = (key) => [...new Set(runs.map((r) => r[key]))].join('/').padEnd(8);
    console.log(`${profile.name.padEnd(58)} ${modules('module')} ${each(runs, 'pictureMs')} ${kib(runs, 'pictureBytes')}   ${each(runs, 'ms')} ${kib(runs, 'bytes')}   ${modules('returningModule')} ${each(runs, 'returningMs')} ${kib(runs, 'returningBytes')}`);
  }
}
await browser.close();
server.close();
