// Kernel Playground's page: starts the wasm lab and wires the DOM's events to the page's
// modules. All the maths, the scenes and the drawing live in Rust (src/); the page's modules
// translate events into Lab calls and Lab answers into text, around one state (page.js):
//   page.js      the state, the message line, the sides of a comparison
//   scenes.js    opening scenes, compare, settle, undo and redo, the address
//   edits.js     the controls, typed values, the points table and the plot's window
//   pointer.js   mouse, pen and touch on the plots, and the hover readout
//   keyboard.js  keys on the plot and the page's shortcuts, presenter mode
//   frame.js     drawing a frame, the status line, stepping through a run
//   remote.js    the worker behind the page, from the page's side
//   files.js     loading and saving files, copying the link
//   examples.js  the lectures' worked examples in the preset menu, with their captions
//   lessons.js   lessons: a list of scenes with captions, stepped through (lesson-file.js)
//   folds.js     the panel's folds, remembered across visits
//   hooks.js     window.kernelPlayground, for the tests and the benchmark
//   rehearsal.js a drag rehearsed unseen, so that the first one is as quick as the rest
//   embed.js     the lab in a host page's frame (?embed=1): its layout and its messages

import { t, translateCatalogue } from './i18n.js'; // first: the page's words (top-level await)
import { translatePictures, translateSvg } from './i18n-pictures.js';
import init, { Lab } from './pkg/kernel_playground.js';
import { cancelLoad } from './bigfile.js';
import { wireClasses } from './classes.js';
import { buildControls, keyed, syncControls } from './controls.js';
import { entry, onControl, plotWindow, pointsTable, toggleView } from './edits.js';
import { PlotWindow, wireReadouts } from './entry.js';
import { listExamples } from './examples.js';
import { embedControls, startEmbed } from './embed.js';
import { copyLink, download, loadFile } from './files.js';
import { wireFolds } from './folds.js';
import { repaint, requestRender, resizeCanvas, stepOnce, stopPlaying, togglePlay } from './frame.js';
import { keptScene, offerKept, wireTravel } from './history.js';
import { cursor, onCanvasKey, onGlobalKey, togglePresenter, toggleShortcuts } from './keyboard.js';
import { lessonInAddress, openAddressLesson, wireLessons } from './lessons.js';
import { $, controlled, guard, page } from './page.js';
import { hideTooltip, onPointerDown, onPointerMove, onPointerUp, onTouchStart, setHighlight } from './pointer.js';
import { startClient } from './remote.js';
import { compileWasm } from './wasm.js';
import { rehearseDrag } from './rehearsal.js';
import { wireSvmOptions } from './svm-options.js';
import { shareModule } from './watch.js';
import { chooseSide, currentScene, newEntry, openFromHash, openScene, redo, remember, startHistory, replaceScene, settle, toggleCompare, tooLargeEntry, undo } from './scenes.js';
import './hooks.js';
import { buildTabs, clickView, endDrag, hoverView, keyView, moveDrag, pointInView, startDrag, whenColumnResized } from './views.js';

const canvas = $('plot');

// ---- start --------------------------------------------------------------------------------

function wire() {
  // Before the plots' own pointer handlers: the window takes pans and pinches. Both sides
  // share one window, and their canvases one size, so the left's mapping serves both.
  plotWindow.wire();
  new PlotWindow(entry, $('plot-b')).wire(false);
  wireReadouts(entry);
  pointsTable.wire();
  for (const el of keyed()) {
    const event = el.tagName === 'SELECT' || el.type === 'checkbox' || el.type === 'number' ? 'change' : 'input';
    el.addEventListener(event, () => onControl(el));
    el.addEventListener('change', settle);
  }
  wireClasses($('class-buttons'));
  $('regenerate').addEventListener('click', () => { newEntry(); page.lab.regenerate(); settle(); });
  $('clear').addEventListener('click', () => { newEntry(); page.lab.clear(); hideTooltip(); settle(); });
  $('compare').addEventListener('change', (ev) => toggleCompare(ev.target.checked));
  for (const b of document.querySelectorAll('[data-edit-side]')) {
    b.addEventListener('click', () => chooseSide(Number(b.dataset.editSide)));
  }
  const plotB = $('plot-b');
  plotB.addEventListener('touchstart', onTouchStart, { passive: false });
  plotB.addEventListener('pointerdown', onPointerDown);
  plotB.addEventListener('pointermove', onPointerMove);
  plotB.addEventListener('pointerup', onPointerUp);
  plotB.addEventListener('pointercancel', onPointerUp);
  plotB.addEventListener('pointerleave', () => {
    if (page.dragging === null) { hideTooltip(); setHighlight(-1); }
    if (page.twin && page.twin.clear_pointer()) repaint();
  });
  plotB.addEventListener('contextmenu', (ev) => ev.preventDefault());
  $('undo').addEventListener('click', undo);
  $('presenter').addEventListener('click', togglePresenter);
  $('show-shortcuts').addEventListener('click', toggleShortcuts);
  $('redo').addEventListener('click', redo);
  for (const b of document.querySelectorAll('[data-bump]')) {
    b.addEventListener('click', () => {
      const input = $(b.dataset.bump);
      input.value = String((Number(input.value) || 0) + 1);
      onControl(input);
    });
  }
  const viewCanvas = $('view');
  viewCanvas.addEventListener('pointerdown', (ev) => { if (page.app) guard(() => startDrag(page.app, ev)); });
  viewCanvas.addEventListener('pointerup', endDrag);
  viewCanvas.addEventListener('pointercancel', endDrag);
  viewCanvas.addEventListener('keydown', (ev) => { if (page.app) guard(() => keyView(page.app, ev)); });
  viewCanvas.addEventListener('pointermove', (ev) => {
    if (!page.app || guard(() => moveDrag(page.app, ev))) return;
    setHighlight(pointInView(page.app, ev));
    guard(() => hoverView(page.app, ev));
  });
  viewCanvas.addEventListener('pointerleave', () => { setHighlight(-1); $('view-hover').textContent = ''; });
  viewCanvas.addEventListener('click', (ev) => {
    if (!page.app || !guard(() => clickView(page.app, ev))) return;
    // The click set the left side's settings (its lab records them for the worker's copy).
    syncControls(controlled());
    settle();
  });
  $('loading-file-cancel').addEventListener('click', () => cancelLoad(t('bigfile.cancelled')));
  $('load-csv').addEventListener('change', (ev) => {
    const file = ev.target.files[0];
    if (file) loadFile(file);
    ev.target.value = '';
  });
  $('save-csv').addEventListener('click', () => download('points.csv', new Blob([page.app.csv()], { type: 'text/csv' })));
  $('save-libsvm').addEventListener('click', () => download('points.libsvm', new Blob([page.app.libsvm()], { type: 'text/plain' })));
  $('save-python').addEventListener('click', () => download('kernel-playground.py', new Blob([page.app.python()], { type: 'text/x-python' })));
  $('save-scene').addEventListener('click', () => download('scene.json', new Blob([page.app.scene_json()], { type: 'application/json' })));
  $('save-png').addEventListener('click', () => canvas.toBlob((blob) => download('kernel-playground.png', blob)));
  // "Save SVG" embeds the regions' bitmap as a PNG file, which the browser writes (the module
  // carries no PNG encoder): RGB, 3 bytes a pixel, in; the file in base64 out. Lossless, every
  // pixel opaque.
  globalThis.kernelPlaygroundPng = (rgb, width, height) => {
    const png = document.createElement('canvas');
    png.width = width;
    png.height = height;
    const context = png.getContext('2d');
    const image = context.createImageData(width, height);
    for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
      image.data[j] = rgb[i];
      image.data[j + 1] = rgb[i + 1];
      image.data[j + 2] = rgb[i + 2];
      image.data[j + 3] = 255;
    }
    context.putImageData(image, 0, 0);
    return png.toDataURL('image/png').slice('data:image/png;base64,'.length);
  };
  $('save-svg').addEventListener('click', () => {
    const svg = guard(() => page.app.svg('', canvas.width, canvas.height));
    if (svg) download('kernel-playground.svg', new Blob([translateSvg(svg)], { type: 'image/svg+xml' }));
  });
  // A file dropped on the plot loads as if chosen with the button.
  const wrap = document.querySelector('.canvas-wrap');
  wrap.addEventListener('dragover', (ev) => { ev.preventDefault(); wrap.classList.add('dropping'); });
  wrap.addEventListener('dragleave', () => wrap.classList.remove('dropping'));
  wrap.addEventListener('drop', (ev) => {
    ev.preventDefault();
    wrap.classList.remove('dropping');
    const file = ev.dataTransfer && ev.dataTransfer.files[0];
    if (file) loadFile(file);
  });
  $('copy-link').addEventListener('click', copyLink);

  canvas.addEventListener('touchstart', onTouchStart, { passive: false });
  canvas.addEventListener('pointerdown', onPointerDown);
  canvas.addEventListener('pointermove', onPointerMove);
  canvas.addEventListener('pointerup', onPointerUp);
  canvas.addEventListener('pointercancel', onPointerUp);
  canvas.addEventListener('pointerleave', () => {
    if (page.dragging === null) { hideTooltip(); setHighlight(-1); }
    if (page.app.clear_pointer()) repaint();
  });
  $('step').addEventListener('click', () => { stopPlaying(); stepOnce(); });
  $('play').addEventListener('click', togglePlay);
  $('step-reset').addEventListener('click', () => {
    stopPlaying();
    controlled().reset_steps();
    requestRender();
  });
  $('step-finish').addEventListener('click', () => {
    stopPlaying();
    controlled().finish_steps();
    requestRender();
  });
  canvas.addEventListener('contextmenu', (ev) => ev.preventDefault());
  canvas.addEventListener('keydown', onCanvasKey);
  canvas.addEventListener('blur', () => { cursor.hidden = true; });
  document.addEventListener('keydown', onGlobalKey);
  wireTravel(openFromHash, tooLargeEntry);
  // The language menu switched live (www/i18n.js): the plots and the open view draw their words again.
  window.addEventListener('kernel-playground-language', () => {
    for (const app of [page.app, page.twin]) if (app) app.forget_painted();
    requestRender();
  });
  const resized = new ResizeObserver(() => { resizeCanvas(); repaint(); });
  whenColumnResized(repaint);
  resized.observe(canvas);
  resized.observe(plotB);
  // Where the plot stays at the top of the screen (a phone upright), what is scrolled into
  // view, a control reached with Tab or a found slider, stops under it, not behind it.
  const stage = canvas.closest('.stage');
  new ResizeObserver(() => {
    const sticky = getComputedStyle(stage).position === 'sticky';
    document.documentElement.style.scrollPaddingTop = sticky ? `${stage.offsetHeight}px` : '';
  }).observe(stage);
}

// The last visit's scene, opened as its link would be (an undo step back to the default).
function restoreKept(link) {
  if (replaceScene('#' + link)) remember();
}

// How much of the module has arrived, on the plot while it loads ("Loading the lab… 40%").
function showLoadedShare(share) {
  const words = $('loading').firstElementChild;
  const text = t('text.loading-share', Math.floor(100 * share));
  if (words && words.textContent !== text) words.textContent = text;
}

async function start() {
  // One compiled module for the page and the worker behind it (wasm.js); the worker starts
  // while it downloads and is handed it once compiled.
  const module = compileWasm(showLoadedShare);
  shareModule(module);
  startClient();
  try {
    await init({ module_or_path: await module });
  } catch (e) {
    console.warn('WebAssembly failed to start:', e);
    // The build's picture of the first scene would look like a lab that works.
    document.getElementById('first-picture')?.remove();
    $('loading').textContent = e && e.damaged ? t('load.damaged') : t('load.failed');
    return;
  }
  resizeCanvas();
  translatePictures(Lab);
  const catalogue = translateCatalogue(JSON.parse(Lab.catalogue()));
  buildControls(catalogue);
  listExamples(catalogue);
  wireFolds();
  buildTabs(catalogue, toggleView);
  embedControls(catalogue); // embedded (?embed=1): only the named controls
  if (!openScene(location.hash)) return;
  $('loading').style.display = 'none';
  startHistory();
  wire();
  wireLessons();
  wireSvmOptions();
  openAddressLesson();
  startEmbed(); // embedded: the host's messages are taken from now on
  // A visit without a link is offered the scene the last one left (an opened link or lesson wins).
  const kept = location.hash === '' && !lessonInAddress() ? keptScene() : null;
  if (kept && kept !== currentScene()) offerKept(restoreKept.bind(null, kept));
  // The first drag as quick as the rest: rehearsed unseen once the first picture is shown, on
  // the page's own task and method (a scene too large for a link rehearses the default one).
  window.addEventListener('kernel-playground-frame', () => {
    // The lab's own picture is on the canvas: the one drawn at the build (index.html) goes.
    document.getElementById('first-picture')?.remove();
    rehearseDrag(typeof currentScene() === 'string' ? currentScene() : '');
  }, { once: true });
  requestRender();
}

start();
