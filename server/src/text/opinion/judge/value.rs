//! The value of one judgement word under the modifiers before it, and the
//! small closed sets of characters a clause is read by.

use super::super::words::Word;

/// A modifier waiting for the judgement it applies to.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pending {
    pub(super) strong: bool,
    pub(super) weak: bool,
    pub(super) negator: Option<Word>,
    /// The negator says a thing is not there (没, 无), not that it is not so.
    pub(super) existential: bool,
    pub(super) quantity: Option<i8>,
    /// Where the last modifier ended (a modifier reaches a few characters).
    pub(super) end: usize,
    /// A hedged negation of a negation ("不是不管", "并非没有经费"): it is
    /// so, but said grudgingly — middling.
    pub(super) affirmed: bool,
    /// The negator denies (不是, 并非): before another negation it concedes.
    pub(super) denial: bool,
    /// A strong intensifier came right before the negator ("极其不尊重",
    /// "非常不负责"): the negated praise is strong criticism.
    pub(super) strong_first: bool,
}

impl Pending {
    /// A negation negated ("没有不满意的", "不是不管"): the pending one is
    /// gone, what the clause says is so (`affirmed`: grudgingly), and the
    /// modifiers run to `end`.
    pub(super) fn cancel_negation(&mut self, end: usize, affirmed: bool) {
        self.negator = None;
        self.existential = false;
        self.affirmed |= affirmed;
        self.end = end;
    }
}

/// How far (in characters of no term) a modifier reaches its judgement.
pub(super) const REACH: usize = 4;

/// The value of a judgement word under the pending modifiers; `None` for an
/// activity nothing modified (a mention).
pub(super) fn value(head: Word, p: &Pending) -> Option<i8> {
    let strong = p.strong;
    if p.affirmed && head.is_head() {
        return Some(0);
    }
    let v = match (p.negator, head) {
        (Some(Word::StrongNegator), Word::Positive | Word::Top | Word::Activity) => -2,
        (Some(Word::StrongNegator), Word::Negative | Word::Bottom | Word::Bad) => 1,
        // "算不上大牛", "不算顶尖", "不是大牛": short of the top is middling,
        // not bad.
        (Some(Word::HedgedNegator | Word::Negator), Word::Top) => 0,
        // "谈不上好", "算不上亲近": short of praise is middling too.
        (Some(Word::HedgedNegator), Word::Positive) => 0,
        (Some(Word::HedgedNegator), Word::Activity) => -1,
        (Some(Word::HedgedNegator), Word::Negative | Word::Bottom | Word::Bad) => 0,
        (Some(Word::Negator), Word::Positive) if p.strong_first => -2,
        (Some(_), Word::Positive | Word::Top | Word::Activity) => -1,
        (Some(_), Word::Negative | Word::Bottom | Word::Bad) => 1,
        // "完全不够花", "不够用": a middling word negated falls short.
        (Some(Word::StrongNegator), Word::Hedge) => -2,
        (Some(Word::Negator), Word::Hedge) => -1,
        (_, Word::Hedge) => 0,
        // Few of a good thing ("没几个能按时走的"): criticism.
        (None, Word::Positive) if p.quantity.is_some_and(|q| q < 0) => {
            if strong {
                -2
            } else {
                -1
            }
        }
        (None, Word::Top) => 2,
        (None, Word::Bottom) => -2,
        (None, Word::Positive) => {
            if strong {
                2
            } else {
                1
            }
        }
        (None, Word::Negative) => {
            if strong {
                -2
            } else {
                -1
            }
        }
        (None, Word::Bad) => match p.quantity {
            Some(q) if q > 0 => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
            // Few of a bad thing: praise, strong when said strongly ("极少延毕").
            Some(_) => {
                if strong {
                    2
                } else {
                    1
                }
            }
            None => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
        },
        // How much of a good thing, with its degree as for any judgement:
        // "指导太少" criticises strongly, "指导特别多" praises strongly.
        (None, Word::Activity) => match p.quantity {
            Some(q) if q < 0 => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
            Some(_) => {
                if strong {
                    2
                } else {
                    1
                }
            }
            None if strong => 2,
            None if p.weak => 1,
            None => return None,
        },
        _ => return None,
    };
    Some(v)
}

/// Characters that join two topics into one list ("学术和人品都很好",
/// "经费、设备"): a judgement of the list judges each of them.
pub(super) const COORDINATORS: [&str; 8] = ["和", "与", "跟", "及", "以及", "、", "还有", "同"];

/// Characters after a topic that make it the setting of the clause, not
/// what it judges ("组会上经常挨批": the relationship, not the academic).
pub(super) const SETTINGS: [char; 3] = ['上', '里', '中'];

/// Measure words between a count and the noun it counts ("两张卡", "五台
/// 服务器"); money's 块 / 元 count no noun after them.
pub(super) const CLASSIFIERS: [char; 10] =
    ['张', '台', '个', '位', '名', '篇', '间', '套', '部', '件'];

/// Verbs of giving or doing for someone ("发", "给", "批"): negated
/// absolutely after a topic, they say it is not given ("劳务费从来不发";
/// "从来不用抢" is no such thing).
pub(super) const GIVING: [char; 7] = ['发', '给', '报', '批', '签', '回', '改'];

/// A digit, or a Chinese numeral or unit (`text::numbers`): "十点多" is
/// a time, "一千多" a number, not "more".
pub(super) fn numeral(c: char) -> bool {
    c.is_ascii_digit() || crate::text::numbers::is_cn_numeral(c)
}
