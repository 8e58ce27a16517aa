// LIBSVM's svm-train options (`-s 3 -t 2 -c 10 -g 2 -p 0.1`), as old course material and
// svm-toy give a model: typed in, they set the task, the method and its parameters (Rust reads
// them, src/lab/options.rs); the box shows the scene's own settings as such a string, or why they
// are not one (k-NN is not a LIBSVM model).

import { enableControls, syncControls } from './controls.js';
import { requestRender, stopPlaying } from './frame.js';
import { cancelEntry } from './history.js';
import { explain } from './help.js';
import { t, tr } from './i18n.js';
import { applySetting } from './edits.js';
import { $, controlled, guard, messages, showMessage } from './page.js';
import { newEntry, settle } from './scenes.js';


// The box follows the scene's settings, except while it is being typed in.
export function showSvmOptions() {
  const box = $('svm-options');
  const app = controlled();
  if (!box || !app || document.activeElement === box) return;
  const now = JSON.parse(app.svm_options());
  // (Written only when changed: every frame comes here.)
  const value = now.options || '';
  const placeholder = now.why ? tr(now.why) : '';
  if (box.value !== value) box.value = value;
  if (box.placeholder !== placeholder) box.placeholder = placeholder;
  if (box.hasAttribute('aria-invalid')) box.removeAttribute('aria-invalid');
}

// Applies a typed string: every setting it names, as one step of the history (one Back undoes
// it); a string that cannot be read changes nothing and says why.
function applyOptions() {
  const box = $('svm-options');
  const read = guard(() => JSON.parse(controlled().read_svm_options(box.value)));
  box.setAttribute('aria-invalid', read ? 'false' : 'true');
  if (!read) return;
  newEntry();
  const done = guard(() => { for (const [key, value] of read.edits) applySetting(key, value); return true; });
  if (!done) { cancelEntry(); return; }
  messages.clear('action');
  syncControls(controlled());
  enableControls(controlled());
  stopPlaying();
  requestRender();
  settle();
  // After settling, which clears what was said about the scene before.
  if (read.notes.length) showMessage(t('message.svm-options-notes', read.notes.map(tr).join('; ')), 'notice');
  box.blur();
  showSvmOptions();
}

export function wireSvmOptions() {
  const box = $('svm-options');
  box.previousElementSibling.after(...explain(t('text.svm-options'), t('explain.svm-options'), [box]));
  box.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); applyOptions(); }
    if (ev.key === 'Escape') { ev.preventDefault(); box.blur(); showSvmOptions(); }
  });
  box.addEventListener('change', applyOptions);
}
