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
// tests/e2e/i18n.test.mjs checks that no key or text is missing or unused.

export const LANGUAGES = { en: 'English', zh: '中文' };
const STORED = 'kernel-playground-lang';
// Chinese on a canvas: common CJK fonts ahead of the generic family the views name.
const CJK_FONTS = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif';

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

export const lang = chooseLanguage();
let catalogue = { page: {}, text: {} };
let english = { page: {}, text: {} };
try {
  english = await readCatalogue('en');
  catalogue = lang === 'en' ? english : await readCatalogue(lang);
} catch (e) {
  console.warn('The word catalogue could not be read; the page stays in English.', e);
  catalogue = english;
}

// Texts of the lab not in the catalogue, as they came (the browser test reads them).
export const untranslated = new Set();

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
  return fill(text, values);
}

// Numbers in a text of the lab: integers, decimals, exponents, a sign (ASCII or −).
const NUMBER = /[−-]?\d+(?:\.\d+)?(?:e[−+-]?\d+)?/g;

// The lab's English `text` in the page's language (unchanged in English, or when it holds no
// word to translate).
export function tr(text) {
  if (lang === 'en' || typeof text !== 'string' || text === '') return text;
  const words = catalogue.text;
  if (Object.hasOwn(words, text)) return words[text];
  const values = text.match(NUMBER);
  if (values) {
    const template = text.replace(NUMBER, '{}');
    if (Object.hasOwn(words, template)) return fill(words[template], values);
  }
  // A message quoting what a file or a link said ('not'): the quoted words are values too.
  const QUOTED = new RegExp(`'([^']*)'|${NUMBER.source}`, 'g');
  const parts = [...text.matchAll(QUOTED)];
  if (parts.some((m) => m[1] !== undefined)) {
    const template = text.replace(QUOTED, (m) => (m.startsWith("'") ? "'{}'" : '{}'));
    if (Object.hasOwn(words, template)) return fill(words[template], parts.map((m) => m[1] ?? m[0]));
  }
  if (/[A-Za-z]{2}/.test(text)) untranslated.add(text);
  return text;
}

// Each string of the catalogue the page builds its controls from, in the page's language.
const CATALOGUE_WORDS = ['label', 'explain', 'title', 'hint', 'caption', 'tab'];
export function translateCatalogue(value) {
  if (lang === 'en') return value;
  if (Array.isArray(value)) return value.map(translateCatalogue);
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = typeof v === 'string' && CATALOGUE_WORDS.includes(k) ? tr(v) : translateCatalogue(v);
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

// The language menu: its choice is remembered and the page opens again in it, with the scene
// on screen (its link), as the address's `lang=` would open it.
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
    try {
      localStorage.setItem(STORED, select.value);
    } catch {
      // Not remembered: the address below still carries the choice.
    }
    const options = new URLSearchParams(location.search);
    options.set('lang', select.value);
    location.replace(`${location.pathname}?${options}${location.hash}`);
  });
}

// Text the lab draws on a canvas goes through fillText: there it is translated, and Chinese
// gets a font list that has its glyphs.
function translateCanvases() {
  const proto = CanvasRenderingContext2D.prototype;
  const fillText = proto.fillText;
  const measureText = proto.measureText;
  const withFont = (context, text) => {
    if (/[\u3000-\u9fff\uff00-\uffef]/.test(text) && !context.font.includes('CJK')) {
      context.font = context.font.replace(/(?:"[^"]*"|[\w-]+)\s*$/, CJK_FONTS);
    }
  };
  proto.fillText = function fillTranslated(text, ...rest) {
    const said = tr(String(text));
    withFont(this, said);
    return fillText.call(this, said, ...rest);
  };
  proto.measureText = function measureTranslated(text) {
    const said = tr(String(text));
    withFont(this, said);
    return measureText.call(this, said);
  };
}

document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
if (lang !== 'en') {
  translateCanvases();
  document.title = t('page.title');
}
translatePage();
languageMenu();

// For the browser tests: the language, and the lab's texts that had no translation.
window.kernelPlaygroundLanguage = { lang, untranslated: () => [...untranslated] };
