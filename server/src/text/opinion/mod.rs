//! Opinions: what a clause says about each topic it names, and how
//! strongly — the one reader of praise, criticism, negation, degree and
//! hedges (`server/lexicons/opinion.txt`).
//!
//! A feature brings its topics ([`Topics`]: the review coach's four
//! dimensions and the facts its readers take as good or bad); the words of
//! judgement are general Chinese and live here. A clause is read left to
//! right in tokens (longest term first, so "不错" is praise and "水平" is no
//! "水"):
//!
//! - a judgement (`好`, `差`, `顶尖`, `还行`) belongs to the topic named last
//!   before it in the clause, else the first one after it, else the topic
//!   the clause continues (`carry`: "经费很少，给个3分吧");
//! - an intensifier before it (`非常` strong, `很` weak) and a negator
//!   (`不`, `根本不`, `不算`) change it: praise 4 / 5, criticism 2 / 1,
//!   middling 3 ([`Judged::Value`] from −2 to 2);
//! - a denial of a negation concedes ("不是不管", "并非没有经费": middling),
//!   two plain negations affirm ("没有不满意的"), and an absolute adverb
//!   holding a fact's first 不 makes it strong ("从来不给推荐");
//! - demands ("要求很严", "对论文要求极高") are rigor, praise, of the topics
//!   a feature names ([`Topics::set_demands`]) and weigh on the others;
//!   excessive ones ("要求太苛刻") criticise the feature's `excess` topic;
//! - quantities take the value of what they count: `补助很少` criticises,
//!   `骂人少` and `很少延毕` praise, `延毕的特别多` criticises strongly;
//! - a clause that asks (`经费怎么样`) or does not know (`不清楚`) judges
//!   nothing: its topics are [`Judged::Unknown`];
//! - a topic named with no judgement is [`Judged::Mentioned`] ("补助每月三千":
//!   said, but whether that is good needs a norm).
//!
//! The words and the feature's topics, tokenised longest first, are in
//! `words.rs`; how one clause's tokens are judged, phase by phase, in
//! `judge/`; the headings a long post is laid out by ("【经费】", "缺点："), in
//! `sections.rs`; what students tell instead of judging ("凌晨一点老板
//! @我"), in `situations.rs`; praise set in quotation marks ("太关心"), in
//! `irony.rs`.

pub mod irony;
mod judge;
pub mod sections;
pub mod situations;
pub mod voice;
mod words;

pub use words::{Topics, Word};

use judge::judge;
use words::{tokenize, Token};

/// Whether `chars` holds any of `words` (the cue lists of `voice` and
/// `irony`, read as plain substrings).
fn holds(chars: &[char], words: &[String]) -> bool {
    let text: String = chars.iter().collect();
    words.iter().any(|w| text.contains(w.as_str()))
}

/// What a clause says about one topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// From −2 (strong criticism) to 2 (strong praise); 0 is middling.
    Value(i8),
    /// Named, nothing judged.
    Mentioned,
    /// Asked about, or the writer does not know: not said.
    Unknown,
    /// Not yet ("还没毕业"): not said, but it takes back nothing the message
    /// judged before ("博六了，还没毕业" is still a late graduation).
    NotYet,
}

/// One topic and what a clause says of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<A> {
    pub topic: A,
    pub judged: Judged,
}

/// What `chars` (one clause, folded) says about each topic of `topics`.
/// `carry` is the topic the clause continues when it names none itself;
/// `asks` that the clause is a question (its sentence ends in "？").
pub fn read<A: Copy + Eq>(
    topics: &Topics<A>,
    chars: &[char],
    carry: Option<A>,
    asks: bool,
) -> Vec<Statement<A>> {
    // "发了很大的火": the separable verb the lexicons hold (发火).
    let joined = super::separable::joined(chars);
    let chars = joined.as_deref().unwrap_or(chars);
    // "这不是压榨是啥": read as what it affirms.
    let affirmed = irony::affirmed(chars);
    let chars = affirmed.as_deref().unwrap_or(chars);
    // "老板还嫌我进度慢": what follows is the advisor's judgement of the
    // writer, not the writer's of the advisor.
    if let Some(n) = voice::of_writer(chars) {
        return read(topics, &chars[..n], carry, asks);
    }
    // "压榨我倒不觉得": the writer denies the judgement put before their
    // disbelief — rejected criticism is praise, rejected praise criticism.
    if let Some(n) = super::clauses::denied_before_disbelief(chars) {
        let mut out = read(topics, &chars[..n], carry, asks);
        for s in &mut out {
            if let Judged::Value(v) = s.judged {
                s.judged = Judged::Value(-v.signum());
            }
        }
        return out;
    }
    let mut tokens = tokenize(topics, chars);
    // "这个老师很温柔": the whole named, a part judged — the part.
    let is_general = |t: &Token<A>| !t.weak && t.topic.is_some_and(|a| topics.general.contains(&a));
    let part = tokens
        .iter()
        .filter(|t| t.weak)
        .find_map(|t| t.topic.filter(|a| !topics.general.contains(a)));
    let only_general = tokens
        .iter()
        .filter(|t| !t.weak && t.topic.is_some())
        .all(is_general);
    if part.is_some() && only_general {
        for t in tokens.iter_mut().filter(|t| is_general(t)) {
            t.topic = None;
        }
    }
    let named: Vec<A> = {
        let mut v: Vec<A> = Vec::new();
        for t in tokens.iter().filter(|t| !t.weak) {
            if let Some(a) = t.topic {
                if !v.contains(&a) {
                    v.push(a);
                }
            }
        }
        v
    };
    // "会主动问我们适应得怎么样": a question the clause reports asks nothing.
    // "经费多不多": the A不A of a yes-no question asks too.
    let asks = asks
        || tokens
            .iter()
            .any(|t| t.has(Word::Asks) && !chars[..t.start].contains(&'问'))
        || super::clauses::asks_either_way(chars);
    // "老板根本不知道我在做啥": someone else not knowing is no writer's
    // not knowing.
    // "还不知道他研究啥": not knowing what the advisor does is no doubt
    // about how well (`what_of`).
    let unknown = tokens.iter().any(|t| {
        t.has(Word::Unknown) && !voice::theirs(&chars[..t.start]) && !what_of(&chars[t.end..])
    });
    if asks || unknown {
        // What it names, else the topic it continues ("说不好"). A question
        // that names nothing after a statement asks nothing of its topic:
        // it is rhetorical ("补助拉胯得离谱，在北京喝西北风吗").
        let about = if !named.is_empty() {
            named
        } else if unknown {
            // "钱的话我不太清楚": a word that names its topic only under a
            // judgement names it under not knowing too.
            tokens
                .iter()
                .find_map(|t| t.topic)
                .or(carry)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        return unknown_of(about);
    }
    let out = judge(
        &tokens,
        chars,
        first_topic(&named, &tokens, carry),
        carry,
        &topics.demands,
    );
    // "还没进组": not yet — nothing judged unless the clause judges something
    // all the same ("劳务费拖了半年还没发"), and then only what it names is
    // unknown ("我还没正式进组" leaves what came before as it was).
    if tokens.iter().any(|t| t.has(Word::NotYet))
        && !out.iter().any(|s| matches!(s.judged, Judged::Value(_)))
    {
        return named
            .into_iter()
            .map(|topic| Statement {
                topic,
                judged: Judged::NotYet,
            })
            .collect();
    }
    out
}

/// Whether what follows a word of not knowing asks what someone does
/// ("他研究啥", "他是做什么的"), not how things are ("什么情况", "怎么样"):
/// a verb, then 啥, 什么 or 干嘛 last (particles aside).
fn what_of(after: &[char]) -> bool {
    let particle = |c: &char| matches!(c, '的' | '了' | '呢' | '啊' | '吧');
    let mut end = after.len();
    while end > 0 && particle(&after[end - 1]) {
        end -= 1;
    }
    let s = &after[..end];
    let what = |w: &[char]| s.ends_with(w) && s.len() > w.len() + 1;
    let starts = s.starts_with(&['啥']) || s.starts_with(&['什', '么']);
    !starts && (what(&['啥']) || what(&['什', '么']) || what(&['干', '嘛']))
}

/// `topics`, each not said.
fn unknown_of<A>(topics: Vec<A>) -> Vec<Statement<A>> {
    topics
        .into_iter()
        .map(|topic| Statement {
            topic,
            judged: Judged::Unknown,
        })
        .collect()
}

/// The topic a judgement before any topic belongs to: the first one the
/// clause names, else the topic it continues (`carry`), else the first word
/// that names one only under a judgement ("够做实验" after "课题经费一般"
/// is the funding, not the 实验).
fn first_topic<A: Copy>(named: &[A], tokens: &[Token<A>], carry: Option<A>) -> Option<A> {
    named
        .first()
        .copied()
        .or(carry)
        .or_else(|| tokens.iter().find_map(|t| t.topic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fold::fold;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum T {
        Money,
        People,
        Work,
    }

    fn topics() -> Topics<T> {
        let mut t = Topics::new();
        t.add("经费", T::Money, None);
        t.add("补助", T::Money, None);
        t.add("老师", T::People, None);
        t.add("脾气", T::People, None);
        t.add("延毕", T::Work, Some(Word::Bad));
        t.add("毕业", T::Work, None);
        t.add("组会", T::Work, None);
        t
    }

    fn values(s: &str) -> Vec<(T, Judged)> {
        let chars: Vec<char> = fold(s).chars().collect();
        read(&topics(), &chars, None, false)
            .into_iter()
            .filter(|s| s.judged != Judged::Mentioned)
            .map(|s| (s.topic, s.judged))
            .collect()
    }

    fn v(s: &str) -> i8 {
        match values(s).last() {
            Some((_, Judged::Value(v))) => *v,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn not_knowing_what_someone_does_is_no_doubt_about_how_well() {
        assert!(what_of(&fold("他研究啥").chars().collect::<Vec<_>>()));
        assert!(what_of(&fold("他是做什么的").chars().collect::<Vec<_>>()));
        assert!(!what_of(&fold("什么情况").chars().collect::<Vec<_>>()));
        assert!(!what_of(&fold("怎么样").chars().collect::<Vec<_>>()));
    }

    #[test]
    fn degree_turns_praise_and_criticism() {
        assert_eq!(v("经费很好"), 1);
        assert_eq!(v("经费非常好"), 2);
        assert_eq!(v("经费特别差"), -2);
        assert_eq!(v("经费差"), -1);
        assert_eq!(v("经费还行"), 0);
        assert_eq!(v("经费还不错"), 1);
    }

    #[test]
    fn negation_turns_and_hedged_negation_halves() {
        assert_eq!(v("脾气不好"), -1);
        assert_eq!(v("脾气不太好"), -1);
        assert_eq!(v("脾气一点都不好"), -2);
        assert_eq!(v("脾气不差"), 1);
        assert_eq!(v("补助不算少"), 0);
        assert_eq!(v("老师从不骂人"), 1);
        assert_eq!(v("老师根本不管"), -2);
        assert_eq!(v("老师不怎么指导"), -1);
    }

    #[test]
    fn quantities_take_the_value_of_what_they_count() {
        assert_eq!(v("补助很少"), -1);
        assert_eq!(v("补助特别少"), -2);
        assert_eq!(v("补助不少"), 1);
        assert_eq!(v("经费不多"), -1);
        assert_eq!(v("延毕的特别多"), -2);
        assert_eq!(v("很少延毕"), 1);
        assert_eq!(v("经常延毕"), -1);
        assert_eq!(v("老师管得比较少"), -1);
        // The degree of a count counts as for any judgement.
        assert_eq!(v("老师指导太少了"), -2);
        assert_eq!(v("老师指导特别多"), 2);
        assert_eq!(v("极少延毕"), 2);
        // A count right after its topic is that topic's, not a count of
        // the bad thing after it.
        assert_eq!(values("补助少延毕多")[0], (T::Money, Judged::Value(-1)));
        // A small count of times over a long stretch is seldom; alone, or
        // counting how often a judgement held, it says nothing.
        assert_eq!(v("组会一学期开两三次"), -1);
        assert!(values("组会每周开两次").is_empty());
        // A count before 都 that a judgement follows counts what that
        // judgement is about ("many of them"): it judges nothing itself.
        assert_eq!(v("补助好多都很差"), -1);
    }

    #[test]
    fn a_judging_word_with_an_object_judges_the_object() {
        let mut t = topics();
        t.add("关心", T::People, Some(Word::Positive));
        let read_of = |s: &str| -> Vec<(T, Judged)> {
            let chars: Vec<char> = fold(s).chars().collect();
            read(&t, &chars, None, false)
                .into_iter()
                .filter(|s| s.judged != Judged::Mentioned)
                .map(|s| (s.topic, s.judged))
                .collect()
        };
        assert_eq!(
            read_of("从不关心我们的毕业"),
            vec![(T::Work, Judged::Value(-2))]
        );
        assert_eq!(read_of("很关心学生"), vec![(T::People, Judged::Value(1))]);
    }

    #[test]
    fn a_judging_word_that_holds_a_topic_names_it() {
        // "急脾气" holds "脾气": the judgement is of the people.
        assert_eq!(values("就是急脾气"), vec![(T::People, Judged::Value(-1))]);
    }

    #[test]
    fn what_is_required_is_no_achievement() {
        let mut t = topics();
        t.add("一区", T::Work, Some(Word::Positive));
        let chars: Vec<char> = fold("毕业要求两篇一区").chars().collect();
        assert!(read(&t, &chars, None, false)
            .iter()
            .all(|s| !matches!(s.judged, Judged::Value(v) if v > 0)));
    }

    #[test]
    fn questions_and_not_knowing_judge_nothing() {
        assert_eq!(values("经费怎么样"), vec![(T::Money, Judged::Unknown)]);
        assert_eq!(values("经费不清楚"), vec![(T::Money, Judged::Unknown)]);
        // A question naming nothing asks nothing of the topic before it.
        let chars: Vec<char> = "在北京喝西北风吗".chars().collect();
        assert!(read(&topics(), &chars, Some(T::Money), false).is_empty());
        let chars: Vec<char> = "说不好".chars().collect();
        assert_eq!(
            read(&topics(), &chars, Some(T::Work), false),
            vec![Statement {
                topic: T::Work,
                judged: Judged::Unknown
            }]
        );
    }

    #[test]
    fn judgements_bind_to_the_topic_named_before_them() {
        assert_eq!(
            values("经费很少老师很好"),
            vec![(T::Money, Judged::Value(-1)), (T::People, Judged::Value(1))]
        );
        // A count with a measure word counts the noun after it.
        assert_eq!(
            values("十个老师只有两个补助"),
            vec![(T::Money, Judged::Value(-1))]
        );
        // Words that hold a judging word judge nothing.
        assert!(values("毕业的师兄水平一般都能按时走")
            .iter()
            .all(|(_, j)| *j != Judged::Value(-1)));
        let chars: Vec<char> = "补助每个月三千".chars().collect();
        assert_eq!(
            read(&topics(), &chars, None, false),
            vec![Statement {
                topic: T::Money,
                judged: Judged::Mentioned
            }]
        );
    }

    #[test]
    fn a_list_is_judged_as_a_whole_and_a_setting_only_when_nothing_else_is() {
        // The judgement binds to the list's last topic, then to the others.
        assert_eq!(
            values("经费和脾气都很好"),
            vec![(T::People, Judged::Value(1)), (T::Money, Judged::Value(1))]
        );
        assert_eq!(
            values("经费、脾气都一般"),
            vec![(T::People, Judged::Value(0)), (T::Money, Judged::Value(0))]
        );
        // "组会上" sets the scene of a judgement of the people…
        let chars: Vec<char> = "组会上脾气很差".chars().collect();
        assert!(read(&topics(), &chars, None, false)
            .iter()
            .all(|s| s.topic == T::People));
        // … and is said when nothing else is judged.
        let chars: Vec<char> = "组会上讲了很久".chars().collect();
        assert_eq!(
            read(&topics(), &chars, None, false),
            vec![Statement {
                topic: T::Work,
                judged: Judged::Mentioned
            }]
        );
    }

    /// The test topics with a fact that starts with 不, and demands.
    fn read_with(s: &str, carry: Option<T>) -> Vec<(T, Judged)> {
        let mut t = topics();
        t.add("不给推荐", T::Work, Some(Word::Bad));
        t.set_demands(vec![T::Work], T::People);
        let chars: Vec<char> = fold(s).chars().collect();
        read(&t, &chars, carry, false)
            .into_iter()
            .filter(|s| s.judged != Judged::Mentioned)
            .map(|s| (s.topic, s.judged))
            .collect()
    }

    #[test]
    fn an_absolute_negator_holding_a_fact_s_first_character_makes_it_strong() {
        // "从来不" + "不给推荐": never — strong criticism; a plain negator
        // before it leaves it plain.
        assert_eq!(
            read_with("从来不给推荐", None),
            vec![(T::Work, Judged::Value(-2))]
        );
        assert_eq!(
            read_with("几乎不给推荐", None),
            vec![(T::Work, Judged::Value(-1))]
        );
        // An absolute negation of a short verb before a topic: not there;
        // after it, closing the clause, too.
        assert_eq!(v("从来不发补助"), -2);
        assert_eq!(v("补助从来不发"), -2);
        // An absolute 没 closing the clause: what it continues is not there.
        assert_eq!(
            read_with("有的一篇都没有", Some(T::Work)),
            vec![(T::Work, Judged::Value(-2))]
        );
        // "有的月份有": some of what the clause continues is there.
        assert_eq!(
            read_with("有的月份有", Some(T::Money)),
            vec![(T::Money, Judged::Value(1))]
        );
        // A 没 closing the clause after a bad thing negates it.
        assert_eq!(v("一个延毕的都没有"), 1);
    }

    #[test]
    fn double_negation_affirms_and_a_hedged_one_is_middling() {
        // Two plain negations: it is so.
        assert_eq!(v("脾气没有不好"), 1);
        assert_eq!(v("补助没有不满意的"), 1);
        // A hedged negation of a negation: so, grudgingly.
        assert_eq!(v("经费不是不够"), 0);
        assert_eq!(v("补助也不是说不好"), 0);
        assert_eq!(v("脾气不是不好"), 0);
        assert_eq!(v("并非没有补助"), 0);
        // A plain denial of praise is criticism.
        assert_eq!(v("脾气不是很好"), -1);
        assert_eq!(v("补助不是特别多"), -1);
        // Short of praise, hedged, is middling; short of it, plainly, is not.
        assert_eq!(v("脾气谈不上多好"), 0);
        assert_eq!(v("脾气算不上好"), 0);
        assert_eq!(v("脾气不是很好"), -1);
        assert_eq!(v("脾气也不是很好"), -1);
    }

    #[test]
    fn demands_are_rigor_of_some_topics_and_weigh_on_others() {
        // Of a topic whose demands are rigor: praise, by its degree.
        assert_eq!(
            read_with("组会要求很严", None),
            vec![(T::Work, Judged::Value(1))]
        );
        assert_eq!(
            read_with("组会要求特别高", None),
            vec![(T::Work, Judged::Value(2))]
        );
        assert_eq!(
            read_with("组会上很严格", None),
            vec![(T::Work, Judged::Value(1))]
        );
        // Of any other topic they weigh: "毕业要求高".
        assert_eq!(
            read_with("经费要求很高", None),
            vec![(T::Money, Judged::Value(-1))]
        );
        assert_eq!(
            read_with("经费要求不高", None),
            vec![(T::Money, Judged::Value(1))]
        );
        // A comparison between the demand and its degree.
        assert_eq!(
            read_with("经费要求定得比谁都高", None),
            vec![(T::Money, Judged::Value(-1))]
        );
        // Excessive, or of no topic and excessive: the people who make them.
        assert_eq!(
            read_with("要求太苛刻了", None),
            vec![(T::People, Judged::Value(-2))]
        );
        assert_eq!(
            read_with("组会要求高得离谱", None),
            vec![(T::People, Judged::Value(-2))]
        );
        // Demands of no topic, not said to be excessive, judge nothing.
        assert!(read_with("要求很高", None).is_empty());
    }

    #[test]
    fn a_bad_thing_s_predicate_and_a_missing_thing_give_the_degree() {
        // How bad the bad thing is.
        assert_eq!(v("延毕还好"), 0);
        assert_eq!(v("延毕很严重"), -1);
        // A negated count at the end of the clause, not a double negation.
        assert_eq!(v("延毕不多"), 1);
        assert_eq!(v("延毕不算多"), 0);
        // 没 + a topic: it is missing.
        assert_eq!(v("几乎没经费"), -1);
        assert_eq!(v("根本没补助"), -2);
        // Not yet: nothing judged, and only what it names is unknown.
        let chars: Vec<char> = "还没毕业".chars().collect();
        assert_eq!(
            read(&topics(), &chars, Some(T::Money), false),
            vec![Statement {
                topic: T::Work,
                judged: Judged::NotYet
            }]
        );
        let chars: Vec<char> = "我还没进组".chars().collect();
        assert!(read(&topics(), &chars, Some(T::Money), false).is_empty());
    }

    #[test]
    fn good_right_before_criticism_is_very() {
        assert_eq!(v("延毕了好累"), -1);
        assert_eq!(v("延毕好难"), -1);
        assert_eq!(v("延毕还好"), 0);
    }
}
