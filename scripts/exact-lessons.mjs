// Makes every shipped lesson's links exact: each scene of lessons/*.json is opened in the lab
// (the built site/, served as the browser tests serve it), and its link is replaced by the
// address the page writes for it — every setting named, as "Copy link" gives it. A scene that
// opens with a message (a part left out, a refused link) stops the script, naming it.
//
//   node scripts/exact-lessons.mjs            (after building site/; needs tests/e2e's packages)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, settle } from '../tests/e2e/browser.mjs';
import { lessonJson } from '../www/lesson-file.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folder = path.join(root, 'lessons');

const env = await start();
try {
  for (const name of fs.readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
    const file = path.join(folder, name);
    const lesson = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [i, scene] of lesson.scenes.entries()) {
      const page = await env.browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.goto(`${env.base}index.html${scene.link}`);
      await page.waitForFunction(() => window.kernelPlayground && window.kernelPlayground.lastFrame);
      await settle(page);
      // The address follows the scene a moment after its frame.
      await page.waitForFunction(() => location.hash === window.kernelPlayground.link, null, { timeout: 10000 });
      const { hash, message } = await page.evaluate(() => ({
        hash: location.hash,
        message: document.getElementById('message').hidden ? '' : document.getElementById('message').textContent,
      }));
      await page.close();
      if (message) throw new Error(`${name}, scene ${i + 1}: ${message}`);
      scene.link = hash;
    }
    fs.writeFileSync(file, lessonJson(lesson));
    console.log(`${name}: ${lesson.scenes.length} scenes, links exact`);
  }
} finally {
  await env.close();
}
