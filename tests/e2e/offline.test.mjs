// End-to-end: the lab without a network (issue 22). After a first visit its service worker has
// every file of the site (served from a folder, as GitHub Pages serves a project's site), so
// with the network cut and the server gone a reload still opens the lab, fits, and refits after
// a click; a new deploy is taken on the next load, into a cache of its own. The one-file
// download opens from a folder with nothing beside it (file://), asks for nothing outside
// itself, fits, and refits after a drag, with its worker; it holds the module packed, so it is
// smaller than the module alone, and says so when that is damaged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, siteDir, waitForFrame, settle, frontServer } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';
import { siteFiles, notCached, writeServiceWorker } from '../../scripts/service-worker.mjs';
import { SINGLE_FILE } from '../../scripts/single-file.mjs';

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});
after(async () => browser && browser.close());

// A server that can be stopped for good (its open connections too), then started again on the
// same port (the same origin) with another build.
async function startServer(dir, port = 0) {
  const server = await serve(dir, port);
  return {
    server,
    base: `http://127.0.0.1:${server.address().port}/`,
    port: server.address().port,
    stop: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }),
  };
}

function recordErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`page: ${e.message}`));
  return errors;
}

// The service worker is active and controls the page and its cache is filled.
const controlled = (page) => page.waitForFunction(() => {
  const sw = navigator.serviceWorker;
  return Boolean(sw && sw.controller && sw.controller.state === 'activated');
}, null, { timeout: 30000, polling: 200 });

const caches = (page) => page.evaluate(async () => {
  const out = {};
  for (const name of await window.caches.keys()) {
    const cache = await window.caches.open(name);
    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
});

// Data coordinates of a spot on the plot away from every point.
const emptySpot = (page) => page.evaluate(() => {
  const pts = window.kernelPlayground.points();
  const [x0, x1, y0, y1] = window.kernelPlayground.window();
  let best = null;
  for (let i = 1; i < 10; i += 1) {
    for (let j = 1; j < 10; j += 1) {
      const [x, y] = [x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * j / 10];
      const d = Math.min(...pts.map(([a, b]) => Math.hypot((a - x) / (x1 - x0), (b - y) / (y1 - y0))));
      if (!best || d > best.d) best = { x, y, d };
    }
  }
  return [best.x, best.y];
});

const toClient = (page, [x, y]) => page.evaluate(([a, b]) => window.kernelPlayground.toClient(a, b), [x, y]);
const statusText = (page) => page.textContent('#status');

// A click on an empty spot adds a point, and the model is fitted again with it.
async function clickAddsPoint(page) {
  const before = await page.evaluate(() => window.kernelPlayground.lastFrame);
  const [cx, cy] = await toClient(page, await emptySpot(page));
  await page.mouse.click(cx, cy);
  const after = await waitForFrame(page, before);
  assert.equal(after.points, before.points + 1, 'the click added a point');
  assert.match(await statusText(page), /accuracy \d+(\.\d+)?%/, 'the status line shows the refitted model');
  return after;
}

const MODULE = 'www/pkg/kernel_playground_bg.wasm';
// The module as the service worker's cache must hold it: its type and its bytes' SHA-256.
const WHOLE_MODULE = ['application/wasm', crypto.createHash('sha256').update(fs.readFileSync(path.join(siteDir, MODULE))).digest('hex')];
// The module in the one cache, for the site at `base`: its type and SHA-256.
const keptModule = (page, base) => page.evaluate(async (url) => {
  const response = await (await window.caches.open((await window.caches.keys())[0])).match(url);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
  return [response.headers.get('Content-Type'), Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')];
}, `${base}${MODULE}`);

test('after a first visit the lab opens, fits and refits with the network cut and the server gone', async () => {
  // Served from a folder of the server, as GitHub Pages serves a project site (/repo/).
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-pages-'));
  fs.symlinkSync(siteDir, path.join(parent, 'repo'));
  const server = await startServer(parent);
  const asked = [];
  server.server.on('request', (req) => asked.push(new URL(req.url, 'http://x').pathname));
  const site = { ...server, base: `${server.base}repo/` };
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = recordErrors(page);
  // A slow line, where a page the service worker does not serve fetches the module packed.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ downlink: 1 }) }));
  await page.goto(`${site.base}#preset=moons&n=40`);
  await waitForFrame(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.wasm), 'packed');
  await controlled(page);
  // One cache, holding every file the service worker lists, each once: the module whole, as
  // the service worker unpacked it (the server was never asked for it), and neither the packed
  // module nor its unpacker.
  const listed = siteFiles(siteDir).filter((f) => !notCached(siteDir).includes(f));
  const held = Object.values(await caches(page));
  assert.equal(held.length, 1, 'one cache');
  assert.deepEqual([...held[0]].sort(), listed.map((f) => `/repo/${f}`).sort());
  assert.ok(listed.includes(MODULE) && !listed.includes(`${MODULE}.lzma`));
  assert.deepEqual(await keptModule(page, site.base), WHOLE_MODULE);
  assert.ok(!asked.includes(`/repo/${MODULE}`), 'the whole module was not fetched');
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope), site.base);
  // Served by the service worker, the page takes the whole module from its cache, on the same
  // slow line, and asks the server for no wasm.
  const before = asked.length;
  await page.reload();
  await waitForFrame(page);
  assert.deepEqual(await page.evaluate(() => [navigator.connection.downlink, document.documentElement.dataset.wasm]), [1, 'whole']);
  assert.deepEqual(asked.slice(before).filter((p) => /\.wasm/.test(p)), []);

  await context.setOffline(true);
  await site.stop();
  await page.reload();
  const frame = await waitForFrame(page);
  assert.equal(frame.points, 40);
  assert.match(await statusText(page), /training accuracy \d+(\.\d+)?%/);
  assert.equal(await page.evaluate(() => window.kernelPlayground.frames), 'worker', 'the worker started from the cache');
  assert.equal(await page.evaluate(() => window.kernelPlayground.worker.status), 'ready');
  await clickAddsPoint(page);
  // An address with a query (the page's options) is the same page.
  await page.goto(`${site.base}index.html?sync#preset=xor&n=30`);
  assert.equal((await waitForFrame(page)).points, 30);
  await settle(page);
  assert.deepEqual(errors, []);
  await context.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

test('a first visit on a fast line fetches the module whole, and the service worker keeps that copy', async () => {
  const server = await startServer(siteDir);
  const asked = [];
  // Served with GitHub Pages' cache headers, so that the browser's HTTP cache holds the module.
  const front = await frontServer(server.base, (req) => {
    asked.push(new URL(req.url, 'http://x').pathname);
    return false;
  }, { 'Cache-Control': 'max-age=600' });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = recordErrors(page);
  try {
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'connection', { get: () => ({ downlink: 20 }) }));
    await page.goto(front.url);
    await waitForFrame(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.wasm), 'whole');
    await controlled(page);
    assert.deepEqual(await keptModule(page, front.url), WHOLE_MODULE);
    assert.deepEqual(asked.filter((p) => /\.wasm/.test(p)), [`/${MODULE}`], 'the module fetched once, whole, and nothing packed');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await front.stop();
    await server.stop();
  }
});

// A copy of the built site with one visible change, its service worker written anew.
function changedSite(title) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-deploy-'));
  fs.cpSync(siteDir, dir, { recursive: true });
  const index = path.join(dir, 'index.html');
  fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`));
  return dir;
}

test('a new deploy is taken on the next load, into a cache of its own', async () => {
  const first = await startServer(siteDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = recordErrors(page);
  await page.goto(first.base);
  await waitForFrame(page);
  await controlled(page);
  const [oldCache] = Object.keys(await caches(page));
  await first.stop();
  const deploys = [];
  let server = null;
  // Serves a copy of the site titled `title` at the same address, as a new deploy would.
  const deploy = async (title) => {
    if (server) await server.stop();
    const dir = changedSite(title);
    deploys.push(dir);
    const { version } = writeServiceWorker(dir);
    server = await startServer(dir, first.port);
    return version;
  };
  const titled = (title) => page.waitForFunction((t) => document.title === t, title, { timeout: 30000 });
  try {
    // The load that finds the new deploy is served by the old one; the new service worker
    // installs meanwhile and, the page being untouched, takes over and loads it again.
    const second = await deploy('Kernel Playground, the second deploy');
    await page.reload();
    await titled('Kernel Playground, the second deploy');
    await waitForFrame(page);
    await controlled(page);
    const now = Object.keys(await caches(page));
    assert.deepEqual(now, [`kernel-playground-${second}`], 'the old cache is gone');
    assert.notEqual(now[0], oldCache);

    // A page in use when the next deploy has installed says so, and stays as it is; the next
    // load takes the new deploy, through the service worker's hand-over page. (Each load is "touched" as soon as it has drawn, from here on:
    // the page's scripts, offline.js among them, are loaded by then.)
    await page.addInitScript(() => {
      window.addEventListener('kernel-playground-frame', () => window.dispatchEvent(new Event('pointerdown')), { once: true });
    });
    const third = await deploy('Kernel Playground, the third deploy');
    await page.reload();
    await page.waitForFunction(() => document.getElementById('message').textContent.includes('A new version of the lab is ready'), null, { timeout: 30000 });
    assert.equal(await page.title(), 'Kernel Playground, the second deploy');
    await page.reload();
    await titled('Kernel Playground, the third deploy');
    await waitForFrame(page);
    await controlled(page);
    assert.deepEqual(Object.keys(await caches(page)), [`kernel-playground-${third}`]);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    if (server) await server.stop();
    for (const dir of deploys) fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the service worker lists every file of the site with its hash', () => {
  const sw = fs.readFileSync(path.join(siteDir, 'sw.js'), 'utf8');
  const listed = [...sw.matchAll(/^ {2}\['([^']+)', '([0-9a-f]{64})'\],$/gm)].map((m) => [m[1], m[2]]);
  const files = siteFiles(siteDir).filter((f) => !notCached(siteDir).includes(f));
  assert.deepEqual(listed.map(([f]) => f), files);
  for (const [file, hash] of listed) {
    assert.equal(hash, crypto.createHash('sha256').update(fs.readFileSync(path.join(siteDir, file))).digest('hex'), file);
  }
  assert.match(sw, /^const VERSION = '[0-9a-f]{16}';$/m);
  assert.ok(files.includes('www/pkg/kernel_playground_bg.wasm') && files.includes('index.html') && files.includes('www/manifest.webmanifest'));
  // The whole module is made from the packed one and its unpacker, with its size.
  const unpacked = JSON.parse(sw.match(/^const UNPACKED = (.*);$/m)[1]);
  const module = 'www/pkg/kernel_playground_bg.wasm';
  assert.deepEqual(unpacked, { [module]: [`${module}.lzma`, 'www/pkg/kernel_playground_unpack.wasm', fs.statSync(path.join(siteDir, module)).size] });
});

test('the page links the one-file download under "more", and the manifest names its icons', async () => {
  const site = await startServer(siteDir);
  try {
    const page = await browser.newPage();
    await page.goto(site.base);
    await waitForFrame(page);
    const link = await page.evaluate(() => {
      const a = document.getElementById('download-lab');
      return { href: a.href, download: a.getAttribute('download'), fold: a.closest('details.more').id, text: a.textContent };
    });
    assert.deepEqual(link, { href: `${site.base}${SINGLE_FILE}`, download: SINGLE_FILE, fold: 'points-more', text: 'Download the lab (one file)' });
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]').href;
      const m = await (await fetch(href)).json();
      const icons = await Promise.all(m.icons.map(async (icon) => {
        const r = await fetch(new URL(icon.src, href));
        return [icon.sizes, r.status, r.headers.get('Content-Type')];
      }));
      return { start: new URL(m.start_url, href).href, display: m.display, theme: m.theme_color, icons };
    });
    assert.equal(manifest.start, site.base);
    assert.equal(manifest.display, 'standalone');
    assert.match(manifest.theme, /^#[0-9a-f]{6}$/);
    for (const [sizes, status, type] of manifest.icons) {
      assert.equal(status, 200, sizes);
      assert.match(type, /^image\/(png|svg\+xml)/);
    }
    await page.close();
  } finally {
    await site.stop();
  }
});

test('the one-file lab opens from a folder of its own, fits, and refits after a drag', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-one-file-'));
  const file = path.join(dir, SINGLE_FILE);
  fs.copyFileSync(path.join(siteDir, SINGLE_FILE), file);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = recordErrors(page);
  const outside = [];
  const self = pathToFileURL(file).href;
  page.on('request', (r) => {
    const url = r.url();
    if (!(url.split('#')[0] === self || /^(data|blob):/.test(url))) outside.push(url);
  });
  try {
    await page.goto(`${self}#preset=separable&n=30&seed=3`);
    const first = await waitForFrame(page);
    await settle(page);
    assert.equal(first.points, 30);
    assert.match(await statusText(page), /training accuracy \d+(\.\d+)?%/);
    assert.equal(await page.evaluate(() => window.kernelPlayground.frames), 'worker', 'the model is fitted by the worker');
    assert.equal(await page.evaluate(() => window.kernelPlayground.worker.status), 'ready');
    // No link to itself: the file is the download.
    assert.equal(await page.$('#download-lab'), null);

    // Drag the first point to an empty spot: it moves and the model is fitted again.
    const before = await page.evaluate(() => ({ frame: window.kernelPlayground.lastFrame, points: window.kernelPlayground.points() }));
    const target = await emptySpot(page);
    const [sx, sy] = await toClient(page, before.points[0]);
    const [ex, ey] = await toClient(page, target);
    await page.mouse.move(sx, sy);
    await page.mouse.down();
    for (let i = 1; i <= 10; i += 1) await page.mouse.move(sx + ((ex - sx) * i) / 10, sy + ((ey - sy) * i) / 10);
    await page.mouse.up();
    await waitForFrame(page, before.frame);
    await settle(page);
    const moved = await page.evaluate(() => window.kernelPlayground.points());
    assert.equal(moved.length, 30);
    const [x1, x2] = moved.find((p) => !before.points.some((q) => q[0] === p[0] && q[1] === p[1])) || [];
    const [wx0, wx1] = await page.evaluate(() => window.kernelPlayground.window());
    assert.ok(Math.hypot(x1 - target[0], x2 - target[1]) < 0.05 * (wx1 - wx0), `the point moved to ${target}: ${[x1, x2]}`);
    const after = await page.evaluate(() => window.kernelPlayground.lastFrame);
    assert.notDeepEqual(after, before.frame, 'the model was fitted again');
    assert.match(await statusText(page), /training accuracy \d+(\.\d+)?%/);
    assert.deepEqual(outside, [], 'nothing is asked of the network or the disk');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a one-file lab whose module is damaged says so, in one line', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kp-one-file-'));
  const file = path.join(dir, SINGLE_FILE);
  const html = fs.readFileSync(path.join(siteDir, SINGLE_FILE), 'utf8');
  // One character of the packed module's base64, a third of the way in, changed.
  const at = html.indexOf('id="kernel-playground-wasm"');
  const start = html.indexOf('>', at) + 1;
  const end = html.indexOf('</script>', start);
  const i = start + Math.floor((end - start) / 3);
  fs.writeFileSync(file, html.slice(0, i) + (html[i] === 'A' ? 'B' : 'A') + html.slice(i + 1));
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => /damaged/.test(document.getElementById('loading').textContent), null, { timeout: 30000 });
    assert.equal(await page.textContent('#loading'), 'This file of the lab is damaged: download the lab again.');
    assert.equal(await page.evaluate(() => window.kernelPlayground?.lastFrame ?? null), null, 'no frame was drawn');
    assert.equal(await page.$('#first-picture'), null, 'the first scene\'s picture is gone');
    // No worker is started on a module that failed, nor says it could not load one.
    await page.waitForFunction(() => window.kernelPlayground.worker.status === 'off', null, { timeout: 5000 });
    assert.equal(await page.isHidden('#message'), true, await page.textContent('#message'));
  } finally {
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the one-file lab holds the module packed, with its unpacker: smaller than the module alone', () => {
  const files = siteFiles(siteDir).filter((f) => f !== SINGLE_FILE);
  const single = fs.statSync(path.join(siteDir, SINGLE_FILE)).size;
  const module = fs.statSync(path.join(siteDir, MODULE)).size;
  assert.ok(single < module, `${single} bytes against the module's ${module}`);
  // And it holds the lab: every module, the wasm packed (its size and CRC as the page gives
  // them) and its unpacker, the styles.
  const html = fs.readFileSync(path.join(siteDir, SINGLE_FILE), 'utf8');
  const base64 = (file) => fs.readFileSync(path.join(siteDir, file)).toString('base64');
  const crc = html.match(/<meta name="kp-wasm-packed" content="\d+ ([0-9a-f]{8})">/)[1];
  assert.ok(html.includes(`id="kernel-playground-wasm" data-size="${module}" data-crc="${crc}">${base64(`${MODULE}.lzma`)}</script>`), 'the packed wasm, as base64');
  assert.ok(html.includes(`id="kernel-playground-unpack">${base64('www/pkg/kernel_playground_unpack.wasm')}</script>`), 'the unpacker, as base64');
  for (const f of files.filter((name) => name.endsWith('.js') && name.startsWith('www/'))) {
    assert.ok(html.includes(`data-module="${f}"`), `${f} is inside`);
  }
  assert.ok(html.includes('/* www/style.css */') && html.includes('/* www/help.css */'));
});
