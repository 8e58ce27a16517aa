// End-to-end: the views beside the plot read from the back row. At a projector's 1280 × 720,
// normal and in presenter mode, a link opens each view; every text drawn on the view's canvas
// is recorded as the browser draws it (its font, where, and its measured ink), and the checks
// are that none is smaller on the screen than the plane's tick labels, that no two overlap
// and that each lies inside the canvas.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './browser.mjs';
import { openRecording, viewDone, drawn, problems, tickSize } from './texts.mjs';

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

// The views beside the plane (src/views/mod.rs, VIEWS).
const VIEWS = ['loss', 'roc', 'cv', 'curve', 'path', 'gram', 'lift', 'trace'];

const open = (hash, size) => openRecording(env, hash, size);

for (const presenter of [false, true]) {
  const mode = presenter ? 'presenter mode' : 'normal';
  test(`at 1280 × 720 (${mode}) every view's text is as large as the plane's tick labels, none overlapping`, async () => {
    const all = [];
    for (const view of VIEWS) {
      const { page, errors } = await open(`preset=moons&n=120&noise=0.25&seed=4&test=0.3&views=${view}`, { width: 1280, height: 720 });
      if (presenter) await page.keyboard.press('p');
      await viewDone(page);
      const tick = tickSize(await drawn(page, 'plot'));
      const figure = await drawn(page, 'view');
      assert.ok(figure.texts.length > 0, `${view}: the view draws text`);
      for (const p of problems(figure, tick)) all.push(`${view}: ${p}`);
      assert.deepEqual(errors, [], view);
      await page.close();
    }
    assert.deepEqual(all, []);
  });
}
