// The worker behind the page (worker.js), one for the whole page: the plane's fitting and
// field, and the views' background jobs, run there so the page's thread keeps the pointer,
// the dragged point and the overlay moving at any number of points.
//
// The plane's client keeps at most one frame request in flight. Edits made meanwhile wait and
// go together with the next request, so a stale picture is never computed: only the latest
// scene counts. A request that edits wait behind is cancelled once it has run LONG_MS (a large
// fit): the worker is stopped and started afresh with the whole scene. The worker itself is
// watched (watch.js): one that stops or fails is restarted, and every side sends its scene again.

import { busyMs, on, onRestart, post, restart } from './watch.js';

export { hasWorker, on, onFailure, onNote, onRestart, post, workerNote, workerState } from './watch.js';

export const LONG_MS = 400;
// A figure slower than SLOW_FIGURE_MS waits until no frame was asked for during QUIET_MS.
const SLOW_FIGURE_MS = 60;
const QUIET_MS = 250;

// The plane's model, computed behind the page for `app()`: `side` 0 is the scene on the left,
// 1 the one on the right when comparing (the worker keeps a copy of the lab for each).
// `painted(current)` runs when a picture arrived (current: for the scene as it stands);
// `progress()` when the state of the request in flight changed.
//
// The open view's figure is computed there too, when `figureWanted()` names a view the worker
// computes ({ view, width, height }, else null): it is asked for once the plane has caught up
// (nothing in flight or waiting), so the plane is never a step behind a view, and
// `figured()` runs when it arrived.
export class FrameClient {
  constructor(side, app, canvas, painted, progress, figureWanted = () => null, figured = () => {}) {
    this.side = side;
    this.app = app;
    this.canvas = canvas;
    this.painted = painted;
    this.progress = progress;
    this.figureWanted = figureWanted;
    this.figured = figured;
    // The figure asked for last (its view, size and the scene's fingerprint) and whether its
    // answer is still to come.
    this.figureKey = null;
    this.figureInFlight = null;
    // How long the last figure took to come (ms), and when the plane was last asked for.
    this.figureMs = 0;
    this.lastRequest = -Infinity;
    this.figureTimer = null;
    this.edits = [];
    this.whole = true;
    this.inFlight = null;
    this.wanted = false;
    this.posted = null;
    // The draft level of the pictures to ask for (www/draft.js; 0: the full picture).
    this.draft = 0;
    this.lastId = 0;
    this.query = null;
    // A new scene was sent from this request id on (its first picture is still to come), or null.
    this.preparingFrom = null;
    // How many long requests edits have cancelled.
    this.cancelled = 0;
    const kind = (k) => (side ? `${k}/${side}` : k);
    on(kind('frame'), (m) => this.receive(m));
    on(kind('inspect'), (m) => this.answer(m));
    on(kind('figure'), (m) => this.adoptFigure(m));
    this.cancelTimer = null;
    // A restarted worker has lost every side's copy: each side sends its whole scene again.
    this.resend = () => {
      this.reset();
      this.request();
    };
    // The page fits the plane itself (a small scene, www/remote.js): nothing is asked.
    this.away = false;
    // How many frames the worker has answered.
    this.framesAnswered = 0;
    onRestart(this.resend);
  }

  // Forgets what is in flight and what waits; the next request sends the whole scene.
  reset() {
    // A figure cut short took at least as long as it ran: next time it waits for a pause.
    if (this.figureInFlight) this.figureMs = Math.max(this.figureMs, performance.now() - this.figureInFlight.started);
    clearTimeout(this.cancelTimer);
    clearTimeout(this.figureTimer);
    this.cancelTimer = null;
    this.figureTimer = null;
    this.inFlight = null;
    this.wanted = false;
    this.whole = true;
    this.edits = [];
    this.figureKey = null;
    this.figureInFlight = null;
  }

  // The side is gone (compare turned off, or a new scene): nothing in flight counts any
  // more, and the worker drops its copy.
  detach() {
    this.reset();
    this.posted = null;
    post({ kind: 'drop', side: this.side });
  }

  // Takes the edits the side's lab recorded since the last time (`Lab.take_edits`, the JSON
  // list of its `playground::Edit`s): they go with the next request, or the whole scene goes
  // when the lab says only that describes what happened (new points).
  pull() {
    const app = this.app();
    if (!app) return;
    const taken = app.take_edits();
    if (taken === undefined) this.resync();
    else if (taken !== '[]' && !this.whole) this.edits.push(taken.slice(1, -1));
  }

  // The lab's edits so far are covered by what the worker's copy gets instead.
  discardEdits() {
    const app = this.app();
    if (app) app.take_edits();
    this.edits = [];
  }

  // The worker's copy was given the page's new scene another way (a file it read itself):
  // nothing is to be sent for it.
  assumeSynced() {
    this.discardEdits();
    this.whole = false;
    this.edits = [];
    this.preparingFrom = this.lastId + 1;
  }

  // The whole scene anew (a file, a link, Clear, Regenerate…).
  resync() {
    this.discardEdits();
    this.whole = true;
    this.preparingFrom = this.lastId + 1;
  }

  // Whether the picture of a new scene (resync) is still to come: what is shown is an older one.
  get preparing() {
    return this.preparingFrom !== null;
  }

  // Something waits behind the request in flight: once the worker has been at that request for
  // LONG_MS, or (not begun yet) at the piece of work it waits behind (the other side's request,
  // a figure, a job), that is cancelled: the worker restarts, this side sends its whole scene
  // first and the others theirs after it.
  armCancel() {
    if (this.cancelTimer) return;
    const working = () => {
      const began = this.inFlight.working;
      return began === undefined ? busyMs() : performance.now() - began;
    };
    this.cancelTimer = setTimeout(() => {
      this.cancelTimer = null;
      // Only a change of the scene cancels (not a hover that asked for a render, nor the
      // full picture wanted after a draft).
      if (!this.inFlight || !this.wanted || !this.changed()) return;
      if (working() < LONG_MS) this.armCancel();
      else if (restart(this.resend)) this.cancelled += 1;
    }, Math.max(0, LONG_MS - working()));
  }

  // The plane's model is the scene's: no request in flight and no edit unsent.
  get planeIdle() {
    return !this.inFlight && !this.wanted && !this.needed();
  }

  // Nothing waits: the plane is idle and no figure is to come.
  get idle() {
    return this.planeIdle && !this.figureInFlight && !this.figureNeeded();
  }

  // The open view's figure to ask for, if the one asked for last is not for it as it stands.
  figureNeeded() {
    const want = this.figureWanted();
    const app = this.app();
    if (!want || !app) return null;
    const key = `${want.view} ${want.width} ${want.height} ${app.fingerprint()}`;
    return key === this.figureKey ? null : { ...want, key };
  }

  // Asks for the open view's figure when the plane has caught up. A figure that took long last
  // time (the ROC view's cross-validated fits at large n) waits until the plane's requests have
  // paused for QUIET_MS, so that it does not hold the next model up in the middle of a drag.
  requestFigure() {
    if (this.inFlight || this.wanted || this.needed() || this.figureInFlight) return;
    const want = this.figureNeeded();
    if (!want) return;
    const quiet = performance.now() - this.lastRequest;
    if (this.figureMs > SLOW_FIGURE_MS && quiet < QUIET_MS) {
      clearTimeout(this.figureTimer);
      this.figureTimer = setTimeout(() => this.requestFigure(), QUIET_MS - quiet);
      return;
    }
    this.figureKey = want.key;
    this.figureInFlight = { id: ++this.lastId, view: want.view, started: performance.now(), app: this.app() };
    post({ kind: 'figure', side: this.side, id: this.figureInFlight.id, view: want.view, width: want.width, height: want.height });
  }

  adoptFigure(m) {
    if (!this.figureInFlight || m.id !== this.figureInFlight.id) return;
    const { view, started, app } = this.figureInFlight;
    this.figureMs = performance.now() - started;
    this.figureInFlight = null;
    // Only for the scene it was asked for (not one opened since).
    if (this.app() === app && m.bytes.byteLength > 0) this.app().adopt_figure(view, new Uint8Array(m.bytes));
    this.figured();
    this.requestFigure();
  }

  // How long the request in flight has run (ms) and what it is doing, or null.
  get running() {
    return this.inFlight ? { ms: performance.now() - this.inFlight.started, phase: this.inFlight.phase } : null;
  }

  // Whether the worker is to be asked for a picture: the scene changed (the lab's new edits
  // taken first), or a draft is shown and the full picture is now wanted.
  needed() {
    if (!this.app()) return false;
    return this.changed() || Boolean(this.posted && this.posted.draft && !this.draft);
  }

  // Whether the scene changed since the last picture asked for.
  changed() {
    const app = this.app();
    if (!app) return false;
    this.pull();
    if (this.whole || this.edits.length) return true;
    const p = this.posted;
    return !p || p.fingerprint !== app.fingerprint() || p.width !== this.canvas.width || p.height !== this.canvas.height;
  }

  // The page fits the plane itself from now on: what is in flight no longer counts and the
  // worker drops its copy.
  leave() {
    this.detach();
    this.away = true;
  }

  // The page gives the plane back: the worker's copy starts from the whole scene, and until
  // its first picture comes the page's last one stays (`Lab.hand_back`), not "preparing".
  takeBack() {
    this.away = false;
    this.reset();
    this.discardEdits();
  }

  // The scene may have changed: ask for its picture (now, or when the one in flight is back).
  request() {
    if (this.away) return;
    if (this.inFlight) {
      this.wanted = true;
      this.armCancel();
      return;
    }
    if (!this.needed()) {
      this.requestFigure();
      return;
    }
    const app = this.app();
    const edits = this.whole ? [app.whole_scene()] : this.edits;
    this.whole = false;
    this.edits = [];
    this.wanted = false;
    const id = ++this.lastId;
    this.lastRequest = performance.now();
    this.posted = { fingerprint: app.fingerprint(), width: this.canvas.width, height: this.canvas.height, draft: this.draft };
    this.inFlight = { id, started: performance.now(), phase: 'sent' };
    post({ kind: 'frame', side: this.side, id, edits: `[${edits.join(',')}]`, ...this.posted });
    this.progress();
  }

  receive(m) {
    if (this.away || !this.inFlight || m.id !== this.inFlight.id) return;
    if (m.phase) {
      // The worker has begun this request (it may have waited behind another).
      if (this.inFlight.working === undefined) this.inFlight.working = performance.now();
      this.inFlight.phase = m.phase;
      this.progress();
      return;
    }
    clearTimeout(this.cancelTimer);
    this.cancelTimer = null;
    // From posting the request to its answer: the worker's frame and the messages' way.
    this.requestMs = performance.now() - this.inFlight.started;
    this.inFlight = null;
    if (!m.resync && this.preparingFrom !== null && m.id >= this.preparingFrom) this.preparingFrom = null;
    if (m.resync) {
      this.whole = true;
      this.request();
      return;
    }
    // The side may have gone meanwhile (compare turned off).
    if (!this.app()) {
      this.wanted = false;
      return;
    }
    this.framesAnswered += 1;
    const current = this.app().adopt_frame(new Uint8Array(m.json), new Uint8Array(m.regions));
    this.painted(current);
    if (this.wanted || this.needed()) {
      this.wanted = false;
      this.request();
    } else {
      this.requestFigure();
    }
    this.progress();
  }

  // Asks what is at data point (x, y) within `radius` of the model; `answered(info)` gets
  // the answer if it is for the scene as it stands when it comes.
  inspect(x, y, radius, answered) {
    if (!this.planeIdle) return;
    this.query = { id: ++this.lastId, answered };
    post({ kind: 'inspect', side: this.side, id: this.query.id, x, y, radius });
  }

  answer(m) {
    if (!this.query || m.id !== this.query.id) return;
    const { fingerprint, info } = JSON.parse(m.json);
    if (this.app() && fingerprint === this.app().fingerprint()) this.query.answered(info);
    this.query = null;
  }
}
