//! The words the lab draws inside its pictures, in the reader's language.
//!
//! The lab writes its words in English. The page keeps the translations (www/i18n/, data files
//! served with the site, not compiled in) and, reading in another language, hands the lab one
//! function that translates a text ([`set_translator`]). A picture's headline goes through
//! [`said`] before it is broken into lines between its words, so a translated headline is
//! wrapped as it will be read (the page gives Chinese with a space after each character, which
//! also makes the estimated width right, and draws it without them); shorter words (axis
//! labels, legends) are translated where the page draws them. With no translator (English, the
//! worker, the command line) every text stays as it is.

use std::borrow::Cow;
use std::sync::OnceLock;

/// A translation of a text, or `None` to keep it as it is.
pub type Translator = fn(&str) -> Option<String>;

static TRANSLATOR: OnceLock<Translator> = OnceLock::new();

/// Sets the translator once, for the rest of the run.
pub fn set_translator(translate: Translator) {
    let _ = TRANSLATOR.set(translate);
}

/// `text` in the reader's language.
pub fn said(text: &str) -> Cow<'_, str> {
    match TRANSLATOR.get().and_then(|translate| translate(text)) {
        Some(translated) => Cow::Owned(translated),
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_translator_words_stay() {
        assert_eq!(said("training accuracy"), "training accuracy");
    }
}
