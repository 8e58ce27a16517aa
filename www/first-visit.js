// A first visit's prompt on the plot: what a click (a tap), a shift-click, a drag and the sliders
// do.
// It goes as soon as the visitor acts — a press or a key on either plot, or a control changed —
// (and is not shown while two plots are compared: www/help.css)
// and does not come back (localStorage), nor does it come for a link that brings its own
// points or for a lesson. It lets every press through to the plot (it takes no pointer
// events), so the click it asks for adds its point.

import { t } from './i18n.js';

const SEEN = 'kernel-playground-seen-prompt';
const canvas = document.getElementById('plot');
const plots = [canvas, document.getElementById('plot-b')].filter(Boolean);

function seen() {
  try {
    return localStorage.getItem(SEEN) === '1';
  } catch {
    return true; // storage refused: better never than every time
  }
}

function remember() {
  try {
    localStorage.setItem(SEEN, '1');
  } catch {
    // Storage refused: the prompt simply shows again next time.
  }
}

const withPoints = /(^#|[#&])points=/.test(location.hash);
// A lesson (?lesson=) brings its own scenes and captions, too.
const withLesson = new URLSearchParams(location.search).has('lesson');

if (canvas && !seen() && !withPoints && !withLesson) {
  const prompt = document.createElement('div');
  prompt.id = 'first-prompt';
  prompt.className = 'first-prompt';
  prompt.setAttribute('role', 'note');
  // What a click does depends on the task the link opens (a regression's points have no
  // class to shift-click for; a task chosen later is a control changed, which ends the prompt).
  // A touch screen with no mouse or pen is told to tap, and where a point's class is chosen
  // (there is no shift key to hold).
  const task = (location.hash.match(/[#&]task=([a-z]+)/) || [])[1];
  const touch = matchMedia('(any-pointer: coarse)').matches && !matchMedia('(any-pointer: fine)').matches;
  const suffix = `${task === 'regression' || task === 'novelty' ? `-${task}` : ''}${touch ? '-touch' : ''}`;
  const key = `prompt.try-it${suffix}`;
  // (The key written out in t( ), where the catalogues' check finds the keys in use.)
  prompt.innerHTML = t(`prompt.try-it${suffix}`); // our own catalogue's text, with its <strong>
  prompt.dataset.i18nHtml = key; // written again by a live switch of language
  canvas.parentElement.append(prompt);
  const controls = document.getElementById('controls');
  const gone = () => {
    prompt.remove();
    remember();
    for (const plot of plots) {
      plot.removeEventListener('pointerdown', gone);
      plot.removeEventListener('keydown', gone);
    }
    if (controls) {
      controls.removeEventListener('input', gone);
      controls.removeEventListener('change', gone);
    }
  };
  for (const plot of plots) {
    plot.addEventListener('pointerdown', gone);
    plot.addEventListener('keydown', gone);
  }
  if (controls) {
    controls.addEventListener('input', gone);
    controls.addEventListener('change', gone);
  }
}
