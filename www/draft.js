// Drafts on a slow device. When the full picture's field, curves and marks took longer than
// DRAFT_ABOVE_MS, the pictures asked for while edits keep coming are drafts: the field on a
// grid of half as many nodes a side (a quarter of them; `Layout::draft` in Rust), so that a
// dragged point or a slider is answered in the next frame. SHARPEN_AFTER_MS after the last
// edit the full picture follows. A device that draws the full picture in time never sees a
// draft, and a draft is never drawn where the full picture of the scene is at hand.

import { page } from './page.js';

// Half a frame at 60 Hz: the painting and the overlay take about as much again.
const DRAFT_ABOVE_MS = 8;
const SHARPEN_AFTER_MS = 150;

// The last full picture took longer than DRAFT_ABOVE_MS.
let slow = false;
let sharpenTimer = null;

// Whether the pictures asked for now are drafts.
export const drafting = () => sharpenTimer !== null;

function setDraft(on) {
  for (const app of [page.app, page.twin]) if (app) app.set_draft(on);
  for (const client of [page.client, page.clientB]) if (client) client.draft = on;
}

// Something changed: on a slow device the next pictures are drafts until the edits pause,
// then `redraw` asks for the full one.
export function editing(redraw) {
  if (!slow) return;
  setDraft(true);
  clearTimeout(sharpenTimer);
  sharpenTimer = setTimeout(() => {
    sharpenTimer = null;
    setDraft(false);
    redraw();
  }, SHARPEN_AFTER_MS);
}

// A frame was painted: one whose full picture was computed for it tells how long the full
// picture takes (`scene_ms`: the field, its curves and the marks, wherever computed). For the tests, the hooks may
// say the device is slow or not whatever the frames took.
export function measured(frame) {
  // A frame whose picture was at hand (a hover) says nothing of what a picture costs.
  if (!frame || !frame.computed || frame.draft) return;
  slow = forced ?? frame.scene_ms > DRAFT_ABOVE_MS;
}

let forced = null;
export function forceSlow(on) {
  forced = on;
  slow = on ?? slow;
}
