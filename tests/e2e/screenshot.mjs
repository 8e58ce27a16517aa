// Makes the pictures under docs/ from the built site: docs/screenshot.png (the README's: the
// plot with the cross-validation grid beside it, at a projector's 1280 × 720) and
// docs/screenshots/*.png (1280 × 720 as a first visit sees it, presenter mode, compare, each
// view open, and a 390 × 844 phone).
//   bash scripts/build-web.sh && node tests/e2e/screenshot.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle } from './browser.mjs';

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');
const dir = path.join(docs, 'screenshots');
fs.mkdirSync(dir, { recursive: true });

const SCENE = '#preset=moons&n=120&noise=0.3&kernel=rbf&C=3.16&gamma=3.16&seed=4&test=0.3';
const VIEWS = ['loss', 'roc', 'cv', 'curve', 'path', 'trace', 'gram', 'lift'];

const env = await start();
async function shoot(name, hash, { width = 1280, height = 720, presenter = false, folded = true, before = null, prompt = false } = {}) {
  const { page } = await openPage(env.browser, env.base + hash, { width, height, folded });
  // The first visit's prompt shows only in the picture of a first visit.
  if (!prompt) await page.evaluate(() => { const p = document.getElementById('first-prompt'); if (p) p.hidden = true; });
  await settle(page);
  if (presenter) await page.keyboard.press('p');
  if (before) await before(page);
  await settle(page);
  // A view that fills in from the worker: wait for it to finish (at most 20 s).
  await page.waitForFunction(() => {
    const bar = document.getElementById('view-progress');
    return !bar || bar.hidden;
  }, null, { timeout: 20000 }).catch(() => {});
  await settle(page);
  await page.waitForTimeout(300);
  const file = name === 'screenshot' ? path.join(docs, 'screenshot.png') : path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  await page.close();
}

try {
  await shoot('screenshot', `${SCENE}&views=cv`);
  await shoot('first-visit-1280x720', '', { folded: true, prompt: true });
  await shoot('plot-1280x720', SCENE);
  await shoot('presenter-1280x720', `${SCENE}&views=cv`, { presenter: true });
  await shoot('compare-1280x720', `${SCENE}&compare=${encodeURIComponent('C=1000&gamma=31.6')}`);
  for (const view of VIEWS) {
    const hash = view === 'lift' ? '#preset=xor&n=80&kernel=poly&degree=2&coef0=0&gamma=1&views=lift' : `${SCENE}&views=${view}`;
    const stepping = view === 'trace'
      ? async (page) => { await page.evaluate(() => { for (const d of document.querySelectorAll('details.more')) d.open = true; }); for (let k = 0; k < 12; k += 1) await page.click('#step'); }
      : null;
    await shoot(`view-${view}-1280x720`, hash, { before: stepping });
  }
  await shoot('phone-390x844', SCENE, { width: 390, height: 844 });
  await shoot('phone-view-390x844', `${SCENE}&views=roc`, { width: 390, height: 844 });
} finally {
  await env.close();
}
