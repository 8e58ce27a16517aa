// A drag rehearsed once, unseen, so that the visitor's first drag is as quick as the ones after
// it. A point's first drag runs code the page has not run before (moving a point, its edit for
// the worker, the readout of a point held, its disc lifted off the layer of discs), and the
// browser compiles each function of the module, and warms each of its own, on its first call:
// at 10 000 points the first frame of a first drag paid for that with a task of 50–75 ms on the
// benchmark's machine, where the frames after it take well under 50 (docs/BENCHMARKS.md).
// Once the first picture is on screen, the page drags a point of a small scene of its own on a
// canvas nobody sees, one short step per idle moment (the visitor's input goes first), and
// throws the scene away. The scene is the page's task, method and settings on 40 points, so
// the code the visitor's own method draws with is the code rehearsed. Nothing of it reaches the
// visitor's scene, its history or the worker; a step that fails ends it quietly.

import { Lab } from './pkg/kernel_playground.js';
import { sideOf } from './page.js';

const FALLBACK = '#preset=moons&n=40&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1';
const MOVES = 3;
// What of the page's link the rehearsal leaves out: the visitor's points and names, the views
// and the comparison; the link's preset, or for points of its own the task's first preset,
// stands in for them.
const LEFT_OUT = new Set(['points', 'names', 'views', 'v', 'compare', 'preset', 'n', 'seed']);
const PRESET = { classification: 'moons', regression: 'sine', novelty: 'blob' };

// The next step at the next idle moment, and within a quarter of a second at the latest.
const whenIdle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 250 }) : setTimeout(fn, 20));

// What the rehearsal did, for the browser tests: the link it opened, how many steps it took
// and, when one failed, why (it ends there).
export const rehearsal = { scene: null, steps: 0, error: null, done: false };

// The rehearsal's link: the page's own (`hash`, as `Lab.link` writes it) on 40 points.
function rehearsalScene(hash) {
  const pairs = hash.replace(/^#/, '').split('&').filter(Boolean);
  const value = (key) => pairs.find((p) => p.split('=')[0] === key)?.split('=')[1];
  const kept = pairs.filter((p) => !LEFT_OUT.has(p.split('=')[0]));
  // A scene of points of its own names a preset only as the one its menu shows.
  const ofTask = PRESET[value('task') ?? 'classification'] ?? 'moons';
  const preset = value('points') === undefined ? value('preset') ?? ofTask : ofTask;
  return `#${[`preset=${preset}`, 'n=40', 'seed=1', ...kept].join('&')}`;
}

export function rehearseDrag(hash = '') {
  const canvas = document.createElement('canvas');
  canvas.id = 'drag-rehearsal';
  canvas.width = 240;
  canvas.height = 240;
  canvas.hidden = true;
  canvas.setAttribute('aria-hidden', 'true');
  document.body.append(canvas);
  let lab = null;
  let app = null;
  let at = [0, 0];
  const steps = [
    () => {
      rehearsal.scene = rehearsalScene(hash);
      try {
        lab = new Lab(canvas.id, '', rehearsal.scene);
      } catch {
        rehearsal.scene = FALLBACK;
        lab = new Lab(canvas.id, '', FALLBACK);
      }
      app = sideOf(lab, 0);
      app.render();
    },
    () => {
      at = app.to_pixel(0, 0);
      if (app.in_plot(at[0], at[1])) app.point_at(at[0], at[1], 10);
      app.set_pointer(at[0], at[1]);
      lab.set_highlight(0);
      app.inspect(at[0], at[1], 10);
      app.render();
    },
  ];
  for (let i = 1; i <= MOVES; i += 1) {
    steps.push(() => {
      app.move_point(0, at[0] + 4 * i, at[1] + 2 * i);
      app.take_edits();
      app.inspect(at[0] + 4 * i, at[1] + 2 * i, 10);
      app.render();
    });
  }
  const end = () => {
    if (lab) lab.free();
    canvas.remove();
  };
  const next = () => {
    try {
      steps.shift()();
      rehearsal.steps += 1;
    } catch (error) {
      rehearsal.error = String(error?.message ?? error);
      steps.length = 0;
    }
    if (steps.length) whenIdle(next);
    else {
      end();
      rehearsal.done = true;
    }
  };
  whenIdle(next);
}
