// The first drag on a page just opened, in headless Chromium: the hard scene (two moons, noise
// 0.3, RBF, C = 1, γ = 1) at n = 10 000 by default, in a 1400 × 1000 window. Each visit opens
// the page afresh, waits for its picture and half a second more, hovers a point, presses it and
// moves it six times (a frame each); the Long Tasks API gives the page's longest task (those
// over 50 ms) during the first move and during the whole drag. Several built sites can be
// compared, visit by visit in alternating order (the machine's load drifts alike for each):
//   node tests/e2e/bench-first-drag.mjs [site ...]   (default: site/; VISITS=12, N=10000,
//   CPU=4 slows the page's CPU four times; SCENE='preset=sine&task=regression&model=lsq' opens
//   another scene, its n still N's)
// Timings only; nothing here passes or fails.
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_FLAGS, settle, siteDir, slowCpu } from './browser.mjs';

const sites = process.argv.length > 2 ? process.argv.slice(2).map((s) => path.resolve(s)) : [siteDir];
const visits = Number(process.env.VISITS || 12);
const n = Number(process.env.N || 10000);
const CPU = Number(process.env.CPU || 1);
const scene = process.env.SCENE || 'preset=moons&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1';

async function visit(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await slowCpu(page, CPU);
  await page.goto(`${base}#${scene}&n=${n}`);
  await page.waitForFunction(() => window.kernelPlayground?.lastFrame && !window.kernelPlayground.lastFrame.behind, null, { timeout: 120000 });
  await page.evaluate(() => document.getElementById('plot').scrollIntoView({ block: 'center' }));
  await settle(page);
  await page.waitForTimeout(500);
  const [px, py] = await page.evaluate(() => window.kernelPlayground.toClient(...window.kernelPlayground.points()[0]));
  await page.mouse.move(px, py);
  await settle(page);
  await page.waitForTimeout(200);
  await page.mouse.down();
  await settle(page);
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask' });
  });
  let first = 0;
  for (let i = 1; i <= 6; i += 1) {
    await page.mouse.move(px + 10 * i, py + 5 * i);
    await settle(page);
    await page.waitForTimeout(30);
    if (i === 1) first = await page.evaluate(() => window.__longest);
  }
  const whole = await page.evaluate(() => window.__longest);
  await page.mouse.up();
  await page.close();
  return { first, whole };
}

const servers = await Promise.all(sites.map((s) => serve(s, 0)));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  const results = sites.map(() => []);
  for (let v = 0; v < visits; v += 1) {
    for (let k = 0; k < sites.length; k += 1) {
      const s = v % 2 ? sites.length - 1 - k : k;
      results[s].push(await visit(browser, `http://127.0.0.1:${servers[s].address().port}/`));
    }
  }
  const shown = (ms) => (ms > 0 ? String(Math.round(ms)) : '<50');
  console.log(`first drag on a fresh page, ${process.env.SCENE ? scene : 'two moons'}, n = ${n}${CPU > 1 ? `, CPU ${CPU}× slower` : ''}; longest task (ms), each visit`);
  sites.forEach((site, s) => {
    const over = results[s].filter((r) => r.whole > 0).length;
    console.log(`${site}\n  drags with a task over 50 ms: ${over} of ${visits}\n  first move: ${results[s].map((r) => shown(r.first)).join(' ')}\n  whole drag: ${results[s].map((r) => shown(r.whole)).join(' ')}`);
  });
} finally {
  await browser.close();
  for (const server of servers) server.close();
}
