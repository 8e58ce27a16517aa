import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from './browser.mjs';
const dir = process.argv[2];
const types = { '.html': 'text/html; charset=utf-8', '.js': 'application/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml' };
const server = http.createServer((req, res) => {
  let f = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  try { if (fs.statSync(f).isDirectory()) f = path.join(f, 'index.html'); const gz = zlib.gzipSync(fs.readFileSync(f), { level: 6 });
    res.writeHead(200, { 'Content-Type': types[path.extname(f)] || 'application/octet-stream', 'Content-Encoding': 'gzip', 'Cache-Control': 'max-age=600', 'Content-Length': gz.length }); res.end(gz);
  } catch { res.writeHead(404).end(); }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
for (let v = 0; v < Number(process.argv[3] || 3); v += 1) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(() => { window.addEventListener('kernel-playground-frame', () => { if (window.__firstPlot === undefined) window.__firstPlot = performance.now(); }); });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await browser.startTracing(page, { path: `/tmp/s20/trace${v}.json`, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'] });
  await page.goto(`${base}?worker-slowdown=4`, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__firstPlot !== undefined, null, { timeout: 60000, polling: 20 });
  const marks = await page.evaluate(() => { const seen = {}; for (const m of performance.getEntriesByType('mark')) if (!(m.name in seen)) seen[m.name] = Math.round(m.startTime); return seen; });
  await browser.stopTracing();
  console.log(Object.entries(marks).sort((a, b) => a[1] - b[1]).map(([k, t]) => `${k} ${t}`).join(' | '));
  await context.close();
}
await browser.close();
server.close();
