// The size check of the page's WebAssembly, run by scripts/test.sh after the wasm build: fails
// when the built module, gzipped at level 6 (Node's zlib; GNU `gzip -6` makes it about 5 KB
// smaller), is larger than BUDGET_BYTES. Every byte is downloaded and compiled on a student's
// phone before the first plot: at 1.6 Mbit/s each 100 KB is half a second.
//
// The budget sits just above the module's size when it was last set (796 KB in this measure:
// 658 KB, then 22 KB for Bayesian logistic regression, the class-means method, the hulls layer,
// the lecture examples and the explanation of every control; then 13 KB for multinomial
// (softmax) logistic regression, 22 KB for "Export as Python" (every method's scikit-learn
// counterpart with its mapping in words, and the script writer) and 19 KB for learning
// curves, the σ slider, the notes' polynomial kernel and the large-scene painting, 6 KB for
// the model-choice view, then 6 KB for kernels built by rule (the expression's reader, its
// derivative for the hover and its Python form) and 12 KB for ν-SVC (LIBSVM's ν solver, its
// ν-property and its export), less 8 KB won back by reading the edits by hand, then 2.5 KB for
// evaluating a kernel built by rule on 64 points at once (its frame at n = 500 halved), then
// 5.4 KB for that kernel on the plane's lattice (its sum taken apart, its RBF bases factorised
// per axis: the scene at n = 500 nine times faster) and charts whose panels stand side by side
// (the model-choice view's second panel at 1280 × 720), then 10.5 KB for the regression task
// (the task in settings and links, kernel ridge regression as a model of the plane with its
// own trait impl, four presets, RMSE and R², the legend's regression words), 8 KB for ε-SVR
// and ν-SVR (LIBSVM's general SMO on 2n variables, the tube, its marks and slack), 11 KB for
// the least-squares and exact least-absolute lines and the one-class SVM of novelty detection
// (its solver, its model of the plane, a preset, the legend's words), 6 KB for the views of
// those tasks (the residual losses and the one-class slack with their ticks, R² in the grid
// and the curves, their inputs in the Gram matrix, the one-class SVM's 3-D surface, and a
// sentence in the picture for every view that does not apply), 1.7 KB for the support
// vector regressions' warm starts (their kept columns and multipliers, the repair of a start
// after a ν step: ν-SVR's refit at n = 500 back inside a 60 Hz frame), then 17.5 KB for
// svm-toy's world and the rest of issue 19 (the svm-train option strings read and written,
// 6.7 KB; each task's files, 1.6 KB; regression and novelty scenes exported as Python; the
// Gaussian-process band and the gradient iteration of kernel ridge regression; the SVR
// hover's KKT case) and the page's translator hook for the views' headlines; then 1 KB for
// the first drag of a large scene inside 50 ms (the dragged disc lifted off its layer by
// repainting one square; the canvas's own pen for squares, rings and lines, which sets a style
// only when it changes), less 0.4 KB for the name and producers sections left out, then
// 2 KB for the curves' labels placed clear of the points, where their curve runs level, and
// drawn over them (an ε-tube's f ± ε sat under the points on a phone), then 4 KB for a 50 MB
// file taken without a long task (what the frames keep of the points computed a walk per
// task and kept by the points' own version, their discs listed ahead, the last scene's
// points reused by the next model's, its passes made 8192 points to a call), less 2 KB when each
// method's rows moved into its own file (the settings' readers kept out of line), then 1 KB for
// the comparison's link written by the lab (`lab::link::write`), then 1.1 KB when the methods'
// marks became an open list of drawing primitives (each method's marks built in its own file,
// drawn by kind of primitive, travelling as numbers and words: their derived form cost 37 KB),
// then 0.9 KB for a chart's legend set beside its plot when inside it would hide the curves
// (the loss view's seven at 1280 × 720), and 1.2 KB for its corner chosen where it hides the
// fewest of the lines, then 0.3 KB when each task's words for the plane's own marks moved into
// `core::task` (826.0 KB, a few bytes under 826: raised to 827 for a margin), then 4.2 KB for
// the page's session in one place (`lab::Comparison` of both sides, the history and the rule of
// a comparison, and one `Lab` handle whose calls of a side take its number: 830.2 KB; then
// 830.5 with the one-versus-one vote in one pass, 830.8 with drafts at levels), then 2.7 KB
// for a slow device's fits (833.5 KB: Newton for logistic regression and softmax started from
// the last θ, Bayesian logistic regression's BIC kept across λ, the SVRs' and one-class SVM's
// training values read from their solvers, the sampled boundaries coarsened in a draft: the
// frame benchmark's rows at CPU 4× within 16 ms, the one-class SVM's drag at the line), then
// 1.2 KB for the plane's points sent by the worker as their bits in base64 (834.5 KB: reading
// a frame at n = 500 took the page's thread 1.6–1.7 ms at CPU 4×, now 0.9–1.0), then 1 KB for
// the page's last picture and view figure kept for a worker taking the plane back (a small scene
// fitted on the page, www/remote.js); lowered to 826 when the settings, class names and status
// built their maps by insertion, not `collect` (which sorts: four copies of the stable sort,
// 28 KB raw, 10.2 KB gzipped; 825.3 KB), then to 788 when "Save SVG" had the browser write
// its regions' PNG file (the `png` crate and its deflate left the module: 67 KB raw, 37.7 KB
// gzipped; 787.6 KB), then to 789 for a 50 MB file's points without a walk of them all in one
// task on the page's thread (1.2 KB: the training set left as the points when none is held out,
// the discs listed ahead in shares, the scene over the points composed in two steps, the legend
// in one pass and the class choices kept; 788.8 KB), then to 791 on 2026-11-30 for what a
// new user's try found (1.6 KB: slack segments that go up f to their margin by halved Newton
// steps or are not drawn, a file's class names kept in its link, a view's note saying when its
// panels did not fit; 790.5 KB), then to 792 for a 50 MB file's colours and scene copied a
// share at a time, neither a task's time nor the fresh memory it touches growing with the
// file, the discs' batches of 256 and the classes present found as bits (1.0 KB; 791.5 KB);
// each raised on purpose, against the goal
// of a smaller module: what only the command line or an export needs belongs in a module of
// its own, loaded when asked for).
// To raise it deliberately: measure the new size (this script prints it), say in the commit why
// the page needs the bytes, and change BUDGET_BYTES here and the figures in docs/BENCHMARKS.md
// ("The module's size") and the README's "Deploying". When the module shrinks, lower it.
//   node scripts/check-wasm-size.mjs [path to the .wasm]   (default: site's, after build-web.sh)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const BUDGET_BYTES = 792_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] || path.join(here, '..', 'site', 'www', 'pkg', 'kernel_playground_bg.wasm');
let raw;
try {
  raw = fs.readFileSync(file);
} catch (e) {
  console.error(`wasm size check: cannot read ${file} (${e.message}); run scripts/build-web.sh first`);
  process.exit(1);
}
const gzipped = zlib.gzipSync(raw, { level: 6 }).length;
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const line = `${path.basename(file)}: ${kb(raw.length)} raw, ${kb(gzipped)} gzipped (level 6); budget ${kb(BUDGET_BYTES)} gzipped`;
if (gzipped > BUDGET_BYTES) {
  console.error(`wasm size check FAILED: ${line}.`);
  console.error('Cut what grew, or raise the budget deliberately (see the top of scripts/check-wasm-size.mjs).');
  process.exit(1);
}
console.log(`wasm size check: ${line}`);
