// A drag rehearsed once, unseen, so that the visitor's first drag is as quick as the ones after
// it. A point's first drag runs code the page has not run before (moving a point, its edit for
// the worker, the readout of a point held, its disc lifted off the layer of discs), and the
// browser compiles each function of the module, and warms each of its own, on its first call:
// at 10 000 points the first frame of a first drag paid for that with a task of 50–75 ms on the
// benchmark's machine, where the frames after it take well under 50 (docs/BENCHMARKS.md).
// Once the first picture is on screen, the page drags a point of a small scene of its own on a
// canvas nobody sees, one step per idle moment, and throws the scene away. Nothing of it
// reaches the visitor's scene, its history or the worker; a step that fails ends it quietly.

import { App } from './pkg/kernel_playground.js';

const SCENE = '#preset=moons&n=40&noise=0.3&seed=1&model=svm&kernel=rbf&C=1&gamma=1';
const MOVES = 3;

const whenIdle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 100));

export function rehearseDrag() {
  const canvas = document.createElement('canvas');
  canvas.id = 'drag-rehearsal';
  canvas.width = 240;
  canvas.height = 240;
  canvas.hidden = true;
  canvas.setAttribute('aria-hidden', 'true');
  document.body.append(canvas);
  let app = null;
  let at = [0, 0];
  const steps = [
    () => {
      app = new App(canvas.id, SCENE);
      app.render();
    },
    () => {
      at = app.to_pixel(0, 0);
      app.set_highlight(0);
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
    if (app) app.free();
    canvas.remove();
  };
  const next = () => {
    try {
      steps.shift()();
    } catch {
      steps.length = 0;
    }
    if (steps.length) whenIdle(next);
    else end();
  };
  whenIdle(next);
}
