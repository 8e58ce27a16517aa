import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from './browser.mjs';
const base = process.argv[2];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Network.enable');
await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: 1.6e6/8, uploadThroughput: 750e3/8 });
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await page.addInitScript(() => {
  window.__log = [];
  new MutationObserver(() => { const el = document.querySelector('#loading span'); if (el) window.__log.push(`${performance.now().toFixed(0)} ${el.textContent}`); })
    .observe(document, { subtree: true, childList: true, characterData: true });
  window.addEventListener('kernel-playground-frame', () => window.__log.push(`${performance.now().toFixed(0)} frame`), { once: true });
});
await page.goto(base, { waitUntil: 'commit' });
await page.waitForFunction(() => window.__log.some((l) => l.endsWith('frame')), null, { timeout: 60000 });
const log = await page.evaluate(() => window.__log);
console.log(log.filter((l, i) => i % 5 === 0 || l.endsWith('frame') || i === log.length - 2).join('\n'));
const res = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.includes('wasm')).map((r) => `${r.name} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)}`));
console.log(res);
await browser.close();
