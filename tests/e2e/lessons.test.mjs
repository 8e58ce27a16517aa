// Lessons (issue 22): a titled list of scenes with captions, stepped through with Previous and
// Next. The file's reading is checked here in node (www/lesson-file.js is pure); in the
// browser, `?lesson=` opens the first scene and its caption, the buttons and the keys step with
// the bar's "3 / 10" following, presenter mode keeps the bar, "Add this scene" and "Save
// lesson" give a file that opens again to the same scenes, a malformed lesson or a missing one
// is one line and the scene stays, and every shipped lesson's every scene opens exactly, with
// no message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, openPage, settle } from './browser.mjs';
import {
  LESSON_FORMAT, LessonError, isLessonText, lessonFileName, lessonJson, linkHash, readLesson, refusedLesson,
} from '../../www/lesson-file.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LESSONS = path.resolve(here, '../../lessons');
const SOFT = JSON.parse(fs.readFileSync(path.join(LESSONS, 'soft-margins.json'), 'utf8'));

// ---- the file, in node ------------------------------------------------------------------------

// A stand-in for the lab's reading of a link: it refuses links that say 'damaged'.
const readLink = (hash) => {
  if (hash.includes('damaged')) throw "its points are damaged: point 2 ('1,x,0') is not x,y,label";
};
const why = (text) => {
  try {
    readLesson(text, readLink);
  } catch (e) {
    assert.ok(e instanceof LessonError, `a LessonError, not ${e}`);
    assert.doesNotMatch(e.message, /[\r\n]/, 'one line');
    return e.message;
  }
  return null;
};
const lesson = (fields) => JSON.stringify({ title: 'T', scenes: [{ link: '#model=svm', caption: 'c' }], ...fields });

test('a lesson file is read whole, or refused naming the first thing wrong', () => {
  assert.deepEqual(readLesson(lesson({}), readLink), { title: 'T', scenes: [{ link: '#model=svm', caption: 'c' }] });
  // A link without '#', or a whole copied address, is read as the address's scene.
  const read = readLesson(lesson({ scenes: [{ link: 'model=knn', caption: '' }, { link: 'https://x.org/index.html?embed=1#k=3', caption: 'k' }] }), readLink);
  assert.deepEqual(read.scenes.map((s) => s.link), ['#model=knn', '#k=3']);
  assert.equal(linkHash('#a=1'), '#a=1');
  assert.match(why('{\n  "title": "T",\n  "scenes": [\n    { "link": "#model=svm" "caption": "c" }\n  ]\n}'), /^it is not JSON: line 4, column 28: /);
  assert.match(why('{"title": "T", "scenes": ['), /^it is not JSON: line 1, column 27: /);
  assert.equal(why('[1, 2]'), 'it is not a lesson (a JSON object with a title and a list of scenes)');
  assert.equal(why(lesson({ title: undefined })), 'it has no title');
  assert.equal(why(lesson({ title: '  ' })), 'its title is empty');
  assert.equal(why(lesson({ title: 'a\nb' })), 'its title is not one line');
  assert.equal(why(JSON.stringify({ title: 'T' })), 'it has no list of scenes');
  assert.equal(why(lesson({ scenes: {} })), 'its scenes are not a list');
  assert.equal(why(lesson({ scenes: [] })), 'its list of scenes is empty');
  assert.equal(why(lesson({ scenes: [{ link: '#a=1', caption: 'c' }, 'x'] })), 'scene 2 is not an object with a link and a caption');
  assert.equal(why(lesson({ scenes: [{ link: '#a=1', caption: 'c' }, { link: '#a=2' }] })), 'scene 2: it has no caption');
  assert.equal(why(lesson({ scenes: [{ caption: 'c' }] })), 'scene 1: it has no link');
  assert.equal(why(lesson({ scenes: [{ link: '#', caption: 'c' }] })), 'scene 1: its link is empty');
  assert.equal(why(lesson({ scenes: [{ link: '#a=1', caption: 3 }] })), 'scene 1: its caption is not text');
  assert.equal(why(lesson({ scenes: [{ link: '#a=1', caption: 'c' }, { link: '#points=damaged', caption: 'c' }] })),
    "scene 2: its link is refused: its points are damaged: point 2 ('1,x,0') is not x,y,label");
  assert.equal(why(lesson({ format: 'kernel-playground scene' })), "its format 'kernel-playground scene' is not 'kernel-playground lesson'");
  assert.equal(why(lesson({ version: 2 })), 'it is from a newer version of the lab (lesson version 2; this lab reads version 1)');
  assert.equal(refusedLesson('x.json', 'it has no title'), 'The lesson x.json could not be opened: it has no title; the scene on screen is unchanged.');
});

test('a lesson is told from a scene file, and writes back to the same lesson', () => {
  assert.equal(isLessonText(lesson({})), true);
  assert.equal(isLessonText(JSON.stringify({ format: LESSON_FORMAT })), true, 'its format says so');
  assert.equal(isLessonText('{"title": "T", "scenes": [ oops'), true, 'broken, but a lesson: its error names the line');
  assert.equal(isLessonText('{"format": "kernel-playground scene", "version": 1, "settings": {}, "points": []}'), false);
  assert.equal(isLessonText('{"format": "kernel-playground scene", "points": [ oops'), false);
  assert.equal(isLessonText('{"format": "something else", "scenes": []}'), false, 'another format is not read as a lesson');
  const text = lessonJson(SOFT);
  assert.equal(text, fs.readFileSync(path.join(LESSONS, 'soft-margins.json'), 'utf8'), 'the shipped file is as the lab writes it');
  assert.deepEqual(readLesson(text, readLink), { title: SOFT.title, scenes: SOFT.scenes });
  assert.equal(lessonFileName('Soft margins & kernels!'), 'soft-margins-kernels.json');
  assert.equal(lessonFileName('γ'), 'lesson.json');
});

// ---- in the browser ---------------------------------------------------------------------------

let env;
before(async () => { env = await start(); });
after(async () => env && env.close());

const bar = (page) => page.evaluate(() => ({
  shown: !document.getElementById('lesson-bar').hidden,
  status: document.getElementById('lesson-status').textContent,
  caption: document.getElementById('caption').hidden ? null : document.getElementById('caption-text').textContent,
  message: document.getElementById('message').hidden ? '' : document.getElementById('message').textContent,
  hash: location.hash,
  link: window.kernelPlayground.link,
}));

// Waits until the bar says scene `n` of `total`, and the page has drawn that scene's frame.
async function atScene(page, n, total) {
  await page.waitForFunction((want) => document.getElementById('lesson-status').textContent.endsWith(want), ` · ${n} / ${total}`, { timeout: 20000 });
  await settle(page);
  return bar(page);
}

// Scene `n` (from 1) of the soft-margin lesson is on screen, exactly as its link opens it.
async function showsSoft(page, n) {
  const now = await atScene(page, n, SOFT.scenes.length);
  assert.equal(now.status, `${SOFT.title} · ${n} / ${SOFT.scenes.length}`);
  assert.equal(now.caption, SOFT.scenes[n - 1].caption);
  assert.equal(now.link, SOFT.scenes[n - 1].link, `scene ${n}'s link`);
  assert.equal(now.hash, SOFT.scenes[n - 1].link, 'the address is the scene\'s link');
  assert.equal(now.message, '');
}

const buttonOff = (page, id) => page.evaluate((i) => document.getElementById(i).disabled, id);

test('?lesson= opens the first scene with its caption; Next and Previous, buttons and keys, step', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}index.html?lesson=lessons/soft-margins.json`, { width: 1280, height: 720 });
  await showsSoft(page, 1);
  assert.equal(await buttonOff(page, 'lesson-prev'), true, 'nothing before the first scene');
  assert.equal(await page.isDisabled('#undo'), true, 'the default scene is not an undo step');
  await page.click('#lesson-next');
  await showsSoft(page, 2);
  await page.locator('#plot').focus();
  await page.keyboard.press('PageDown');
  await showsSoft(page, 3);
  await page.keyboard.press('.');
  await showsSoft(page, 4);
  await page.click('#lesson-prev');
  await showsSoft(page, 3);
  await page.keyboard.press('PageUp');
  await showsSoft(page, 2);
  // Each step is an entry of the browser's history: Back returns to the scene shown before
  // (3, Previous was the last step), and the bar follows.
  await page.goBack();
  await showsSoft(page, 3);
  await page.goForward();
  await showsSoft(page, 2);
  await page.keyboard.press(',');
  await showsSoft(page, 1);
  // Typing in a box keeps its keys.
  await page.fill('#lesson-caption', 'a.b');
  await page.focus('#lesson-caption');
  await page.keyboard.press('.');
  assert.equal((await bar(page)).status.endsWith(' · 1 / 10'), true);
  await page.fill('#lesson-caption', '');
  // The last scene: Next is off.
  for (let n = 2; n <= SOFT.scenes.length; n += 1) {
    await page.locator('#plot').focus();
    await page.keyboard.press('PageDown');
    await showsSoft(page, n);
  }
  assert.equal(await buttonOff(page, 'lesson-next'), true);
  // Closing the lesson takes the bar and the caption; the scene stays.
  await page.click('#lesson-close');
  const closed = await bar(page);
  assert.equal(closed.shown, false);
  assert.equal(closed.caption, null);
  assert.equal(closed.link, SOFT.scenes[SOFT.scenes.length - 1].link);
  assert.deepEqual(errors, []);
  await page.close();
});

test('presenter mode keeps the bar and the caption, in the window, and Next still steps', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}index.html?lesson=lessons/soft-margins.json`, { width: 1280, height: 720 });
  await showsSoft(page, 1);
  await page.keyboard.press('p');
  await settle(page);
  const inWindow = (selector) => page.evaluate((s) => {
    const el = document.querySelector(s);
    const r = el.getBoundingClientRect();
    return el.checkVisibility() && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }, selector);
  for (const selector of ['#lesson-bar', '#lesson-next', '#caption', '#plot']) assert.ok(await inWindow(selector), `${selector} in presenter mode`);
  await page.click('#lesson-next');
  await showsSoft(page, 2);
  await page.keyboard.press('PageDown');
  await showsSoft(page, 3);
  assert.ok(await inWindow('#lesson-bar'));
  await page.keyboard.press('p');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the address\'s scene, when it is one of the lesson\'s, stays and is its place (a reload keeps it)', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}index.html?lesson=lessons/soft-margins.json${SOFT.scenes[4].link}`, { width: 1280, height: 720 });
  await showsSoft(page, 5);
  await page.keyboard.press('PageDown');
  await showsSoft(page, 6);
  await page.reload();
  await showsSoft(page, 6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('"Add this scene" and "Save lesson" give a file that opens again to the same scenes', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=xor&n=30&kernel=poly&degree=2`, { width: 1280, height: 720 });
  await settle(page);
  await page.fill('#lesson-title', 'Two scenes');
  await page.fill('#lesson-caption', 'XOR, degree 2');
  await page.click('#lesson-add');
  assert.equal((await atScene(page, 1, 1)).caption, 'XOR, degree 2');
  const first = (await bar(page)).link;
  await page.selectOption('#preset', 'moons');
  await settle(page);
  await page.fill('#lesson-caption', 'the moons');
  await page.press('#lesson-caption', 'Enter');
  const second = await atScene(page, 2, 2);
  assert.equal(second.status, 'Two scenes · 2 / 2');
  assert.notEqual(second.link, first);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#lesson-save')]);
  assert.equal(download.suggestedFilename(), 'two-scenes.json');
  const saved = fs.readFileSync(await download.path(), 'utf8');
  assert.deepEqual(JSON.parse(saved), {
    format: LESSON_FORMAT,
    version: 1,
    title: 'Two scenes',
    scenes: [{ link: first, caption: 'XOR, degree 2' }, { link: second.link, caption: 'the moons' }],
  });
  // Opened again in a new page: the first scene, then the second, exactly.
  const other = await openPage(env.browser, `${env.base}#preset=rings&n=20`, { width: 1280, height: 720 });
  await other.page.setInputFiles('#load-csv', { name: 'two-scenes.json', mimeType: 'application/json', buffer: Buffer.from(saved) });
  const opened = await atScene(other.page, 1, 2);
  assert.equal(opened.link, first);
  assert.equal(opened.caption, 'XOR, degree 2');
  await other.page.click('#lesson-next');
  const next = await atScene(other.page, 2, 2);
  assert.equal(next.link, second.link);
  assert.equal(next.caption, 'the moons');
  // Back returns to the scene before the lesson opened.
  await other.page.goBack();
  await atScene(other.page, 1, 2);
  await other.page.goBack();
  await other.page.waitForFunction(() => window.kernelPlayground.lastFrame.points === 20);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.page.close();
  await page.close();
});

test('a malformed lesson file is one line, and the scene on screen stays', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}#preset=moons&n=30&kernel=linear`, { width: 1280, height: 720 });
  await settle(page);
  const before = (await bar(page)).link;
  const cases = [
    ['broken.json', '{\n  "title": "Broken",\n  "scenes": [\n    { "link": "#model=svm" "caption": "c" }\n  ]\n}',
      /^The lesson broken\.json could not be opened: it is not JSON: line 4, column 28: .+; the scene on screen is unchanged\.$/],
    ['nocaption.json', JSON.stringify({ title: 'T', scenes: [{ link: '#model=svm', caption: 'a' }, { link: '#model=knn' }] }),
      /^The lesson nocaption\.json could not be opened: scene 2: it has no caption; the scene on screen is unchanged\.$/],
    ['refused.json', JSON.stringify({ title: 'T', scenes: [{ link: '#model=svm', caption: 'a' }, { link: '#points=0,0,0;1,x,1', caption: 'b' }] }),
      /^The lesson refused\.json could not be opened: scene 2: its link is refused: its points are damaged: .*'1,x,1'.*; the scene on screen is unchanged\.$/],
  ];
  for (const [name, text, expected] of cases) {
    await page.setInputFiles('#load-csv', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.waitForFunction((n) => document.getElementById('message').textContent.includes(n), name);
    await settle(page);
    const now = await bar(page);
    assert.match(now.message, expected);
    assert.equal(now.link, before, `${name}: the scene stays`);
    assert.equal(now.shown, false, `${name}: no lesson opened`);
    assert.equal((await page.evaluate(() => window.kernelPlayground.lastFrame.points)), 30);
  }
  // A scene whose link leaves a part out opens, and says so, as the link itself does.
  await page.setInputFiles('#load-csv', { name: 'partial.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ title: 'P', scenes: [{ link: '#preset=xor&n=20&foo=1', caption: 'x' }] })) });
  const partial = await atScene(page, 1, 1);
  assert.match(partial.message, /^This link opened, leaving out what this lab does not read: .*'foo'/);
  assert.equal(await page.evaluate(() => window.kernelPlayground.lastFrame.points), 20);
  // A scene file still opens as a scene.
  const scene = await page.evaluate(() => window.kernelPlayground.sceneJson());
  await page.setInputFiles('#load-csv', { name: 'scene.json', mimeType: 'application/json', buffer: Buffer.from(scene.replace('"kernel": "linear"', '"kernel": "rbf"')) });
  await page.waitForFunction(() => document.getElementById('kernel').value === 'rbf');
  assert.equal((await bar(page)).message, '');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a lesson the server does not have is one line, and the page opens as without it', async () => {
  const { page, errors } = await openPage(env.browser, `${env.base}index.html?lesson=lessons/no-such-lesson.json`, { width: 1280, height: 720 });
  await page.waitForFunction(() => !document.getElementById('message').hidden);
  const now = await bar(page);
  assert.equal(now.message, 'The lesson lessons/no-such-lesson.json could not be opened: the server answered 404 Not Found; the scene on screen is unchanged.');
  assert.equal(now.shown, false);
  assert.equal(await page.evaluate(() => window.kernelPlayground.lastFrame.points), 100, 'the default scene');
  // The browser itself logs the failed request; nothing else is an error.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource: .*404/.test(e)), []);
  await page.close();
  // Another site's lesson is not fetched.
  const away = await openPage(env.browser, `${env.base}index.html?lesson=${encodeURIComponent('https://example.org/x.json')}`, { width: 1280, height: 720 });
  await away.page.waitForFunction(() => !document.getElementById('message').hidden);
  assert.match((await bar(away.page)).message, /could not be opened: a lesson is read from this site only;/);
  assert.deepEqual(away.errors, []);
  await away.page.close();
});

test('every shipped lesson\'s every scene opens exactly as its link, with no message', async () => {
  const files = fs.readdirSync(LESSONS).filter((f) => f.endsWith('.json'));
  assert.ok(files.includes('soft-margins.json'), files.join(', '));
  for (const name of files) {
    const shipped = readLesson(fs.readFileSync(path.join(LESSONS, name), 'utf8'), () => {});
    const { page, errors } = await openPage(env.browser, `${env.base}index.html?lesson=lessons/${name}`, { width: 1280, height: 720 });
    for (const [i, scene] of shipped.scenes.entries()) {
      if (i > 0) await page.click('#lesson-next');
      const now = await atScene(page, i + 1, shipped.scenes.length);
      assert.equal(now.message, '', `${name}, scene ${i + 1}: ${now.message}`);
      const frame = await page.evaluate(() => window.kernelPlayground.lastFrame);
      assert.ok(!frame.message, `${name}, scene ${i + 1}: ${frame.message}`);
      assert.equal(now.link, scene.link, `${name}, scene ${i + 1}: the link is the one the page writes`);
      assert.equal(now.caption, scene.caption || null);
    }
    assert.deepEqual(errors, [], name);
    await page.close();
  }
});
