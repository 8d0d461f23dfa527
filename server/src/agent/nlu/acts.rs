//! What the student asks for, from the cue words of cues.txt that are not
//! negated. Precedence, highest first (the first that applies wins):
//!
//! 1. `Faq`         a FAQ entry matched, no advisor referred to, and no
//!    advisors of a named school or major asked for
//!    — then `ReadBack`: "我刚才说的是哪个学校", a read-back cue, no advisor
//!    referred to, and a question or no value of its own ("我的要求是温和"
//!    states one)
//! 2. `Compare`     比较/对比/pk; or 哪个好/区别 with two or more references
//!    ("这两个"/"他俩" count as two)
//! 3. `Statistics` 统计/平均分/分布/整体情况 about the school + major (no
//!    advisor referred to: "他的平均分" asks about him)
//! 4. `Recommend`, then `ListAdvisors`, when no advisor is referred to: the
//!    cues of 5–7 then only describe how to choose ("评价最好的导师",
//!    "口碑好的导师有哪些" ask for a choice, not about one advisor)
//!    — then `AboutPlace`: a school or major named, no advisor referred to,
//!    a place-question cue ("好就业吗", "在哪") or an ask-about cue
//!    ("怎么样"), and nothing wished for: no direction or preference, no
//!    想考/报/考研, no open/reviews/list cue ("哈工大的机械工程怎么样，我想考"
//!    is a wish)
//! 5. `OpenDetail`  详情/主页/打开; or 看看/点开 with a reference and no
//!    reviews cue ("他的评价给我看下" asks for the reviews)
//! 6. `AskReviews`  评价/口碑/风评 …
//! 7. `AskAbout`    怎么样/如何/介绍一下 …
//! 8. `Recommend`   推荐/适合我/帮我选; 哪个好 with fewer than two references
//! 9. `ListAdvisors` 有哪些导师/排名/榜单 …
//! 10. `Help`        你能做什么/怎么用
//! 11. `AskAbout`   any other question about a referenced advisor ("他是博导吗")
//! 12. `WantExam`   考研/读研 with no school, major or direction named
//! 13. `Skip`       跳过/随便/都可以 with nothing else said
//! 14. `Goodbye`, `Thanks`, `Greet`  only when that is all the sentence says
//!     (a long request ending in 谢谢 is the request)
//! 15. `None`
//!
//! "比较" is a request only at the end of its clause or between two
//! references, not before a preference ("比较温和" is "rather gentle").

use super::lexicon::{Cue, Lexicons};
use super::tokens::Text;
use super::types::Act;
use crate::text::utterance::SEP;

/// What the classifier needs besides the tokens.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    pub neg: &'a [bool],
    /// Two advisors named as a pair (`pair` cues), not settled on one.
    pub pair: bool,
    pub references: usize,
    pub faq: bool,
    /// A clause that holds the FAQ's words asks (its own question words,
    /// or the final question mark on the last clause): "华东师大的教育学，
    /// 考学硕，不考专硕" names the degree it wants, it does not ask.
    pub faq_asked: bool,
    pub question: bool,
    /// A school, major, direction or unknown name was named.
    pub has_slot: bool,
    /// A preference was named.
    pub has_pref: bool,
    /// A known school or major was named.
    pub place: bool,
    /// Both a known school and a known major were named.
    pub full_place: bool,
    /// A research direction was named.
    pub direction: bool,
    /// A question with a jobs word of `place_jobs` ("好就业吗"): about a
    /// place, its preference reading set aside.
    pub jobs_question: bool,
}

#[derive(Debug, Default)]
struct Seen {
    compare: bool,
    open: bool,
    /// 看看/看下 with a reference: a look at whatever else the sentence
    /// names ("他的评价给我看下" looks at the reviews).
    look: bool,
    reviews: bool,
    about: bool,
    recommend: bool,
    list: bool,
    stats: bool,
    help: bool,
    want_exam: bool,
    skip: bool,
    read_back: bool,
    place: bool,
    /// 考/读/报 before a name: the student wants it.
    wish: bool,
    thanks: bool,
    goodbye: bool,
    greet: bool,
}

/// Whether "比较" at token `t` asks for a comparison.
fn compare_weak_counts(text: &Text, t: usize, refs: usize) -> bool {
    let end = text.tokens[t].end;
    if text.at_clause_end(end) {
        return true;
    }
    let before_value = text
        .token_at(end)
        .is_some_and(|n| text.tokens[n].pref().is_some());
    refs >= 2 && !before_value && text.chars.get(end) != Some(&'好')
}

/// Whether the sentence says nothing but thanks / goodbye / greeting and polite words.
fn only_social(text: &Text, lex: &Lexicons, neg: &[bool]) -> bool {
    let social = |i: usize| {
        let t = &text.tokens[i];
        t.has_cue(Cue::Thanks)
            || t.has_cue(Cue::Goodbye)
            || t.has_cue(Cue::Greet)
            || t.has_cue(Cue::Negator)
            || (neg[i] && t.is_act_cue())
    };
    let mut leftover = 0;
    let mut p = 0;
    while p < text.chars.len() {
        if text.chars[p] == SEP {
            p += 1;
            continue;
        }
        if let Some(t) = text.token_at(p) {
            if text.tokens[t].is_strong() {
                return false;
            }
            if social(t) {
                p = text.tokens[t].end;
                continue;
            }
        }
        match lex.lists.polite.prefix_at(&text.chars, p) {
            Some(len) => p += len,
            None => {
                leftover += 1;
                p += 1;
            }
        }
    }
    leftover <= 1
}

/// "这两个", "他俩", "这两位": the student points at two advisors at once.
pub(crate) fn names_a_pair(text: &Text, neg: &[bool]) -> bool {
    text.tokens
        .iter()
        .enumerate()
        .any(|(i, t)| t.has_cue(Cue::Pair) && !neg[i])
}

/// Chooses the act (see the module doc for the precedence).
pub(crate) fn classify(text: &Text, lex: &Lexicons, cx: Context<'_>) -> Act {
    let mut s = Seen::default();
    let refs = if cx.pair {
        cx.references.max(2)
    } else {
        cx.references
    };
    for (i, t) in text.tokens.iter().enumerate() {
        if cx.neg[i] {
            continue;
        }
        for cue in t.cues() {
            match cue {
                Cue::Compare => s.compare = true,
                Cue::CompareWeak => s.compare |= compare_weak_counts(text, i, refs),
                Cue::Choose if refs >= 2 => s.compare = true,
                Cue::Choose => s.recommend = true,
                Cue::Difference => s.compare |= refs >= 2,
                Cue::OpenDetail => s.open = true,
                Cue::OpenDetailRef => s.look |= refs >= 1,
                Cue::AskReviews => s.reviews = true,
                Cue::AskReviewsRef => s.reviews |= refs >= 1,
                Cue::AskAbout => s.about = true,
                Cue::Recommend => s.recommend = true,
                Cue::List => s.list = true,
                Cue::Stats => s.stats = true,
                Cue::Help => s.help = true,
                // "我想读研" states a plan; "读研期间能出国交换吗" asks about
                // graduate study itself.
                Cue::WantExam => {
                    let (cs, ce) = text.clause(t.start);
                    s.want_exam |=
                        !super::faq::is_question(&text.chars[cs..ce], false, &lex.lists.question)
                }
                Cue::Skip => s.skip = true,
                Cue::ReadBack => s.read_back = true,
                Cue::PlaceQuestion => s.place = true,
                Cue::IntroMajor => s.wish = true,
                Cue::Thanks => s.thanks = true,
                Cue::Goodbye => s.goodbye = true,
                Cue::Greet => s.greet = true,
                _ => {}
            }
        }
    }
    s.open |= s.look && !s.reviews;
    let social = || only_social(text, lex, cx.neg) && cx.references == 0;
    let choosing = cx.references == 0 && (s.recommend || s.list);
    let about_place = refs == 0
        && cx.place
        && (s.place || s.about || cx.jobs_question)
        && (cx.question || s.about)
        && !((cx.has_pref && !cx.jobs_question) || cx.direction || s.wish || s.want_exam)
        && !(s.open || s.reviews || s.recommend || s.list || s.help);
    // "复旦金融有没有对跨考生友好的导师" asks for advisors of a place; the
    // FAQ words in it (跨考) say which. "我跨考，想报南京大学的法学行吗"
    // wishes for a school and a major: the FAQ words are the student's
    // background, and the place is what they ask for.
    // "华南理工的自控，调剂过来的，能看看不": a place with FAQ words in a
    // clause that does not ask tells the student's situation too.
    let wished_place = cx.full_place && (lex.lists.wish.occurs_in(&text.chars) || !cx.faq_asked);
    if cx.faq && refs == 0 && !(cx.place && choosing) && !wished_place {
        Act::Faq
    } else if s.read_back && refs == 0 && (cx.question || !(cx.has_slot || cx.has_pref)) {
        Act::ReadBack
    } else if s.compare {
        Act::Compare
    } else if s.stats && refs == 0 {
        Act::Statistics
    } else if choosing && s.recommend {
        Act::Recommend
    } else if choosing {
        Act::ListAdvisors
    } else if about_place {
        Act::AboutPlace
    } else if s.open {
        Act::OpenDetail
    } else if s.reviews {
        Act::AskReviews
    } else if s.about {
        Act::AskAbout
    } else if s.recommend {
        Act::Recommend
    } else if s.list {
        Act::ListAdvisors
    } else if s.help {
        Act::Help
    } else if cx.references > 0 && cx.question {
        Act::AskAbout
    } else if s.want_exam && !cx.has_slot {
        Act::WantExam
    } else if s.skip && !cx.has_slot && !cx.has_pref && refs == 0 {
        Act::Skip
    } else if s.goodbye && social() {
        Act::Goodbye
    } else if s.thanks && social() {
        Act::Thanks
    } else if s.greet && social() && !cx.has_slot && !cx.has_pref {
        Act::Greet
    } else {
        Act::None
    }
}
