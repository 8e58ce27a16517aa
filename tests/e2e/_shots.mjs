import { start, openPage, settle } from './browser.mjs';
const env = await start();
for (const v of ['path', 'trace']) {
  const { page } = await openPage(env.browser, `${env.base}#views=${v}`, { width: 1280, height: 720 });
  await settle(page); await page.waitForTimeout(1500); await settle(page);
  await page.screenshot({ path: `/tmp/shots/${v}.png` });
  await page.close();
}
await env.close();
