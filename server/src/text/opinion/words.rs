//! The words of judgement (`server/lexicons/opinion.txt`) and a feature's
//! topics, in one word list; a clause in tokens, longest term first.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::super::lexfile;
use super::super::words::WordSet;

const LEXICON: &str = include_str!("../../../lexicons/opinion.txt");

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
    /// A thing that is worse the more of it there is ("脾气大", "架子大").
    Heavy,
    /// Praise that, said of a bad thing, says how much of it there is
    /// ("push得很厉害").
    Degree,
    /// A long stretch of time or a total ("一学期", "一共"): a small count
    /// of times after it is seldom.
    Period,
    /// A small count of times ("两三次"): few after a [`Word::Period`]
    /// ("一学期来两三次"), nothing by itself ("每周两次").
    Times,
    /// What is required ("要求", "才能毕业"): a good thing after it is the
    /// requirement, not an achievement ("要求两篇SCI一区").
    Requires,
    /// An intensifier said after the judgement it makes strong ("严得不得了",
    /// "好得要命", "nice到爆").
    After,
    /// How strictly something is demanded ("严", "严格"): after a word of
    /// demand ("要求很严"), or after a topic whose demands are rigor
    /// ("学术上很严格"), it says how much is demanded.
    Strict,
    /// Praise that, right before criticism, is the adverb "very" ("好累",
    /// "好难", "好慌"): a weak intensifier there, no praise.
    WeakBeforeCriticism,
    /// Praise that, before a number, means "almost" ("骂了快半个小时").
    Almost,
}

/// Every negator of the judgement words (`negator`, `.strong`, `.hedged`),
/// longest first: what else reads text for negation (a situation's slot
/// word, "不怎么催") reads the same words.
pub(super) fn negators() -> &'static [String] {
    static N: OnceLock<Vec<String>> = OnceLock::new();
    N.get_or_init(|| {
        let mut out: Vec<String> = lexfile::parse("opinion.txt", LEXICON)
            .into_iter()
            .filter(|e| {
                matches!(
                    Word::from_key(&e.key),
                    Some(Word::Negator | Word::StrongNegator | Word::HedgedNegator)
                )
            })
            .flat_map(|e| e.terms.into_iter().map(|t| super::super::fold::fold(&t)))
            .collect();
        out.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        out.dedup();
        out
    })
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
            "heavy" => Word::Heavy,
            "degree" => Word::Degree,
            "period" => Word::Period,
            "times" => Word::Times,
            "requires" => Word::Requires,
            "strict" => Word::Strict,
            "strong.after" => Word::After,
            "weak.before_criticism" => Word::WeakBeforeCriticism,
            "almost" => Word::Almost,
            _ => return None,
        })
    }

    /// A judgement by itself (not a modifier).
    pub(super) fn is_head(self) -> bool {
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

    pub(super) fn is_negator(self) -> bool {
        matches!(
            self,
            Word::Negator | Word::StrongNegator | Word::HedgedNegator | Word::NotYet
        )
    }
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
    /// Demands ("要求高", "要求很严"): the topics whose demands are rigor,
    /// praise ("对论文要求高"; of any other topic they weigh: "毕业要求高"),
    /// and the topic that excessive demands, or demands of no topic,
    /// criticise ("要求太苛刻": the people who make them).
    pub(super) demands: Demands<A>,
    /// Topics that name the whole ("这个老师"): a weak term in the same
    /// clause says which part is judged ("这个老师很温柔": the people).
    pub(super) general: Vec<A>,
}

/// See [`Topics::set_demands`].
pub(super) struct Demands<A> {
    pub(super) rigor: Vec<A>,
    pub(super) excess: Option<A>,
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
            demands: Demands {
                rigor: Vec::new(),
                excess: None,
            },
            general: Vec::new(),
        }
    }

    /// `topic` names the whole: a weak term beside it names the part
    /// judged ("这个老师很温柔").
    pub fn set_general(&mut self, topic: A) {
        if !self.general.contains(&topic) {
            self.general.push(topic);
        }
    }

    /// Demands made of `rigor` topics are rigor, praise ("对论文要求很高");
    /// of others they weigh, like a heavy thing ("毕业要求比较高"); demands
    /// said to be excessive ("要求太苛刻", "要求高得离谱") criticise `excess`.
    pub fn set_demands(&mut self, rigor: Vec<A>, excess: A) {
        self.demands = Demands {
            rigor,
            excess: Some(excess),
        };
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
                general.extend(e.terms.iter().map(|t| (super::super::fold::fold(t), word)));
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
            // "人品差", "情绪稳定", "没补助": a word of judgement that holds a
            // word naming a topic ("人品", "情绪", "补助") names that topic
            // too — the longest one it holds, of the words that only name a
            // topic (not weak ones like "人", not facts that judge it too
            // like "抠" in "会抠"); modifiers, negators and
            // words that judge nothing ("对我来说") name nothing.
            let naming: Vec<(String, A)> = meanings
                .iter()
                .filter(|(_, m)| !m.weak && !m.words.iter().any(|w| w.is_head()))
                .filter_map(|(t, m)| m.topic.map(|a| (t.clone(), a)))
                .collect();
            for (term, m) in meanings.iter_mut() {
                let judges = m.words.iter().any(|w| w.is_head());
                if m.topic.is_some() || !judges || m.words.contains(&Word::Neutral) {
                    continue;
                }
                m.topic = naming
                    .iter()
                    .filter(|(t, _)| t.len() < term.len() && term.contains(t.as_str()))
                    .max_by_key(|(t, _)| t.chars().count())
                    .map(|(_, a)| *a);
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
pub(super) struct Token<A> {
    /// Char offsets in the clause.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) words: Vec<Word>,
    pub(super) topic: Option<A>,
    pub(super) weak: bool,
}

impl<A> Token<A> {
    pub(super) fn has(&self, w: Word) -> bool {
        self.words.contains(&w)
    }
    pub(super) fn head(&self) -> Option<Word> {
        self.words.iter().copied().find(|w| w.is_head())
    }
}

/// The clause in tokens: at each place the longest term, with every
/// meaning it has.
pub(super) fn tokenize<A: Copy + Eq>(topics: &Topics<A>, chars: &[char]) -> Vec<Token<A>> {
    let text: String = chars.iter().collect();
    // Byte offset → char offset, for the word list's byte ranges.
    let mut char_at = vec![0; text.len() + 1];
    for (n, (b, c)) in text.char_indices().enumerate() {
        char_at[b..b + c.len_utf8()].fill(n);
    }
    char_at[text.len()] = chars.len();
    let mut byte_at = vec![text.len(); chars.len() + 1];
    for (n, (b, _)) in text.char_indices().enumerate() {
        byte_at[n] = b;
    }
    let words = topics.words();
    let tokens: Vec<Token<A>> = words
        .find(&text)
        .map(|hit| Token {
            start: char_at[hit.start],
            end: char_at[hit.end],
            words: hit.tag.words.clone(),
            topic: hit.tag.topic,
            weak: hit.tag.weak,
        })
        .collect();
    let mut out: Vec<Token<A>> = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let t = &tokens[k];
        // "从来不给推荐", "几乎没钱": a negator whose last character starts
        // a longer word of criticism ("不给推荐", "没钱") is read as the
        // adverb before it and that word — an absolute adverb makes the
        // criticism strong ("从来" + "不给推荐": never recommends anyone).
        if let Some((word, end)) =
            negated_word(words, &text, &byte_at, chars, t).filter(|(_, end)| {
                tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start < *end)
                    .all(|n| n.end <= *end)
            })
        {
            if t.has(Word::StrongNegator) {
                out.push(Token {
                    start: t.start,
                    end: t.end - 1,
                    words: vec![Word::Strong],
                    topic: None,
                    weak: false,
                });
            }
            out.push(Token {
                start: t.end - 1,
                end,
                words: word.words.clone(),
                topic: word.topic,
                weak: word.weak,
            });
            k += 1;
            while tokens.get(k).is_some_and(|n| n.start < end) {
                k += 1;
            }
            continue;
        }
        // "骂了快半个小时", "快两点了": 快 before a number is "almost", no
        // praise of speed.
        let number_next = chars.get(t.end).is_some_and(|&c| {
            c.is_ascii_digit() || crate::text::numbers::is_cn_numeral(c) || c == '半'
        });
        if t.has(Word::Almost) && number_next {
            k += 1;
            continue;
        }
        // "好累", "好慌": 好 right before criticism is "very", not praise.
        let criticism_next = tokens.get(k + 1).is_some_and(|n| {
            n.start == t.end
                && n.words
                    .iter()
                    .any(|w| matches!(w, Word::Negative | Word::Bottom | Word::Bad))
        });
        if t.has(Word::WeakBeforeCriticism) && criticism_next {
            out.push(Token {
                start: t.start,
                end: t.end,
                words: vec![Word::Weak],
                topic: None,
                weak: false,
            });
            k += 1;
            continue;
        }
        out.push(t.clone());
        k += 1;
    }
    out
}

/// The fact of criticism that starts at the last character of the negator
/// `t` ("从来不" + "不给推荐"), and where it ends, when it runs past `t`.
fn negated_word<'a, A: Copy + Eq>(
    words: &'a WordSet<Meaning<A>>,
    text: &'a str,
    byte_at: &[usize],
    chars: &[char],
    t: &Token<A>,
) -> Option<(&'a Meaning<A>, usize)> {
    let negator_only = t.words.iter().any(|w| w.is_negator()) && t.head().is_none();
    if !negator_only || t.end < t.start + 2 || !matches!(chars[t.end - 1], '不' | '没') {
        return None;
    }
    let from = byte_at[t.end - 1];
    let hit = words.find(&text[from..]).next().filter(|h| h.start == 0)?;
    let end = t.end - 1 + text[from..from + hit.end].chars().count();
    // A fact of the feature's that names its topic ("不给推荐"), not a
    // general verb whose object follows ("从来不给我们压力").
    let criticises = hit.tag.topic.is_some()
        && hit
            .tag
            .words
            .iter()
            .any(|w| matches!(w, Word::Negative | Word::Bad | Word::Bottom));
    (criticises && end > t.end).then_some((hit.tag, end))
}
