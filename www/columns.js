// The column dialog: a file of points with more than three columns (the iris layout, a
// spreadsheet with a weight and a name) asks which columns are x, y and the label, with a
// preview of its first rows. The lab's defaults come preselected (the first two numeric
// columns, and the column named label/class/target, else the last); a choice made once is
// remembered in this browser for files with the same header (or, without one, the same
// number of columns). Reading the file stays in Rust (`Lab.file_preview`, `load_file`), so the
// page reads every file as the command line's `--columns` does.

import { t } from './i18n.js';

// Also here: the class buttons take the names a file gave its classes (`setosa` for class 0).

const STORE_PREFIX = 'kernel-playground:columns:';

// What the preview's header or width identifies: files alike share a remembered choice.
function storeKey(preview) {
  return STORE_PREFIX + (preview.header ? `header:${JSON.stringify(preview.header)}` : `width:${preview.width}`);
}

function remembered(preview) {
  try {
    const saved = JSON.parse(localStorage.getItem(storeKey(preview)) || 'null');
    const ok = Array.isArray(saved) && saved.length === 3
      && saved.every((c) => Number.isInteger(c) && c >= 0 && c < preview.width);
    return ok ? saved : null;
  } catch {
    return null;
  }
}

function remember(preview, choice) {
  try {
    localStorage.setItem(storeKey(preview), JSON.stringify(choice));
  } catch {
    // Storage off (private mode, a full quota): the choice is not remembered, that is all.
  }
}

function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  Object.assign(el, props);
  for (const child of children) el.append(child);
  return el;
}

// The name a column goes by in the selectors: its number and its header (or first value).
function columnName(preview, c) {
  const sample = preview.header ? preview.header[c] : (preview.rows[0] || [])[c];
  return sample ? `${c + 1}: ${sample}` : `${c + 1}`;
}

function buildDialog(preview, fileName, initial) {
  const dialog = element('dialog', { id: 'columns-dialog' });
  dialog.setAttribute('aria-labelledby', 'columns-title');
  const title = element('h2', { id: 'columns-title', textContent: t('columns.title') });
  const intro = element('p', { textContent: t('columns.intro', fileName, preview.width, preview.delimiter) });
  const table = element('table', { className: 'columns-preview' });
  const head = element('tr');
  for (let c = 0; c < preview.width; c++) {
    head.append(element('th', { textContent: preview.header ? preview.header[c] : `column ${c + 1}` }));
  }
  table.append(element('thead', {}, [head]));
  const body = element('tbody');
  for (const row of preview.rows) {
    body.append(element('tr', {}, row.map((field) => element('td', { textContent: field }))));
  }
  table.append(body);

  const selectors = ['x', 'y', 'label'].map((role, i) => {
    const select = element('select', { id: `columns-${role}` });
    for (let c = 0; c < preview.width; c++) {
      select.append(element('option', { value: String(c), textContent: columnName(preview, c) }));
    }
    select.value = String(initial[i]);
    return element('label', { textContent: `${role} ` }, [select]);
  });
  const note = element('p', { className: 'columns-note', role: 'alert' });
  const load = element('button', { id: 'columns-load', type: 'submit', textContent: 'Load' });
  const cancel = element('button', { id: 'columns-cancel', type: 'button', textContent: 'Cancel' });
  const form = element('form', { method: 'dialog' }, [
    element('div', { className: 'columns-choice' }, selectors),
    note,
    element('div', { className: 'columns-buttons' }, [load, cancel]),
  ]);
  dialog.append(title, intro, element('div', { className: 'columns-scroll' }, [table]), form);
  return { dialog, form, note, cancel };
}

// Asks for the columns of a file (its bytes) when it has more than three, and returns them as
// `load_file` takes them: '' for the defaults (a file of three columns or fewer, LIBSVM's
// format, or one the preview cannot read, whose error the load then shows), `x,y,label`
// (1-based) when chosen, or null when the dialog was cancelled.
export function chooseColumns(filePreview, bytes, fileName) {
  let preview;
  try {
    preview = JSON.parse(filePreview(bytes));
  } catch {
    return Promise.resolve('');
  }
  if (!preview || preview.width <= 3) return Promise.resolve('');
  const defaults = [preview.x, preview.y, preview.label ?? preview.width - 1];
  const { dialog, form, note, cancel } = buildDialog(preview, fileName, remembered(preview) || defaults);
  document.getElementById('columns-dialog')?.remove();
  document.body.append(dialog);
  return new Promise((resolve) => {
    const finish = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.addEventListener('submit', (ev) => {
      const choice = ['x', 'y', 'label'].map((role) => Number(dialog.querySelector(`#columns-${role}`).value));
      if (new Set(choice).size < 3) {
        ev.preventDefault();
        note.textContent = t('columns.different');
        return;
      }
      remember(preview, choice);
      finish(choice.map((c) => c + 1).join(','));
    });
    cancel.addEventListener('click', () => finish(null));
    dialog.addEventListener('cancel', (ev) => { ev.preventDefault(); finish(null); });
    dialog.showModal();
  });
}
