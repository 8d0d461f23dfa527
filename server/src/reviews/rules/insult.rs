//! The insult rule: a word of the insult list or one of its variant
//! spellings, searched in the compact text (separators dropped, so "傻 逼"
//! and "人.渣" are found); innocent words that contain one are listed too
//! and win ("垃圾分类").

use super::lexicon::{words, Insult};
use super::Finding;
use crate::text::fold::Folded;
use app::policy::ContentRule;

const INSULT: &str = "请不要使用侮辱性的词语。";

pub(super) fn insults(compact: &Folded, out: &mut Vec<Finding>) {
    for hit in words().insults.find(&compact.text).take(200) {
        if *hit.tag == Insult::Word {
            let (start, end) = compact.origin(hit.start, hit.end);
            out.push(Finding {
                rule: ContentRule::Insult,
                start,
                end,
                what: INSULT,
            });
        }
        if out.len() >= 60 {
            break;
        }
    }
}
