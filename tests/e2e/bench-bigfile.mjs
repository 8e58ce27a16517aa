// The page's thread while a 50 MB file loads: the file of bigfile.test.mjs (1.3 million points,
// 15-digit coordinates, two classes) opened over a 100-point LDA scene, `visits` times, each
// in a fresh page. Prints, per visit, the longest task on the page's thread from the choice
// of the file until the file's model is on screen (Long Tasks API: tasks over 50 ms), how
// many tasks passed 50 and 100 ms, their total, and the seconds it took; then the medians. With
// `KP_BASELINE=dir` the visits alternate with that build's site, for a paired comparison;
// `CPU=4` slows the page's thread four times (Chromium's throttling, as Lighthouse's mobile
// profile does), which stretches each task as a slow or busy machine would.
// Run after scripts/build-web.sh:
//   node tests/e2e/bench-bigfile.mjs [visits]      (default: 5)
// Timings only; nothing here passes or fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, openPage, settle, siteDir, slowCpu } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';

const visits = Number(process.argv[2]) || 5;
const rows = 1_300_000;
const CPU = Number(process.env.CPU) || 1;

// The same points as bigfile.test.mjs writes (a fixed linear congruential sequence).
function writePoints(file) {
  let state = 2024;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
  const lines = ['x,y,label'];
  for (let i = 0; i < rows; i += 1) {
    lines.push(`${(2 * next() - 1).toFixed(15)},${(2 * next() - 1).toFixed(15)},${next() < 0.5 ? 0 : 1}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

async function visit(browser, base, file) {
  const { page } = await openPage(browser, `${base}#preset=separable&n=100&model=lda`);
  await settle(page);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  await slowCpu(page, CPU);
  const started = Date.now();
  await page.setInputFiles('#load-csv', file);
  await page.waitForFunction((n) => {
    const f = window.kernelPlayground.lastFrame;
    return f && f.points === n && !f.behind && document.getElementById('loading-file').hidden;
  }, rows, { timeout: 300000, polling: 100 });
  const seconds = (Date.now() - started) / 1000;
  const long = await page.evaluate(() => window.__long);
  await page.close();
  const total = long.reduce((sum, d) => sum + d, 0);
  return { longest: Math.max(0, ...long), over50: long.length, over100: long.filter((d) => d > 100).length, total, seconds };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-playground-bench-'));
const file = path.join(dir, 'big.csv');
writePoints(file);
const sites = [['this build', siteDir]];
if (process.env.KP_BASELINE) sites.push(['baseline', path.resolve(process.env.KP_BASELINE)]);
const servers = await Promise.all(sites.map(([, d]) => serve(d, 0)));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_FLAGS });
const results = sites.map(() => []);
try {
  for (let v = 0; v < visits; v += 1) {
    for (const [i, [name]] of sites.entries()) {
      const r = await visit(browser, `http://127.0.0.1:${servers[i].address().port}/`, file);
      results[i].push(r);
      console.log(`${name}, visit ${v + 1}: longest task ${r.longest.toFixed(0)} ms; ${r.over50} tasks over 50 ms (${r.total.toFixed(0)} ms in all), ${r.over100} over 100 ms; on screen in ${r.seconds.toFixed(1)} s`);
    }
  }
  for (const [i, [name]] of sites.entries()) {
    const rs = results[i];
    console.log(`${name}: median longest task ${median(rs.map((r) => r.longest)).toFixed(0)} ms (range ${Math.min(...rs.map((r) => r.longest)).toFixed(0)}–${Math.max(...rs.map((r) => r.longest)).toFixed(0)}), median ${median(rs.map((r) => r.over100))} tasks over 100 ms, median ${median(rs.map((r) => r.total)).toFixed(0)} ms in tasks over 50 ms, median ${median(rs.map((r) => r.seconds)).toFixed(1)} s`);
  }
} finally {
  await browser.close();
  for (const s of servers) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
