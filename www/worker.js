// The lab's background work off the page's thread: a module worker that loads the same wasm
// and computes a view's job (the cross-validation grid, the validation curve, the
// regularisation path) for the scene a URL hash describes, posting what it has every few tens
// of milliseconds. A newer request replaces the one under way: only the latest counts.
import init, { GridWorker } from './pkg/kernel_playground.js';

const ready = init();
let current = null;

onmessage = async (ev) => {
  await ready;
  const { id, hash, view, tuned } = ev.data;
  if (current) current.job.free();
  try {
    current = { id, job: new GridWorker(hash, view, tuned) };
  } catch (e) {
    current = null;
    postMessage({ id, error: String(e) });
    return;
  }
  run(current);
};

function run(task) {
  if (current !== task) return;
  const more = task.job.work(40);
  postMessage({ id: task.id, state: task.job.state() });
  if (more) setTimeout(() => run(task), 0);
}
