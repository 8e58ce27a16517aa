// The lectures' worked examples (src/lab/examples.rs), listed in the preset menu under "lecture
// examples": choosing one opens its scene exactly, as its link would, and shows its caption —
// what to look at — above the controls until another scene is opened.

import { t } from './i18n.js';
import { $ } from './page.js';

const PREFIX = 'example:';
let examples = [];

// Adds the examples to the preset menu.
export function listExamples(catalogue) {
  examples = catalogue.examples;
  const group = document.createElement('optgroup');
  group.label = t('examples.group');
  for (const e of examples) {
    const option = document.createElement('option');
    option.value = PREFIX + e.id;
    option.textContent = e.title;
    group.append(option);
  }
  $('preset').append(group);
  $('caption-close').addEventListener('click', () => showCaption(null));
}

// The example a preset menu's value names, or null.
export function exampleOf(value) {
  return value.startsWith(PREFIX) ? examples.find((e) => PREFIX + e.id === value) || null : null;
}

// The caption of the example on screen (null: none), and the menu showing it. A lesson's scene
// (lessons.js) shows its caption here too, as `{ caption }` without an example's id.
export function showCaption(example) {
  $('caption').hidden = example === null;
  if (example) {
    $('caption-text').textContent = example.caption;
    if (example.id) $('preset').value = PREFIX + example.id;
  }
}
