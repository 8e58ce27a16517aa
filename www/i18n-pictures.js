// The lab's pictures in the page's language: the headlines the lab draws (translated before
// it breaks them into lines), the texts of a saved SVG, and every text drawn on a canvas, with
// a font list that has Chinese glyphs. The words come from the catalogue (i18n.js).

import { HAN, lang, SPACED, tr } from './i18n.js';

// Chinese on a canvas: common CJK fonts ahead of the generic family the views name.
const CJK_FONTS = '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif';

// A space after each Chinese character: the lab breaks a headline's lines between words only,
// and estimates a character and a space as wide as one Chinese character. Drawn without them.
// (None before full-width punctuation, which never starts a line.)
const spaced = (text) => text.replace(new RegExp(`([${HAN}])(?=[^\\s，。；：、）！？])`, 'g'), '$1 ');
const unspaced = (text) => text.replace(SPACED, '');

// The lab's pictures: their headlines are translated before the lab breaks them into lines
// (src/core/words.rs asks globalThis.kernelPlaygroundSay), called once the wasm has started.
export function translatePictures(Lab) {
  globalThis.kernelPlaygroundSay = (text) => {
    if (lang === 'en') return undefined;
    const said = tr(text);
    return said === text ? undefined : spaced(said);
  };
  Lab.translate_pictures();
}

// A picture saved as SVG: its texts as the canvas draws them.
export function translateSvg(svg) {
  if (lang === 'en') return svg;
  const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  const decode = (s) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => entities[e]);
  const encode = (s) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  return svg.replace(/(<text\b[^>]*>)([^<]*)(<\/text>)/g, (_, open, text, close) => open + encode(unspaced(tr(decode(text)))) + close);
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
    if (lang === 'en') return fillText.call(this, text, ...rest);
    const said = unspaced(tr(String(text)));
    withFont(this, said);
    return fillText.call(this, said, ...rest);
  };
  proto.measureText = function measureTranslated(text) {
    if (lang === 'en') return measureText.call(this, text);
    const said = unspaced(tr(String(text)));
    withFont(this, said);
    return measureText.call(this, said);
  };
}

translateCanvases();
