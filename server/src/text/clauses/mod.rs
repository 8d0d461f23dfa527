//! Clauses: the one place a message is cut into sentences and clauses.
//!
//! Every reader of a message — the speech acts (whose words, what they do
//! to an action), the agent's understanding, the review coach's reading of
//! a review, the posting rules — takes its clauses from here, so "where
//! does this statement end" has one answer:
//!
//! - a sentence ends at `。 ! ? ！ ？` or a line break; a clause inside it at
//!   `， 、 ; : … ~` and quotes, at a full stop between words (not in
//!   "4.5"), and at an emoji;
//! - [`split_at_connectives`] reads a review by aspect: it keeps a list
//!   ("经费、设备") in one clause and cuts where typed speech puts a space
//!   between two phrases instead of a comma;
//! - [`split_at_connectives`] also cuts where a connective starts a new
//!   statement without punctuation, as spoken text has none: a contrast
//!   (但是, 不过, 可是, 就是, 可惜 …) or a revision (其实, 后来发现 …). The
//!   connective is taken off the clause and kept as its [`Link`], so
//!   "学术很强但是经费少" is two clauses, the second one contrasting.
//!
//! Clauses are read in folded text (`text::fold::fold`): half-width
//! punctuation, simplified characters.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::lexfile;

mod subject;
pub use subject::about_someone_else;

const CONNECTIVES: &str = include_str!("../../../lexicons/clauses.txt");

/// How a clause relates to what came before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Link {
    #[default]
    None,
    /// 但是 / 不过 / 可惜: it turns against the clause before.
    Contrast,
    /// 其实 / 后来发现 / 更正一下: it corrects what was said earlier.
    Revision,
    /// 虽然 / 尽管: it concedes what a contrast will turn against.
    Concession,
    /// 而是: it says what is true instead of the clause before ("不是不指导，
    /// 而是每周都讨论").
    Instead,
}

/// One clause of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Its words, folded, without the connective that opened it and without
    /// spaces between Chinese characters.
    pub text: String,
    /// Which sentence of the message it belongs to (from 0).
    pub sentence: usize,
    /// Its sentence ends in a question mark.
    pub question_mark: bool,
    pub link: Link,
    /// It ends at a colon: a label before what it names ("学术水平：5").
    pub before_colon: bool,
    /// Its revision takes back what came before ("说错了，…": a word of the
    /// `retract` list opened it), rather than saying it anew in its own
    /// words ("其实…").
    pub takes_back: bool,
}

impl Clause {
    pub fn chars(&self) -> Vec<char> {
        self.text.chars().collect()
    }

    /// Whether it judges the statement before it rather than a thing of its
    /// own: it opens, after the writer's view, with a word that points back
    /// ("不过我觉得这样挺好的").
    pub fn refers_back(&self) -> bool {
        let mut rest = self.text.as_str();
        if let Some(lead) = list("lead").iter().find(|l| rest.starts_with(l.as_str())) {
            rest = &rest[lead.len()..];
        }
        list("anaphor").iter().any(|a| rest.starts_with(a.as_str()))
    }

    /// Whether it gives the writer's view ("我觉得挺好的", "对我来说反而是
    /// 好事"): with no topic of its own, it judges the statement before it.
    pub fn gives_view(&self) -> bool {
        self.has("lead")
    }

    fn has(&self, key: &str) -> bool {
        list(key).iter().any(|w| self.text.contains(w.as_str()))
    }

    /// Whether it takes itself back ("脾气差是我记错了"): a word of
    /// retraction after its statement (at its start, the word is a
    /// revision of what came before).
    pub fn retracts(&self) -> bool {
        self.has("retract")
    }

    /// Whether it says what the writer expected rather than what is so
    /// ("本来以为老师会手把手带", "之前以为经费充足").
    pub fn expected(&self) -> bool {
        self.has("expectation")
    }

    /// Whether it judges the rest, apart from what came before ("除了经费少，
    /// 其他都挺好").
    pub fn about_the_rest(&self) -> bool {
        self.has("rest")
    }

    /// Whether it speaks of an earlier state ("以前经费紧张", "刚进组那会儿"):
    /// a later clause of the message that speaks of now ([`Clause::now`])
    /// replaces what it said, as a correction does.
    pub fn then(&self) -> bool {
        self.has("then")
    }

    /// Whether it speaks of the present or a later time ("现在项目多了",
    /// "这两年都按时毕业").
    pub fn now(&self) -> bool {
        self.has("now") && !self.then()
    }

    /// Whether it rejects what someone else was reported to say, and says
    /// nothing of its own ("我倒不觉得", "其实没有", "纯属谣言", "我觉得并不是"):
    /// after the writer's lead words, a bare denial, or a word of disbelief.
    pub fn refutes(&self) -> bool {
        let rest = skip_all(&self.text, "refute_lead");
        let rest = rest.trim_end_matches(FINAL_PARTICLES);
        list("denial").iter().any(|d| d == rest) || self.has("disbelief")
    }

    /// Whether it tells that something never happened ("他一次都没让我干
    /// 过"): after someone else's words, what they said did not happen to
    /// the writer.
    pub fn never(&self) -> bool {
        self.has("never")
    }

    /// Whether it wishes for something ("要是经费再多点就好了", "希望老师能
    /// 多指导"): what it wishes for is lacking now.
    pub fn wishes(&self) -> bool {
        self.has("wish")
    }

    /// Whether it denies what the next clause puts instead ("不是不指导，
    /// 是每周都讨论"): it opens with 不是 (and is not "不是…就是…"), and
    /// `next` opens with 是 or 而是.
    pub fn denied_by(&self, next: &Clause) -> bool {
        // "脾气不是不好，是有点急": 不是 after the topic too.
        let denies = self.text.starts_with("不是")
            || self.text.char_indices().any(|(i, _)| {
                i > 0
                    && i <= 18
                    && (self.text[i..].starts_with("不是不")
                        || self.text[i..].starts_with("不是没"))
            });
        denies
            && !self.text.contains("就是")
            && next.sentence == self.sentence
            && (next.link == Link::Instead || next.text.starts_with('是'))
    }

    /// Whether it asks: its sentence ends in "？", or it ends in a question
    /// particle (吗, 么, 呢 after a question word is the reader's to say).
    pub fn asks(&self) -> bool {
        self.question_mark || self.text.ends_with(['吗', '么', '嘛'])
    }
}

/// Whether `chars` holds the A不A (or A没A) of a yes-no question: "经费多不多",
/// "人好不好", "有没有推荐信". Words of that shape that ask nothing (时不时,
/// 动不动: the `not_asking` list) do not count, nor does one a statement
/// holds ("问我们有没有困难", "不管听没听懂": `embeds_question`).
pub fn asks_either_way(chars: &[char]) -> bool {
    (1..chars.len().saturating_sub(1)).any(|i| {
        let a = chars[i - 1];
        let before: String = chars[..i - 1].iter().collect();
        matches!(chars[i], '不' | '没')
            && a == chars[i + 1]
            && super::names::is_han(a)
            && !list("not_asking")
                .iter()
                .any(|w| w.chars().eq(chars[i - 1..=i + 1].iter().copied()))
            && !list("embeds_question")
                .iter()
                .any(|w| before.contains(w.as_str()))
    })
}

/// Whether `c` ends a sentence.
pub fn ends_sentence(c: char) -> bool {
    matches!(c, '。' | '!' | '?' | '\n' | '！' | '？' | '｡')
}

/// Where a spoken reply may end a sentence (`voice::fit` keeps whole
/// sentences, the stream speaks each as it ends): [`ends_sentence`] without
/// the line break, which speech does not hear, and with the ellipsis, after
/// which a reply still sounds finished.
pub fn ends_spoken_sentence(c: char) -> bool {
    (c != '\n' && ends_sentence(c)) || c == '…'
}

/// Marks that open and close a quotation, in pairs: the Chinese ones, the
/// ASCII ones a phone keyboard types ("经费'非常充裕'"), and the corner
/// brackets.
pub const QUOTES: [(char, char); 6] = [
    ('"', '"'),
    ('\'', '\''),
    ('“', '”'),
    ('‘', '’'),
    ('「', '」'),
    ('『', '』'),
];

/// Whether `c` opens or closes a quotation ([`QUOTES`]).
pub fn is_quote(c: char) -> bool {
    QUOTES.iter().any(|&(open, close)| c == open || c == close)
}

/// Where a spoken reply may be cut between clauses: commas, 、, semicolons
/// and the full-width colon. Not the ASCII colon or full stop, which sit
/// inside times and numbers (12:30, 4.5分).
pub fn ends_spoken_clause(c: char) -> bool {
    matches!(c, '，' | '、' | '；' | ',' | ';' | '：')
}

/// Whether `c` ends a clause inside a sentence (a full stop between two
/// digits is a decimal point; see [`split`]).
pub fn ends_clause(c: char) -> bool {
    matches!(
        c,
        ',' | '，'
            | '、'
            | ';'
            | '；'
            | ':'
            | '：'
            | '…'
            | '~'
            | '～'
            | '.'
            | '【'
            | '】'
            | '｜'
            | '|'
    ) || is_quote(c)
        || (is_symbol(c) && !rating_star(c))
}

/// The stars of a rating ("学术★★★★☆"): they stay with the name they rate.
fn rating_star(c: char) -> bool {
    matches!(c, '★' | '☆' | '⭐')
}

/// Emoji, arrows, dingbats: they stand between statements.
fn is_symbol(c: char) -> bool {
    matches!(c, '\u{2190}'..='\u{2BFF}' | '\u{1F000}'..='\u{1FAFF}')
}

/// Punctuation of any kind, ASCII or CJK: what the agent's normalisation
/// turns into its clause separator.
pub fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c,
            '\u{3001}'..='\u{303F}'   // 、。〃「」『』【】〜 …
            | '\u{FF5F}'..='\u{FF65}' // half-width CJK punctuation
            | '\u{2010}'..='\u{206F}' // “ ” ‘ ’ … — •
            | '\u{FE10}'..='\u{FE6F}' // vertical and small forms
            | '\u{00A1}'..='\u{00BF}' // ¡ « » · ¿ …
        )
        || is_symbol(c)
}

mod disbelief;
pub use disbelief::denied_before_disbelief;

/// Particles that close a clause and change nothing it says ("没有啊",
/// "我倒不觉得吧").
const FINAL_PARTICLES: [char; 8] = ['啊', '吧', '呀', '的', '了', '呢', '哈', '嘛'];

/// The items of a list as written in one field ("机器学习、CV/NLP 和 推荐"):
/// cut at list punctuation, "/", spaces and 和.
pub fn list_items(s: &str) -> Vec<String> {
    s.split(['、', ',', '，', '/', ' ', '和', ';', '；'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

struct Connectives {
    /// (words, link), longest first.
    words: Vec<(Vec<char>, Link)>,
    /// The word lists that say what a clause does, by key ([`LISTS`]).
    lists: HashMap<&'static str, Vec<String>>,
}

/// The keys of `clauses.txt` that are word lists, not links.
const LISTS: [&str; 27] = [
    "anaphor",
    "lead",
    "other",
    "ours",
    "expectation",
    "rest",
    "wish",
    "retract",
    "word",
    "then",
    "now",
    "refute_lead",
    "denial",
    "disbelief",
    "beside",
    "beside_lead",
    "beside_mark",
    "subject",
    "preposition",
    "not_theirs",
    "trait",
    "never",
    "firm",
    "statement_end",
    "not_asking",
    "embeds_question",
    "audience",
];

fn connectives() -> &'static Connectives {
    static C: OnceLock<Connectives> = OnceLock::new();
    C.get_or_init(|| {
        let mut words = Vec::new();
        let mut lists: HashMap<&'static str, Vec<String>> = HashMap::new();
        for e in lexfile::parse("clauses.txt", CONNECTIVES) {
            if let Some(key) = LISTS.iter().find(|k| **k == e.key) {
                lists.entry(key).or_default().extend(e.terms);
                continue;
            }
            let link = match e.key.as_str() {
                "contrast" => Link::Contrast,
                "revision" => Link::Revision,
                "concession" => Link::Concession,
                "instead" => Link::Instead,
                k => panic!("clauses.txt: unknown key {k}"),
            };
            for t in e.terms {
                words.push((t.chars().collect::<Vec<char>>(), link));
            }
        }
        words.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        Connectives { words, lists }
    })
}

/// The length in bytes of the longest word of list `key` `text` starts
/// with.
fn longest(text: &str, key: &str) -> Option<usize> {
    list(key)
        .iter()
        .filter(|w| text.starts_with(w.as_str()))
        .map(String::len)
        .max()
}

/// `text` past every word of list `key` it starts with, one after another.
fn skip_all<'a>(text: &'a str, key: &str) -> &'a str {
    let mut rest = text;
    while let Some(n) = longest(rest, key) {
        rest = &rest[n..];
    }
    rest
}

/// The words of one list of `clauses.txt`.
fn list(key: &str) -> &'static [String] {
    connectives()
        .lists
        .get(key)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// The connective `chars` starts with, if any: (its length, its link).
pub fn connective_at(chars: &[char]) -> Option<(usize, Link)> {
    connectives()
        .words
        .iter()
        .find(|(w, _)| chars.starts_with(w))
        .map(|(w, l)| (w.len(), *l))
}

/// Whether the space at `i` stands between two phrases of at least three
/// characters with Chinese in each (or two Chinese characters beside such a
/// phrase): a pause in typed speech, not a space inside a phrase ("push 很
/// 厉害", "北京 大学").
fn spoken_pause(chars: &[char], i: usize) -> bool {
    let word = |c: &&char| !c.is_whitespace() && !ends_clause(**c) && !ends_sentence(**c);
    // A run of words ("8卡随便跑", "人很nice"): three characters at least,
    // one of them Chinese.
    // Or two Chinese characters between two such phrases ("老师人好 钱少
    // 毕业难"), not in a list of names ("经费 学术 前途这些").
    let chinese = |run: &[&char]| run.iter().filter(|c| !c.is_ascii()).count();
    let run_before =
        |end: usize| -> Vec<&char> { chars[..end].iter().rev().take_while(word).collect() };
    let run_after = |start: usize| -> Vec<&char> {
        chars
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(word)
            .collect()
    };
    let phrase = |run: &[&char]| run.len() >= 3 && chinese(run) > 0;
    let short = |run: &[&char]| run.len() == 2 && chinese(run) == 2;
    let before = run_before(i);
    let after = run_after(i + 1);
    let spaced = |at: usize| chars.get(at).is_some_and(|c| c.is_whitespace());
    // The short run after the space, and the phrase after it; or a topic
    // asked back ("补助一个月五百 关系？我跟他说话都得看他脸色").
    let asked_back = chars.get(i + 3).is_some_and(|c| matches!(c, '？' | '?'));
    let short_after = short(&after) && ((spaced(i + 3) && phrase(&run_after(i + 4))) || asked_back);
    // The short run before the space, and the phrase before it.
    let short_before = short(&before) && i >= 3 && spaced(i - 3) && phrase(&run_before(i - 3));
    (phrase(&before) && (phrase(&after) || short_after)) || (short_before && phrase(&after))
}

/// `folded` cut at punctuation (see the module doc). Spaces go, except one
/// between two ASCII words.
pub fn split(folded: &str) -> Vec<Clause> {
    cut(folded, false)
}

/// Like [`split`], and also where a contrast or revision connective starts
/// a statement inside a clause ("老师人挺好就是太忙了"); the connective is
/// taken off the clause ([`split`] keeps every word and only marks the link).
pub fn split_at_connectives(folded: &str) -> Vec<Clause> {
    cut(folded, true)
}

fn cut(folded: &str, at_connectives: bool) -> Vec<Clause> {
    let chars: Vec<char> = folded.chars().collect();
    let mut clauses: Vec<Clause> = Vec::new();
    let mut sentence = 0;
    let mut sentence_start = 0;
    let mut current: Vec<char> = Vec::new();
    let mut link = Link::None;
    let takes_back = std::cell::Cell::new(false);
    let push = |clauses: &mut Vec<Clause>, current: &mut Vec<char>, link: &mut Link, sentence| {
        let text: String = std::mem::take(current).into_iter().collect();
        let text = text.trim().to_string();
        if !text.is_empty() {
            clauses.push(Clause {
                text,
                sentence,
                question_mark: false,
                link: std::mem::take(link),
                before_colon: false,
                takes_back: takes_back.take(),
            });
        }
        // An empty clause keeps its link: a connective alone ("但是，")
        // opens the next clause.
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let decimal = c == '.'
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        // With `at_connectives` (a review read by aspect), "、" joins the
        // items of one list ("经费、毕业这些我都不了解") instead of cutting.
        let in_list = at_connectives && c == '、';
        if ends_sentence(c) || (ends_clause(c) && !decimal && !in_list) {
            let pushed = clauses.len();
            push(&mut clauses, &mut current, &mut link, sentence);
            if matches!(c, ':' | '：') && clauses.len() > pushed {
                if let Some(last) = clauses.last_mut() {
                    last.before_colon = true;
                }
            }
            if ends_sentence(c) {
                let question = matches!(c, '?' | '？');
                for cl in clauses[sentence_start..].iter_mut() {
                    cl.question_mark = question;
                }
                sentence += 1;
                sentence_start = clauses.len();
            }
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            let latin = |c: Option<&char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            if latin(current.last()) && latin(chars.get(i + 1)) {
                current.push(' ');
            } else if at_connectives && spoken_pause(&chars, i) {
                // Typed speech puts a space where a comma goes ("他学术挺厉害的
                // 在组里带我们也很上心").
                push(&mut clauses, &mut current, &mut link, sentence);
            }
            i += 1;
            continue;
        }
        // A connective at the start of a clause is its link; inside one,
        // with `at_connectives`, it starts a new clause.
        let at_start = current.is_empty();
        // "不是大厂就是名校": 不是…就是… is "either … or", not a contrast.
        let either_or = current.starts_with(&['不', '是']) && chars[i..].starts_with(&['就', '是']);
        // "几乎不过问": a word that holds a connective is a word.
        if let Some(n) = list("word").iter().find_map(|w| {
            let n = w.chars().count();
            let here = chars.get(i..i + n)?;
            w.chars().eq(here.iter().copied()).then_some(n)
        }) {
            current.extend_from_slice(&chars[i..i + n]);
            i += n;
            continue;
        }
        if (at_start || at_connectives) && !either_or {
            if let Some((len, l)) = connective_at(&chars[i..]) {
                // "但对学生其实挺关心的": 其实 inside a contrast says it
                // more firmly; it does not revise what came before.
                if !at_start && l == Link::Revision && link == Link::Contrast {
                    i += len;
                    continue;
                }
                // "脾气差是我记错了，…": at the end of a clause the word
                // takes that clause back; it stays in it (`retracts`).
                let ends = chars
                    .get(i + len)
                    .is_none_or(|c| ends_sentence(*c) || ends_clause(*c) || c.is_whitespace());
                // "人其实很好", "他其实挺关心的", "老师人其实很好": after a
                // short subject (up to four characters before 其实, not
                // ending a statement with 的 or 了), 其实 says the clause more firmly
                // and revises; it does not cut the subject off its predicate.
                let firm = list("firm")
                    .iter()
                    .any(|w| w.chars().eq(chars[i..].iter().copied().take(len)));
                let ends_statement = current
                    .last()
                    .is_some_and(|c| list("statement_end").iter().any(|w| w.starts_with(*c)));
                let subject = current.len() <= 2 || (current.len() <= 4 && firm && !ends_statement);
                if !at_start && l == Link::Revision && subject && link == Link::None {
                    link = l;
                    i += len;
                    continue;
                }
                if !at_start && l == Link::Revision && ends {
                    current.extend_from_slice(&chars[i..i + len]);
                    i += len;
                    continue;
                }
                if !at_start {
                    push(&mut clauses, &mut current, &mut link, sentence);
                }
                // Two connectives in a row ("但是其实"): the later one says
                // more about the clause.
                link = l;
                takes_back.set(
                    l == Link::Revision
                        && list("retract")
                            .iter()
                            .any(|w| w.chars().eq(chars[i..].iter().copied().take(len))),
                );
                if at_connectives {
                    i += len;
                } else {
                    // Punctuation alone cuts: the words stay as written.
                    current.extend_from_slice(&chars[i..i + len]);
                    i += len;
                }
                continue;
            }
        }
        current.push(c);
        i += 1;
    }
    push(&mut clauses, &mut current, &mut link, sentence);
    clauses
}

#[cfg(test)]
mod tests;
