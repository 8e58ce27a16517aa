// Exact entry, part two: the points table. It lists the scene's points as its link writes
// them (x and y exactly as written, the label, whether the point is held out for testing),
// edits, adds and deletes rows, and takes pasted CSV text. Every edit makes the scene's points
// anew from the rows (`lab.setPoints`, the link's `x,y,label[,t];…` form), so the lab keeps
// each coordinate's text as typed; pasted text goes through the files' reader
// (`lab.loadText`). The table follows the plane: clicks and drags show in it as they happen.

import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

// Rows shown at most: a large scene shows its first rows and says how many there are.
export const SHOWN_ROWS = 300;

// A number as the lab reads one (what a link and a CSV file take): finite, no spaces.
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// Within ±10¹⁵, as the lab takes coordinates (src/core/data/mod.rs, MAX_COORDINATE).
const isNumber = (text) => NUMBER.test(text) && Math.abs(Number(text)) <= 1e15;
const isLabel = (text) => /^-?\d{1,9}$/.test(text);

function parseRows(text) {
  if (!text) return [];
  return text.split(';').map((row) => {
    const [x, y, label, role] = row.split(',');
    return { x, y, label, test: role === 't' };
  });
}

const rowText = (r) => `${r.x},${r.y},${r.label}${r.test ? ',t' : ''}`;

function element(tag, attributes = {}, text = '') {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text) el.textContent = text;
  return el;
}

export class PointsTable {
  // `lab`: { app(), setPoints(text), loadText(text), say(message) } from main.js.
  constructor(lab) {
    this.lab = lab;
    this.shown = null; // the points text the rows show
    this.body = $('points-rows');
  }

  get open() {
    return $('points-table-panel').open;
  }

  // All the points, as the link writes them (only when editing: a large scene is read once).
  allRows() {
    const app = this.lab.app();
    return parseRows(app.points_text(app.point_count()));
  }

  // Writes the rows back as the scene's points; whether the lab took them.
  commit(rows) {
    return this.lab.setPoints(rows.map(rowText).join(';'));
  }

  // Checks a cell; a message and false when it is not a number (or a whole-number label).
  valid(field, text, index) {
    const ok = field === 'label' ? isLabel(text) : isNumber(text);
    if (!ok) {
      const what = field === 'label' ? 'a whole number' : 'a number within ±1e15';
      this.lab.say(`Point ${index + 1}: ${field} '${text.slice(0, 40)}' is not ${what}; the point stays as it was.`);
    }
    return ok;
  }

  editCell(index, field, input) {
    const text = input.value.trim();
    const rows = this.allRows();
    const row = rows[index];
    if (!row || row[field] === text) return;
    if (!this.valid(field, text, index)) {
      input.value = row[field];
      return;
    }
    row[field] = text;
    this.commit(rows);
  }

  setTest(index, on) {
    const rows = this.allRows();
    if (!rows[index]) return;
    rows[index].test = on;
    this.commit(rows);
  }

  remove(index) {
    const rows = this.allRows();
    rows.splice(index, 1);
    if (this.commit(rows)) {
      // Keep the keyboard where it was: on the next row's delete button, or the add row.
      const next = this.body.querySelector(`[data-row="${Math.min(index, rows.length - 1)}"] .delete`);
      (next || $('new-x')).focus();
    }
  }

  add() {
    const [x, y, label] = ['new-x', 'new-y', 'new-label'].map((id) => $(id).value.trim());
    if (!this.valid('x', x, this.lab.app().point_count()) || !this.valid('y', y, this.lab.app().point_count())) return;
    const l = label === '' ? '0' : label;
    if (!this.valid('label', l, this.lab.app().point_count())) return;
    const rows = this.allRows();
    rows.push({ x, y, label: l, test: $('new-test').checked });
    if (this.commit(rows)) {
      $('new-x').value = '';
      $('new-y').value = '';
      $('new-x').focus();
    }
  }

  paste() {
    const text = $('paste-csv').value;
    if (!text.trim()) {
      this.lab.say('Paste CSV text (x,y,label per line) into the box first.');
      return;
    }
    if (this.lab.loadText(text)) $('paste-csv').value = '';
  }

  // One row's cells, each labelled for screen readers ("x of point 3").
  makeRow(i) {
    const tr = element('tr', { 'data-row': String(i) });
    tr.append(element('th', { scope: 'row' }, String(i + 1)));
    for (const field of ['x', 'y', 'label']) {
      const td = element('td');
      const input = element('input', {
        type: 'text', inputmode: field === 'label' ? 'numeric' : 'decimal', 'data-field': field,
        'aria-label': t(`table.${field}-of-point`, i + 1), autocomplete: 'off', spellcheck: 'false',
      });
      input.addEventListener('change', () => this.editCell(i, field, input));
      input.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') input.dispatchEvent(new Event('change'));
        if (ev.key === 'Escape') this.refresh(true);
      });
      td.append(input);
      tr.append(td);
    }
    const test = element('input', { type: 'checkbox', 'data-field': 'test', 'aria-label': t('table.test-point', i + 1) });
    test.addEventListener('change', () => this.setTest(i, test.checked));
    const td = element('td', { class: 'centre' });
    td.append(test);
    tr.append(td);
    const del = element('button', { type: 'button', class: 'delete', 'aria-label': t('table.delete-point', i + 1), title: t('table.delete-title') }, '×');
    del.addEventListener('click', () => this.remove(i));
    const last = element('td');
    last.append(del);
    tr.append(last);
    return tr;
  }

  // Shows the scene's points as they are now (only while the table is open). A cell being
  // typed in keeps its text; `force` puts every cell back.
  refresh(force = false) {
    const app = this.lab.app();
    if (!app || !this.open) return;
    const text = app.points_text(SHOWN_ROWS);
    if (text === this.shown && !force) return;
    this.shown = text;
    const rows = parseRows(text);
    while (this.body.rows.length > rows.length) this.body.deleteRow(-1);
    while (this.body.rows.length < rows.length) this.body.append(this.makeRow(this.body.rows.length));
    for (const [i, row] of rows.entries()) {
      const tr = this.body.rows[i];
      for (const input of tr.querySelectorAll('input[type="text"]')) {
        const value = row[input.dataset.field];
        if (input.value !== value && (force || document.activeElement !== input)) input.value = value;
      }
      tr.querySelector('input[type="checkbox"]').checked = row.test;
      tr.classList.toggle('test', row.test);
    }
    const total = app.point_count();
    $('points-note').textContent = total > rows.length
      ? t('table.first-points', rows.length, total)
      : t(total === 1 ? 'table.one-point' : 'table.points', total);
  }

  wire() {
    $('points-table-panel').addEventListener('toggle', () => this.refresh(true));
    $('add-point').addEventListener('click', () => this.add());
    for (const id of ['new-x', 'new-y', 'new-label']) {
      $(id).addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') {
          ev.preventDefault();
          this.add();
        }
      });
    }
    $('paste-points').addEventListener('click', () => this.paste());
  }
}
