// Makes docs/screenshot.png, the README's picture, from the built site:
//   node tests/e2e/screenshot.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle } from './browser.mjs';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshot.png');
const env = await start();
try {
  const { page } = await openPage(env.browser, `${env.base}#preset=moons&n=120&noise=0.25&kernel=rbf&C=3.16&gamma=3.16&seed=4`, { width: 1500, height: 960 });
  const [x, y] = await page.evaluate(() => window.kernelPlayground.toClient(0.12, 0.33));
  await page.mouse.move(x, y);
  await settle(page);
  await page.waitForTimeout(200);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await env.close();
}
