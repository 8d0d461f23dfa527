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
//! - quantities take the value of what they count: `补助很少` criticises,
//!   `骂人少` and `很少延毕` praise, `延毕的特别多` criticises strongly;
//! - a clause that asks (`经费怎么样`) or does not know (`不清楚`) judges
//!   nothing: its topics are [`Judged::Unknown`];
//! - a topic named with no judgement is [`Judged::Mentioned`] ("补助每月三千":
//!   said, but whether that is good needs a norm).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::lexfile;
use super::words::WordSet;

const LEXICON: &str = include_str!("../../lexicons/opinion.txt");

/// What a term does in a judgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    Positive,
    Negative,
    Top,
    Bottom,
    Hedge,
    Activity,
    Bad,
    Up,
    Down,
    Strong,
    Weak,
    Negator,
    StrongNegator,
    HedgedNegator,
    Unknown,
    NotYet,
    Asks,
    Neutral,
}

impl Word {
    fn from_key(key: &str) -> Option<Word> {
        Some(match key {
            "positive" => Word::Positive,
            "negative" => Word::Negative,
            "top" => Word::Top,
            "bottom" => Word::Bottom,
            "hedge" => Word::Hedge,
            "activity" => Word::Activity,
            "bad" => Word::Bad,
            "up" => Word::Up,
            "down" => Word::Down,
            "strong" => Word::Strong,
            "weak" => Word::Weak,
            "negator" => Word::Negator,
            "negator.strong" => Word::StrongNegator,
            "negator.hedged" => Word::HedgedNegator,
            "unknown" => Word::Unknown,
            "notyet" => Word::NotYet,
            "asks" => Word::Asks,
            "neutral" => Word::Neutral,
            _ => return None,
        })
    }

    /// A judgement by itself (not a modifier).
    fn is_head(self) -> bool {
        matches!(
            self,
            Word::Positive
                | Word::Negative
                | Word::Top
                | Word::Bottom
                | Word::Hedge
                | Word::Activity
                | Word::Bad
        )
    }

    fn is_negator(self) -> bool {
        matches!(
            self,
            Word::Negator | Word::StrongNegator | Word::HedgedNegator | Word::NotYet
        )
    }
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
}

/// One topic and what a clause says of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<A> {
    pub topic: A,
    pub judged: Judged,
}

/// A feature's topics: terms that name a topic, and terms that name a
/// topic and judge it too ("大厂": the prospects, praised; "延毕": the
/// prospects, a bad thing). Terms are added first; the first reading builds
/// one word list of them and the general words of judgement
/// (`text::words`, searched in one pass).
pub struct Topics<A> {
    /// (term, topic, its judgement, weak), in the order added.
    terms: Vec<(String, A, Option<Word>, bool)>,
    words: OnceLock<WordSet<Meaning<A>>>,
}

/// Everything one term means: its general words of judgement, the topic it
/// names, and whether it names it only under a judgement.
#[derive(Clone, Debug)]
struct Meaning<A> {
    words: Vec<Word>,
    topic: Option<A>,
    weak: bool,
}

impl<A: Copy + Eq> Topics<A> {
    pub fn new() -> Topics<A> {
        Topics {
            terms: Vec::new(),
            words: OnceLock::new(),
        }
    }

    /// `term` names `topic` only when a judgement binds to it ("人" in
    /// "人很好"; not in "有人延毕").
    pub fn add_weak(&mut self, term: &str, topic: A) {
        self.push(term, topic, None, true);
    }

    /// `term` (folded) names `topic`, and judges it as `word` says.
    pub fn add(&mut self, term: &str, topic: A, word: Option<Word>) {
        self.push(term, topic, word, false);
    }

    fn push(&mut self, term: &str, topic: A, word: Option<Word>, weak: bool) {
        assert!(
            self.words.get().is_none(),
            "topics are added before the first reading"
        );
        if !term.is_empty() {
            self.terms.push((term.to_string(), topic, word, weak));
        }
    }

    /// The word list: every term once, with all it means. A feature's
    /// judgement of its own term comes before the general one.
    fn words(&self) -> &WordSet<Meaning<A>> {
        self.words.get_or_init(|| {
            let mut meanings: Vec<(String, Meaning<A>)> = Vec::new();
            let mut at: HashMap<String, usize> = HashMap::new();
            let mut entry = |term: &str| -> usize {
                *at.entry(term.to_string()).or_insert_with(|| {
                    meanings.push((
                        term.to_string(),
                        Meaning {
                            words: Vec::new(),
                            topic: None,
                            weak: false,
                        },
                    ));
                    meanings.len() - 1
                })
            };
            let mut general: Vec<(String, Word)> = Vec::new();
            for e in lexfile::parse("opinion.txt", LEXICON) {
                let word = Word::from_key(&e.key)
                    .unwrap_or_else(|| panic!("opinion.txt: unknown key {}", e.key));
                general.extend(e.terms.iter().map(|t| (super::fold::fold(t), word)));
            }
            let mut slots = Vec::new();
            for (term, word) in &general {
                slots.push((entry(term), Some(*word), None, false));
            }
            for (term, topic, word, weak) in &self.terms {
                slots.push((entry(term), *word, Some(*topic), *weak));
            }
            for (i, word, topic, weak) in slots {
                let m = &mut meanings[i].1;
                match topic {
                    None => {
                        if let Some(w) = word.filter(|w| !m.words.contains(w)) {
                            m.words.push(w);
                        }
                    }
                    Some(a) => {
                        m.topic = m.topic.or(Some(a));
                        m.weak |= weak;
                        if let Some(w) = word {
                            m.words.retain(|x| !x.is_head());
                            m.words.insert(0, w);
                        }
                    }
                }
            }
            WordSet::new(meanings)
        })
    }

    /// Adds `term` as a word of the given kind ("positive", "bad" …), or
    /// `None` when the kind is unknown.
    pub fn add_judging(&mut self, term: &str, topic: A, kind: &str) -> Option<()> {
        let word = Word::from_key(kind)?;
        self.add(term, topic, Some(word));
        Some(())
    }

    /// The topics `chars` names, each once, in order.
    pub fn named(&self, chars: &[char]) -> Vec<A> {
        let mut out: Vec<A> = Vec::new();
        for (_, _, a) in self.spans(chars) {
            if !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }

    /// Where `chars` names a topic: (start, end, topic), weak terms left out.
    pub fn spans(&self, chars: &[char]) -> Vec<(usize, usize, A)> {
        tokenize(self, chars)
            .into_iter()
            .filter(|t| !t.weak)
            .filter_map(|t| t.topic.map(|a| (t.start, t.end, a)))
            .collect()
    }
}

impl<A: Copy + Eq> Default for Topics<A> {
    fn default() -> Self {
        Topics::new()
    }
}

#[derive(Clone, Debug)]
struct Token<A> {
    /// Char offsets in the clause.
    start: usize,
    end: usize,
    words: Vec<Word>,
    topic: Option<A>,
    weak: bool,
}

impl<A> Token<A> {
    fn has(&self, w: Word) -> bool {
        self.words.contains(&w)
    }
    fn head(&self) -> Option<Word> {
        self.words.iter().copied().find(|w| w.is_head())
    }
}

/// The clause in tokens: at each place the longest term, with every
/// meaning it has.
fn tokenize<A: Copy + Eq>(topics: &Topics<A>, chars: &[char]) -> Vec<Token<A>> {
    let text: String = chars.iter().collect();
    // Byte offset → char offset, for the word list's byte ranges.
    let mut char_at = vec![0; text.len() + 1];
    for (n, (b, c)) in text.char_indices().enumerate() {
        char_at[b..b + c.len_utf8()].fill(n);
    }
    char_at[text.len()] = chars.len();
    topics
        .words()
        .find(&text)
        .map(|hit| Token {
            start: char_at[hit.start],
            end: char_at[hit.end],
            words: hit.tag.words.clone(),
            topic: hit.tag.topic,
            weak: hit.tag.weak,
        })
        .collect()
}

/// A modifier waiting for the judgement it applies to.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    strong: bool,
    weak: bool,
    negator: Option<Word>,
    /// The negator says a thing is not there (没, 无), not that it is not so.
    existential: bool,
    quantity: Option<i8>,
    /// Where the last modifier ended (a modifier reaches a few characters).
    end: usize,
}

/// How far (in characters of no term) a modifier reaches its judgement.
const REACH: usize = 4;

/// The value of a judgement word under the pending modifiers; `None` for an
/// activity nothing modified (a mention).
fn value(head: Word, p: &Pending) -> Option<i8> {
    let strong = p.strong;
    let v = match (p.negator, head) {
        (Some(Word::StrongNegator), Word::Positive | Word::Top | Word::Activity) => -2,
        (Some(Word::StrongNegator), Word::Negative | Word::Bottom | Word::Bad) => 1,
        (Some(Word::HedgedNegator), Word::Positive | Word::Top | Word::Activity) => -1,
        (Some(Word::HedgedNegator), Word::Negative | Word::Bottom | Word::Bad) => 0,
        (Some(_), Word::Positive | Word::Top | Word::Activity) => -1,
        (Some(_), Word::Negative | Word::Bottom | Word::Bad) => 1,
        (_, Word::Hedge) => 0,
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

/// What `chars` (one clause, folded) says about each topic of `topics`.
/// `carry` is the topic the clause continues when it names none itself;
/// `asks` that the clause is a question (its sentence ends in "？").
pub fn read<A: Copy + Eq>(
    topics: &Topics<A>,
    chars: &[char],
    carry: Option<A>,
    asks: bool,
) -> Vec<Statement<A>> {
    let tokens = tokenize(topics, chars);
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
    let asks = asks
        || tokens
            .iter()
            .any(|t| t.has(Word::Asks) && !chars[..t.start].contains(&'问'));
    let unknown = tokens.iter().any(|t| t.has(Word::Unknown));
    let unknown_about = |named: Vec<A>| -> Vec<Statement<A>> {
        let about = if named.is_empty() {
            carry.into_iter().collect()
        } else {
            named
        };
        about
            .into_iter()
            .map(|topic| Statement {
                topic,
                judged: Judged::Unknown,
            })
            .collect()
    };
    if asks || unknown {
        return unknown_about(named);
    }
    let out = judge(&tokens, chars, first_topic(&named, &tokens, carry), carry);
    // "还没进组": not yet — nothing judged unless the clause judges something
    // all the same ("劳务费拖了半年还没发").
    // Only a topic it names: "我还没正式进组" leaves what came before as it was.
    if tokens.iter().any(|t| t.has(Word::NotYet))
        && !out.iter().any(|s| matches!(s.judged, Judged::Value(_)))
    {
        return named
            .into_iter()
            .map(|topic| Statement {
                topic,
                judged: Judged::Unknown,
            })
            .collect();
    }
    out
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

/// Characters that join two topics into one list ("学术和人品都很好",
/// "经费、设备"): a judgement of the list judges each of them.
const COORDINATORS: [&str; 8] = ["和", "与", "跟", "及", "以及", "、", "还有", "同"];

/// Characters after a topic that make it the setting of the clause, not
/// what it judges ("组会上经常挨批": the relationship, not the academic).
const SETTINGS: [char; 3] = ['上', '里', '中'];

/// The statements of one clause that neither asks nor does not know.
fn judge<A: Copy + Eq>(
    tokens: &[Token<A>],
    chars: &[char],
    first: Option<A>,
    carry: Option<A>,
) -> Vec<Statement<A>> {
    let mut out: Vec<Statement<A>> = Vec::new();
    let mention = |out: &mut Vec<Statement<A>>, topic: A| {
        if !out.iter().any(|s| s.topic == topic) {
            out.push(Statement {
                topic,
                judged: Judged::Mentioned,
            });
        }
    };
    // "不是大厂就是名校读博": either … or, nothing is negated.
    let either_or =
        chars.starts_with(&['不', '是']) && chars.windows(2).skip(2).any(|w| w == ['就', '是']);
    let mut current: Option<A> = None;
    // Topics named as the setting or a qualifier of a statement ("组会上",
    // "论文的版面费"): said only if the clause judges nothing else.
    let mut settings: Vec<A> = Vec::new();
    // The topics of the list `current` ends ("学术和人品"), and where the
    // last topic ended.
    let mut group: Vec<A> = Vec::new();
    let mut topic_end: Option<(usize, usize)> = None;
    let mut pending = Pending::default();
    // The last judgement made, so a quantity after it can change it
    // ("延毕的特别多", "管得比较少"): (index in `out`, its word, where it
    // ended, its token).
    let mut last: Option<(usize, Word, usize, usize)> = None;
    // A judgement of `topic`, and of every other topic of its list.
    let push =
        |out: &mut Vec<Statement<A>>, topic: Option<A>, group: &[A], v: i8| -> Option<usize> {
            let topic = topic?;
            out.push(Statement {
                topic,
                judged: Judged::Value(v),
            });
            let at = out.len() - 1;
            if group.contains(&topic) {
                for other in group.iter().filter(|g| **g != topic) {
                    out.push(Statement {
                        topic: *other,
                        judged: Judged::Value(v),
                    });
                }
            }
            Some(at)
        };
    let text = |a: usize, b: usize| -> String { chars[a.min(b)..b].iter().collect() };
    for (k, t) in tokens.iter().enumerate() {
        if t.start > pending.end + REACH + if pending.quantity.is_some() { 2 } else { 0 } {
            pending = Pending::default();
        }
        if let Some(a) = t.topic {
            let after_topic = topic_end.filter(|(end, j)| {
                t.start <= end + 3 && tokens[j + 1..k].iter().all(|n| n.words.is_empty())
            });
            if t.weak && after_topic.is_some_and(|(_, j)| tokens[j].topic != Some(a)) {
                // "毕业出去的人都挺好": the people of the topic just named,
                // not a topic of their own.
            } else if t.weak && t.head().is_some() && current.is_some() {
                // "毕业去向也挺nice的": a judging word that names a topic
                // when nothing else does ("导师超nice的") judges the topic
                // the clause is about.
            } else {
                let joined = topic_end.is_some_and(|(end, j)| {
                    tokens[j + 1..k].iter().all(|n| n.topic.is_none())
                        && COORDINATORS.contains(&text(end, t.start).as_str())
                });
                if !joined {
                    group.clear();
                }
                if !group.contains(&a) {
                    group.push(a);
                }
                current = Some(a);
                let setting = chars.get(t.end).is_some_and(|c| SETTINGS.contains(c))
                    && !t.words.iter().any(|w| w.is_head());
                // "论文投稿的版面费": a topic that only qualifies the next one.
                let qualifies = !t.words.iter().any(|w| w.is_head())
                    && tokens[k + 1..]
                        .iter()
                        .find(|n| n.topic.is_some() || n.head().is_some())
                        .is_some_and(|n| {
                            !n.weak
                                && n.topic.is_some_and(|b| b != a)
                                && n.start <= t.end + 6
                                && chars[t.end..n.start].contains(&'的')
                        });
                if setting || qualifies {
                    settings.push(a);
                } else if !t.weak {
                    mention(&mut out, a);
                }
                topic_end = Some((t.end, k));
            }
        }
        let target = current.or(first).or(carry);
        let group = if current.is_some() { &group[..] } else { &[] };
        if t.has(Word::Neutral) && t.words.len() == 1 {
            continue;
        }
        let judged_next = |k: usize, end: usize| {
            tokens
                .get(k + 1)
                .filter(|n| n.start <= end + REACH)
                .is_some_and(|n| n.head().is_some() || n.has(Word::Up) || n.has(Word::Down))
        };
        // "基本没什么产出", "几乎没项目": a topic that 没 says is not there.
        if t.topic.is_some() && !t.weak && t.head().is_none() && pending.existential {
            if !judged_next(k, t.end) {
                let v = if pending.negator == Some(Word::StrongNegator) {
                    -2
                } else {
                    -1
                };
                push(&mut out, target, group, v);
                pending = Pending::default();
                continue;
            }
        }
        // A word that negates or judges ("没有", "不给"): a negator when a
        // judgement follows closely, else a judgement.
        let next_head = judged_next(k, t.end);
        let negator = t
            .words
            .iter()
            .copied()
            .find(|w| w.is_negator())
            .filter(|_| !(either_or && t.start == 0));
        if let Some(n) = negator {
            // "压力不大": a negated quantity at the end counts what came
            // before it, as "小" would.
            let count = (t.has(Word::Down) || t.has(Word::Up)) && !next_head;
            if (next_head || t.head().is_none()) && !count {
                pending.negator = Some(n);
                pending.existential = n != Word::NotYet
                    && chars[t.start..t.end]
                        .iter()
                        .any(|c| matches!(c, '没' | '无'));
                pending.end = t.end;
                continue;
            }
        }
        if t.has(Word::Strong) || t.has(Word::Weak) {
            if t.has(Word::Strong) {
                pending.strong = true;
            } else {
                pending.weak = true;
            }
            pending.end = t.end;
            if t.head().is_none() && !t.has(Word::Up) && !t.has(Word::Down) {
                continue;
            }
        }
        let quantity = if t.has(Word::Up) {
            Some(1)
        } else if t.has(Word::Down) {
            Some(-1)
        } else {
            None
        };
        if let (Some(q), None) = (quantity, t.head()) {
            // A quantity counts the bad thing or the activity just before it…
            if let Some((i, word @ (Word::Bad | Word::Activity), at, _)) = last {
                if t.start <= at + REACH {
                    // The count's own value, then its negation ("延毕不多":
                    // few, praise; "不算多": middling).
                    let p = Pending {
                        quantity: Some(q),
                        negator: None,
                        ..pending
                    };
                    if let Some(v) = value(word, &p) {
                        let v = match pending.negator {
                            Some(Word::HedgedNegator) => 0,
                            Some(_) => -v,
                            None => v,
                        };
                        out[i].judged = Judged::Value(v);
                    }
                    pending = Pending::default();
                    last = None;
                    continue;
                }
            }
            // (How often a judgement held says no more: "把人说哭过好几次".)
            if last.is_some_and(|(_, _, at, _)| t.start <= at + REACH) {
                pending = Pending::default();
                last = None;
                continue;
            }
            // … or the bad thing right after it ("很少延毕", "很少有人延毕":
            // words that only name a topic may stand between) …
            let bad_after = tokens[k + 1..]
                .iter()
                .take_while(|n| n.start <= t.end + REACH + 2)
                .find(|n| n.head().is_some() || n.words.iter().any(|w| w.is_negator()))
                .is_some_and(|n| n.head() == Some(Word::Bad));
            if bad_after {
                pending.quantity = Some(q);
                pending.end = t.end;
                continue;
            }
            // … else the topic itself: "补助很少", "经费不多".
            let mag: i8 = if pending.strong { 2 } else { 1 };
            let v = match pending.negator {
                Some(Word::HedgedNegator) => 0,
                Some(Word::StrongNegator) if q > 0 => -2,
                Some(_) => -q,
                None => q * mag,
            };
            push(&mut out, target, group, v);
            pending = Pending::default();
            last = None;
            continue;
        }
        let Some(head) = t.head() else { continue };
        // How bad the bad thing just named is ("push得不算狠", "骂得很凶",
        // "加班还好"): the predicate's degree replaces the bad thing's own,
        // when nothing else was named between them.
        if let Some((i, Word::Bad, at, j)) = last {
            let predicate = matches!(
                head,
                Word::Positive | Word::Negative | Word::Hedge | Word::Top | Word::Bottom
            );
            let same = t.topic.is_none_or(|a| a == out[i].topic)
                && tokens[j + 1..k].iter().all(|n| n.topic.is_none());
            if predicate && same && t.start <= at + REACH {
                if let Some(v) = value(head, &pending) {
                    // "厉害" of a bad thing is how much of it, not praise.
                    let v = if matches!(head, Word::Positive | Word::Top) {
                        -v
                    } else {
                        v
                    };
                    out[i].judged = Judged::Value(v);
                }
                pending = Pending::default();
                last = None;
                continue;
            }
        }
        match value(head, &pending) {
            Some(v) => {
                let i = push(&mut out, target, group, v);
                last = i.map(|i| (i, head, t.end, k));
            }
            None => {
                // An activity with nothing on it yet: a mention that a
                // quantity after it may still judge.
                if let Some(a) = target {
                    out.push(Statement {
                        topic: a,
                        judged: Judged::Mentioned,
                    });
                    last = Some((out.len() - 1, head, t.end, k));
                }
            }
        }
        pending = Pending::default();
    }
    if !out.iter().any(|s| matches!(s.judged, Judged::Value(_))) {
        for a in settings {
            mention(&mut out, a);
        }
    }
    out
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
    }

    #[test]
    fn questions_and_not_knowing_judge_nothing() {
        assert_eq!(values("经费怎么样"), vec![(T::Money, Judged::Unknown)]);
        assert_eq!(values("经费不清楚"), vec![(T::Money, Judged::Unknown)]);
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
                judged: Judged::Unknown
            }]
        );
        let chars: Vec<char> = "我还没进组".chars().collect();
        assert!(read(&topics(), &chars, Some(T::Money), false).is_empty());
    }
}
