// The lab's one worker behind the page: a module worker on the same wasm that does the work
// the page's thread must not wait for. It serves two kinds of request:
// - 'frame': the plane's model. The page sends its edits since the last request with its
//   scene's fingerprint; this copy of the lab applies them, fits, and sends back the picture
//   of the model (JSON) and the regions (one transferred RGBA buffer). When the fingerprints
//   differ it asks for the whole scene instead. 'inspect' answers the tooltip's question.
// - 'figure': the open view's figure (bytes, see `Figure::to_bytes`), for the views that are
//   drawn from the model rather than from a background job.
// - 'job': a view's background job (the cross-validation grid, the validation curve, the
//   regularisation path) for the scene a URL hash describes, worked in slices of about 20 ms
//   with what it has posted after each, so frame requests are answered in between. A newer
//   job replaces the one under way: only the latest counts.
import init, { FrameWorker, GridWorker } from './pkg/kernel_playground.js';

const ready = init();
let lab = null;
let job = null;

onmessage = async (ev) => {
  await ready;
  const message = ev.data;
  if (message.kind === 'frame') frame(message);
  else if (message.kind === 'inspect') inspect(message);
  else if (message.kind === 'figure') figure(message);
  else startJob(message);
};

function frame({ id, edits, fingerprint, width, height }) {
  if (!lab) lab = new FrameWorker('');
  if (!lab.apply(edits, fingerprint)) {
    postMessage({ kind: 'frame', id, resync: true });
    return;
  }
  postMessage({ kind: 'frame', id, phase: 'fit' });
  const fitMs = lab.fit();
  postMessage({ kind: 'frame', id, phase: 'picture', fitMs });
  const json = lab.frame(width, height, fitMs);
  const regions = lab.take_regions();
  postMessage({ kind: 'frame', id, json, regions }, [regions.buffer]);
}

function inspect({ id, x, y, radius }) {
  if (!lab) return;
  postMessage({ kind: 'inspect', id, json: lab.inspect(x, y, radius) });
}

// The open view's figure from this copy of the lab (which has the page's latest edits: the
// page asks only once the plane has caught up).
function figure({ id, view, width, height }) {
  const bytes = lab ? lab.figure(view, width, height) : new Uint8Array(0);
  postMessage({ kind: 'figure', id, bytes: bytes.buffer }, [bytes.buffer]);
}

function startJob({ id, hash, view, tuned }) {
  if (job) job.work.free();
  try {
    job = { id, work: new GridWorker(hash, view, tuned) };
  } catch (e) {
    job = null;
    postMessage({ kind: 'job', id, error: String(e) });
    return;
  }
  run(job);
}

function run(task) {
  if (job !== task) return;
  const more = task.work.work(20);
  postMessage({ kind: 'job', id: task.id, state: task.work.state() });
  if (more) setTimeout(() => run(task), 0);
}
