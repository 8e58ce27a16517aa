// The page's language: English or Simplified Chinese, every word from a message catalogue.
//
// Two kinds of words reach the screen. The page's own (index.html, www/*.js) are named by
// stable keys: `data-i18n="key"` on an element (its text), `data-i18n-title`,
// `data-i18n-aria-label`, `data-i18n-placeholder` (those attributes), `data-i18n-html` (text
// with <kbd> marks, the shortcut list), and t('key', …values) in the modules, where `{}`
// stands for each value in order. The lab's words come from Rust (the parameter table, the
// methods, the status facts, the legend, messages, the text the views draw on the canvases):
// there the English text is its own id, and tr(text) looks it up; a text with numbers in it
// is looked up with each number as `{}` ("{} support vectors"), the numbers put back after,
// and one quoting a file's or a link's words with them as `'{}'` too.
// Numbers, symbols and user data pass through as they are.
//
// The catalogues are www/i18n/en.json and www/i18n/zh.json ({ page: {key: text}, text:
// {English: translation} }); the wasm carries no translation. The language: `?lang=en|zh` in
// the address, else the one chosen before (localStorage), else the browser's. The one-file lab
// holds the catalogues in <script type="application/json" data-catalogue="…"> elements.
// The language menu switches live (setLanguage): the page's words, the controls and notes
// built from the catalogue and the canvases change language in place, the scene, its undo
// history and compare stay.
// tests/e2e/i18n.test.mjs checks that no key or text is missing or unused.

import { speakWith } from './messages.js';

export const LANGUAGES = { en: 'English', zh: '中文' };
const STORED = 'kernel-playground-lang';

// The language a code names ('zh-CN', 'zh-Hans' … → 'zh'), or null.
export function languageOf(code) {
  const lower = String(code || '').toLowerCase();
  if (lower.startsWith('zh')) return 'zh';
  if (lower.startsWith('en')) return 'en';
  return null;
}

function stored() {
  try {
    return languageOf(localStorage.getItem(STORED));
  } catch {
    return null;
  }
}

// `?lang=` wins, then the visitor's own choice, then the browser's languages.
function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked !== null && languageOf(asked)) return languageOf(asked);
  const chosen = stored();
  if (chosen) return chosen;
  for (const code of navigator.languages || [navigator.language]) {
    const found = languageOf(code);
    if (found) return found;
  }
  return 'en';
}

async function readCatalogue(code) {
  const inline = document.querySelector(`script[data-catalogue="${code}"]`);
  if (inline) return JSON.parse(inline.textContent);
  const answer = await fetch(`www/i18n/${code}.json`);
  if (!answer.ok) throw new Error(`the ${code} catalogue answered ${answer.status}`);
  return answer.json();
}

export let lang = chooseLanguage();
let catalogue = { page: {}, text: {} };
let english = { page: {}, text: {} };
try {
  english = await readCatalogue('en');
  catalogue = lang === 'en' ? english : await readCatalogue(lang);
} catch (e) {
  console.warn('The word catalogue could not be read; the page stays in English.', e);
  catalogue = english;
  lang = 'en';
}
const catalogues = { en: english, [lang]: catalogue };

// Texts of the lab not in the catalogue, as they came, and the catalogue's texts used (the
// browser test reads them).
export const untranslated = new Set();
const looked = new Set();

// What each text the page was given came from, by the text as given: { lang, key, values } of
// t(), { lang, text } of tr(). A live switch of language reads the page's words back to their
// source through it (retell). The most recent TOLD_MOST are kept (status lines with numbers
// come and go every frame).
// What was told while the page was built (its controls) and while it was retold in a new
// language is kept for good.
const told = new Map();
const kept = new Map();
const TOLD_MOST = 5000;
let lasting = true;
function tell(said, source) {
  if (!/[A-Za-z\u3000-\u9fff]/.test(said)) return;
  if (lasting) {
    kept.set(said, source);
    return;
  }
  told.delete(said);
  told.set(said, source);
  if (told.size > TOLD_MOST) told.delete(told.keys().next().value);
}
window.addEventListener('kernel-playground-frame', () => { lasting = false; }, { once: true });

const fill = (template, values) => {
  let i = 0;
  return template.replace(/\{\}/g, () => (i < values.length ? String(values[i++]) : '{}'));
};

// The page's words named `key`, with `values` put in for its `{}`s (English if the chosen
// catalogue lacks it, the key itself if both do).
export function t(key, ...values) {
  const text = catalogue.page[key] ?? english.page[key];
  if (text === undefined) {
    untranslated.add(key);
    return key;
  }
  const said = fill(text, values);
  tell(said, { lang, key, values });
  return said;
}

// Numbers in a text of the lab: integers, decimals, exponents, a sign (ASCII or −); a
// character's code (U+001B) too.
const NUMBER = /U\+[0-9A-F]{4,6}|[−-]?\d+(?:\.\d+)?(?:e[−+-]?\d+)?/g;
// A quoted value ('not'), not an apostrophe (the SVM's).
const QUOTED = /(?<!\w)'([^']*)'(?!\w)/g;
// A list of values in brackets ("(use linear, poly or rbf)", "(folds 0.9, 1, 0.8)"), one value
// however long (a link's refusal may cut it short, without its ')').
const LIST = /(?<=\((?:use|folds) )(?<list>[^)]*)/g;
const CUT_LIST = /(\((?:use|folds) \{\})$/;
// A point's class by the name a file gave it ("point 3 (cat)"): a value, kept.
const CLASS_NAME = /(?<=\bpoint \d+ \()[^)]*(?=\))/g;
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
// The methods' names, which the lab's sentences put in as values ("{}: accuracy on …"),
// longest first (translateCatalogue fills it).
let names = null;
let nameSet = new Set();
// The settings as messages name them, last resort (translateCatalogue fills it): by their
// key as a link writes it ("its n is damaged"), kept, or by a label in words ("max epochs
// '0' …"), translated.
let settingNames = null;
let settingLabels = new Set();
// The kernels' names ("the rbf kernel"), kept.
let kernelNames = null;

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// `text` as a template of the catalogue, its values as `{}` by `pattern`: the translation
// with the values put back (each passed through `value`), or null.
function byTemplate(text, pattern, value) {
  const found = [...text.matchAll(pattern)];
  if (found.length === 0) return null;
  let template = '';
  let end = 0;
  for (const m of found) {
    template += text.slice(end, m.index) + (m[1] !== undefined ? "'{}'" : '{}');
    end = m.index + m[0].length;
  }
  template = (template + text.slice(end)).replace(CUT_LIST, '$1)');
  if (!Object.hasOwn(catalogue.text, template)) return null;
  looked.add(template);
  return fill(catalogue.text[template], found.map(value));
}

// A sentence's full stop, in Chinese.
const stop = (said) => (said === null ? null : `${said}${/[。）]$/.test(said) ? '' : '。'}`);

function lookUp(text) {
  const words = catalogue.text;
  if (Object.hasOwn(words, text)) {
    looked.add(text);
    return words[text];
  }
  // (A list's values as they are, its 'or' a comma: "rbf, sigmoid or composed".)
  const plain = (m) => m[1] ?? m.groups?.list?.replace(/ or /g, ', ') ?? m[0];
  const found = byTemplate(text, NUMBER, plain)
    // A message quoting what a file or a link said ('not'): the quoted words are values too.
    ?? byTemplate(text, new RegExp(`${QUOTED.source}|${LIST.source}|${CLASS_NAME.source}|${NUMBER.source}`, 'g'), plain);
  if (found !== null || !names) return found;
  const named = byTemplate(text, names, (m) => (m[1] !== undefined ? m[1] : nameSet.has(m[0]) ? tr(m[0]) : plain(m)));
  if (named !== null) return named;
  const setting = byTemplate(text, settingNames, (m) => (settingLabels.has(m[0]) ? tr(m[0]) : plain(m)));
  // (A translated label between Chinese words takes no spaces.)
  if (setting !== null) return setting.replace(SPACED, '');
  return byTemplate(text, kernelNames, plain);
}

// The lab's English `text` in the page's language (unchanged in English, or when it holds no
// word to translate). A text of several sentences (a view's note) is translated sentence by
// sentence when it is not in the catalogue whole.
export function tr(text) {
  if (lang === 'en' || typeof text !== 'string' || text === '' || CJK.test(text)) return text;
  const said = translate(text);
  if (said !== text) tell(said, { lang, text });
  return said;
}

function translate(text) {
  const whole = lookUp(text) ?? (text.endsWith('.') ? stop(lookUp(text.slice(0, -1))) : null);
  if (whole !== null) return whole;
  const sentences = text.split(/(?<=[.…])\s+/);
  // (Chinese sentences end in full-width stops and take no space between them.)
  if (sentences.length > 1) return sentences.map(translate).reduce((a, b) => (CJK.test(a.at(-1)) ? a + b : `${a} ${b}`));
  // "Why it stopped: what went wrong" (a view's note around a method's own message): each
  // part on its own, split at the first colon whose head the catalogue knows.
  for (let at = text.indexOf(': '); at > 0; at = text.indexOf(': ', at + 1)) {
    // (A head of symbols and numbers only, "C = 1, γ = 0.1", is said as it is.)
    const head = lookUp(text.slice(0, at)) ?? (/[A-Za-z]{2}/.test(text.slice(0, at)) ? null : text.slice(0, at));
    if (head !== null) return `${head}：${translate(text.slice(at + 2))}`;
  }
  // The parts of a link's refusal ("its C is damaged: …; its n is damaged: …"), each on its own.
  const parts = text.split('; ');
  if (parts.length > 1) {
    const said = parts.map(translate);
    if (said.some((part, i) => part !== parts[i])) return said.join('；');
  }
  if (/[A-Za-z]{2}/.test(text)) untranslated.add(text);
  return text;
}

// Each string of the catalogue the page builds its controls from, in the page's language at
// the time it is read (a getter: what a module reads again after a live switch is in the new
// language; what it wrote on the page before is retold).
const CATALOGUE_WORDS = ['label', 'explain', 'title', 'hint', 'caption', 'tab'];
export function translateCatalogue(value) {
  if (value && Array.isArray(value.methods) && !names) {
    nameSet = new Set(value.methods.map((m) => m.title));
    const titles = [...nameSet].sort((a, b) => b.length - a.length).map(escapeRegExp);
    names = new RegExp(`${QUOTED.source}|${LIST.source}|${titles.join('|')}|${NUMBER.source}`, 'g');
    const params = value.params || [];
    settingLabels = new Set(params.filter((p) => p.label !== p.key && /^[A-Za-z ]+$/.test(p.label)).map((p) => p.label));
    const said = [...params.flatMap((p) => [p.key, p.label]), 'model', 'task', 'window'].filter((w) => /^[\p{L}\d ]+$/u.test(w));
    const word = (list) => `(?<![\\w'])(?:${[...new Set(list)].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})(?![\\w'])`;
    settingNames = new RegExp(`${QUOTED.source}|${LIST.source}|${word(said)}|${NUMBER.source}`, 'g');
    const kernels = (params.find((p) => p.key === 'kernel')?.options || []).map((o) => o.value);
    kernelNames = new RegExp(`${QUOTED.source}|${word(kernels)}|${NUMBER.source}`, 'g');
  }
  if (Array.isArray(value)) return value.map(translateCatalogue);
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && CATALOGUE_WORDS.includes(k)) {
      Object.defineProperty(out, k, {
        enumerable: true,
        configurable: true,
        get: () => tr(v),
        set: (x) => Object.defineProperty(out, k, { value: x, writable: true, enumerable: true, configurable: true }),
      });
    } else {
      out[k] = translateCatalogue(v);
    }
  }
  return out;
}

// The page's marked elements under `root` in the page's language.
const ATTRIBUTES = ['title', 'aria-label', 'placeholder'];
export function translatePage(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  // Our own catalogue's text, with <kbd> marks: never user data.
  for (const el of root.querySelectorAll('[data-i18n-html]')) el.innerHTML = t(el.dataset.i18nHtml);
  for (const name of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-i18n-${name}]`)) el.setAttribute(name, t(el.getAttribute(`data-i18n-${name}`)));
  }
}

// A text of the page in the page's language now: what t() or tr() gave in the other language
// asked again from its source, an English text of the lab translated as tr() would.
function retell(text) {
  const trimmed = text.trim();
  if (!trimmed) return text;
  const source = told.get(trimmed) ?? kept.get(trimmed);
  let said;
  if (source) {
    if (source.lang === lang) return text;
    said = source.key !== undefined
      ? t(source.key, ...source.values.map((v) => (typeof v === 'string' ? retell(v) : v)))
      : tr(source.text);
  } else if (lang !== 'en' && !CJK.test(trimmed)) {
    const known = untranslated.has(trimmed);
    said = translate(trimmed);
    if (!known) untranslated.delete(trimmed);
    if (said !== trimmed) tell(said, { lang, text: trimmed });
  } else {
    return text;
  }
  return said === trimmed ? text : text.replace(trimmed, said);
}

// Words written by people (a field's text) and the language menu's own names stay.
const KEEP = 'script, style, textarea, input, [contenteditable], #language';

// Every text and described attribute under `root` (a node) retold in the page's language.
function retellNode(root) {
  if (root.nodeType === Node.TEXT_NODE) {
    if (!root.parentElement || root.parentElement.closest(KEEP)) return;
    const now = retell(root.data);
    if (now !== root.data) root.data = now;
    return;
  }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) retellNode(n);
  for (const el of [root, ...root.querySelectorAll('[title], [aria-label], [placeholder]')]) retellAttributes(el);
}

function retellAttributes(el) {
  for (const name of ATTRIBUTES) {
    const old = el.getAttribute(name);
    if (old === null) continue;
    const now = retell(old);
    if (now !== old) el.setAttribute(name, now);
  }
}

// After a live switch, what the page's modules write later in the language they had (a label
// kept from the catalogue, a note built before) is retold as it comes.
let watching = null;
function watchPage() {
  if (watching) return;
  watching = new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.type === 'attributes') retellAttributes(change.target);
      else if (change.type === 'characterData') retellNode(change.target);
      else for (const node of change.addedNodes) retellNode(node);
    }
  });
  watching.observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES,
  });
}

// Switches the page to language `code` in place: its words, the controls built from the
// catalogue, the notes, and (through the 'kernel-playground-language' event, www/main.js)
// the canvases drawn again. Remembered for the next visit; a `lang=` in the address follows.
export async function setLanguage(code) {
  if (!LANGUAGES[code] || code === lang) return;
  if (!catalogues[code]) catalogues[code] = await readCatalogue(code);
  lang = code;
  catalogue = catalogues[code];
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = t('page.title');
  window.kernelPlaygroundLanguage.lang = lang;
  lasting = true;
  translatePage();
  retellNode(document.body);
  lasting = false;
  watchPage();
  try {
    localStorage.setItem(STORED, lang);
  } catch {
    // Not remembered: the page still switched.
  }
  const options = new URLSearchParams(location.search);
  if (options.has('lang')) {
    options.set('lang', lang);
    history.replaceState(history.state, '', `${location.pathname}?${options}${location.hash}`);
  }
  const select = document.getElementById('language');
  if (select) select.value = lang;
  window.dispatchEvent(new CustomEvent('kernel-playground-language', { detail: lang }));
}

// The language menu: it switches the page live (setLanguage), and its choice is remembered.
function languageMenu() {
  const select = document.getElementById('language');
  if (!select) return;
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code === 'zh' ? 'zh-Hans' : 'en';
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener('change', () => {
    setLanguage(select.value).catch((e) => {
      console.warn('The word catalogue could not be read; the language stays.', e);
      select.value = lang;
    });
  });
}

// Chinese characters, and the spaces between two of them that the pictures' headlines put
// in (i18n-pictures.js).
export const HAN = '\\u3000-\\u9fff\\uff00-\\uffef';
export const SPACED = new RegExp(`(?<=[${HAN}]) (?=[${HAN}])`, 'g');

document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
if (lang !== 'en') document.title = t('page.title');
translatePage();
languageMenu();
speakWith({ t, tr });

// For the browser tests: the language, and the lab's texts that had no translation.
window.kernelPlaygroundLanguage = { lang, untranslated: () => [...untranslated], used: () => [...looked] };
