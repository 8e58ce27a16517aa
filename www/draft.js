// Drafts on a slow device. When the full picture's field, curves and marks took longer than
// its share of a frame (DRAFT_ABOVE_MS, or less where the fit and the painting leave less,
// never under DRAFT_FLOOR_MS),
// the pictures asked for while edits keep coming are drafts: the field on a
// grid of half as many intervals a side (a quarter of the nodes; `Layout::draft` in Rust), or
// a third (a ninth) where even the half would take longer, so that a dragged point or a slider
// is answered in the next frame. SHARPEN_AFTER_MS after the last edit the full picture
// follows. A device that draws the full picture within DRAFT_FLOOR_MS never sees a draft,
// however long its fits take, and a draft is
// never drawn where the full picture of the scene is at hand.

import { page } from './page.js';

// A frame at 60 Hz, and a picture's share of it: at most half (the page's own work on a
// frame outside the module — the legend, the controls — is not timed in the frame), less
// what the fit, the painting and the status line took (a fit is never drafted), but never
// under DRAFT_FLOOR_MS: where the fit alone fills the frame, a coarser picture cannot bring
// the frame back in time, and a quick picture is left whole.
const FRAME_MS = 16;
const DRAFT_ABOVE_MS = 8;
const DRAFT_FLOOR_MS = 4;
const SHARPEN_AFTER_MS = 150;

// The draft level edits are answered with: 0 none (the full picture is in time), 1 half the
// intervals a side, 2 a third (Rust's DRAFT_LEVELS).
const LEVELS = 2;
let level = 0;
// The last picture of each level: its `scene_ms` and when; trusted for RECENT_MS.
const recent = Array(LEVELS + 1).fill(null);
const RECENT_MS = 2000;
let sharpenTimer = null;

// Whether the pictures asked for now are drafts.
export const drafting = () => sharpenTimer !== null;

function setDraft(draft) {
  for (const app of [page.app, page.twin]) if (app) app.set_draft(draft);
  for (const client of [page.client, page.standby, page.clientB]) if (client) client.draft = draft;
}

// Something changed: on a slow device the next pictures are drafts until the edits pause,
// then `redraw` asks for the full one.
export function editing(redraw) {
  if (!level) return;
  setDraft(level);
  clearTimeout(sharpenTimer);
  sharpenTimer = setTimeout(() => {
    sharpenTimer = null;
    setDraft(0);
    redraw();
  }, SHARPEN_AFTER_MS);
}

// A frame was painted: one whose picture was computed for it tells how long a picture takes
// (`scene_ms`: the field, its curves and the marks, wherever computed), and so the level to
// draft at: the finest whose picture would be in time. A level's cost is predicted from this
// picture's, a field's nodes going as the square of its intervals a side, or, where a picture
// of that level was measured in the last RECENT_MS and took longer, that (the marks and curves
// do not shrink with the grid). For the tests, the hooks may set the level (true: 1) whatever
// the frames took.
export function measured(frame) {
  // A frame whose picture was at hand (a hover) says nothing of what a picture costs.
  if (!frame || !frame.computed || forced !== null) return;
  const at = frame.draft_level || 0;
  const now = performance.now();
  recent[at] = { ms: frame.scene_ms, when: now };
  const seen = recent.map((r) => (r && now - r.when <= RECENT_MS ? r.ms : 0));
  level = levelFor(frame.scene_ms, at, seen, pictureBudget(frame));
}

// What a picture may take in a frame like `frame`: half a frame, or what is left of the
// frame after its fit (when it refitted), the rest of its drawing (on the page, painting the
// regions and the overlay; in the worker, the regions' image) and its status line, if that is
// less, but at least DRAFT_FLOOR_MS.
export function pictureBudget(frame) {
  const fit = frame.refit ? frame.fit_ms || 0 : 0;
  const painting = Math.max(0, (frame.draw_ms || 0) - (frame.scene_ms || 0)) + (frame.status_ms || 0);
  return Math.min(DRAFT_ABOVE_MS, Math.max(DRAFT_FLOOR_MS, FRAME_MS - fit - painting));
}

// The draft level for pictures that take `sceneMs` at draft level `at`, given what pictures
// of each level took lately (`seen[k]`, 0 where unknown) and what a picture may take.
export function levelFor(sceneMs, at, seen = [], budget = DRAFT_ABOVE_MS) {
  const cost = (k) => Math.max(sceneMs * ((at + 1) / (k + 1)) ** 2, seen[k] || 0);
  let k = 0;
  while (k < LEVELS && cost(k) > budget) k += 1;
  return k;
}

let forced = null;
export function forceSlow(on) {
  forced = on ?? null;
  if (on !== null) level = Math.min(LEVELS, Number(on));
}
