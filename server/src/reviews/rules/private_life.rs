//! The private-life and hearsay rules. They share one reading of the text:
//! whether a sentence is hearsay (听说, 据说, 听师兄说 …) decides both
//! whether family, health or home is gossip and whether a serious
//! accusation rests on a rumour, so both are found in one pass.

use super::lexicon::{words, Private};
use super::Finding;
use crate::text::fold::Folded;
use app::policy::ContentRule;

const PRIVATE: &str = "涉及导师的私生活，请只评价与读研有关的内容。";
const HEARSAY: &str = "严重的指控只凭“听说”，不能发布；请只写你亲身经历、能够负责的内容。";

/// Private life and hearsay, in one pass over the word hits: a small state
/// machine that knows the current clause (和/跟/与 seen) and sentence
/// (a hearsay mark seen, turned around by 反对/没有 …).
pub(super) fn private_life(compact: &Folded, out: &mut Vec<Finding>) {
    let w = words();
    let text = compact.text.as_str();
    let mut private: Option<(usize, usize)> = None;
    let mut hearsay: Option<(usize, usize)> = None;
    let mut with = false;
    let mut relationship_end: Option<usize> = None;
    let mut mark: Option<usize> = None;
    let mut turned = false;
    let before = |at: usize, n: usize| -> &str {
        let from = text[..at]
            .char_indices()
            .rev()
            .take(n)
            .last()
            .map_or(at, |(i, _)| i);
        &text[from..at]
    };
    for hit in w.private.find(text) {
        if private.is_some() && hearsay.is_some() {
            break;
        }
        let mut private_at = None;
        match hit.tag {
            Private::SentenceEnd => {
                with = false;
                mark = None;
                turned = false;
                relationship_end = None;
            }
            Private::ClauseEnd => {
                with = false;
                relationship_end = None;
            }
            Private::With => with = true,
            Private::Relationship => relationship_end = Some(hit.end),
            Private::Life => private_at = Some((hit.start, hit.end)),
            Private::Innocent => {}
            Private::Family => {
                let lead = before(hit.start, 3);
                for subject in [
                    "他的",
                    "她的",
                    "老师的",
                    "导师的",
                    "他",
                    "她",
                    "老师",
                    "导师",
                ] {
                    if lead.ends_with(subject) {
                        private_at = Some((hit.start - subject.len(), hit.end));
                        break;
                    }
                }
            }
            Private::Relation => {
                let right_after =
                    relationship_end.is_some_and(|e| text[e..hit.start].chars().count() <= 3);
                if with || right_after {
                    private_at = Some((hit.start, hit.end));
                }
            }
            Private::LivesAt => {
                if mark.is_some() {
                    private_at = Some((hit.start, hit.end));
                } else {
                    let window: String = text[hit.end..]
                        .chars()
                        .take(12)
                        .take_while(|c| !"，。！？；,.!?;\n".contains(*c))
                        .collect();
                    if w.dwelling.iter().any(|d| window.contains(d.as_str())) {
                        private_at = Some((hit.start, hit.end));
                    }
                }
            }
            Private::HearsayMark => {
                mark = mark.or(Some(hit.start));
            }
            Private::Listen => {
                let says = text[hit.end..]
                    .chars()
                    .take(6)
                    .take_while(|c| !"，。！？；,.!?;\n".contains(*c))
                    .any(|c| c == '说');
                if says {
                    mark = mark.or(Some(hit.start));
                }
            }
            Private::HeardPrivately => {
                if mark.is_some() {
                    private_at = Some((hit.start, hit.end));
                }
            }
            Private::AccusationNot => turned |= mark.is_some(),
            Private::Accusation => {
                if let (Some(m), false, None) = (mark, turned, hearsay) {
                    hearsay = Some((m, hit.end));
                }
            }
        }
        if let (Some(range), None) = (private_at, private) {
            private = Some(range);
        }
    }
    for (range, rule, what) in [
        (private, ContentRule::PrivateLife, PRIVATE),
        (hearsay, ContentRule::Hearsay, HEARSAY),
    ] {
        if let Some((s, e)) = range {
            let (start, end) = compact.origin(s, e);
            out.push(Finding {
                rule,
                start,
                end,
                what,
            });
        }
    }
}
