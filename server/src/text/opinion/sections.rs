//! The structure of a long post: headings that name what follows them.
//!
//! A forum post is often laid out by its writer — "【学术】…【经费】…",
//! "1. 学术水平：… 2. 科研经费：…", "优点：… 缺点：…". The heading is the
//! writer's own statement of what the next clauses are about, and it is
//! more reliable than any word inside them: "【学术】博士毕业至少有一篇顶刊"
//! speaks of the research although 毕业 names the prospects, and "缺点：一个
//! 月见一次" is criticism although no word of it criticises. So a heading
//! is read as such, apart from what the clauses after it say.
//!
//! A heading is a clause that holds nothing but a topic's name, or a word
//! of `server/lexicons/structure.txt`, after a list marker ("1.", "一、",
//! "Q：") or a lead ("关于", "至于") and before a suffix ("方面", "上",
//! "这块"). What it governs, and until when, is the feature's to decide.
//! A digression ("跑个题", up to "回到正题") is marked the same way.

use std::sync::OnceLock;

use super::super::lexfile;
use super::Topics;

const LEXICON: &str = include_str!("../../../lexicons/structure.txt");

/// What a heading names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading<A> {
    /// A topic: what follows speaks of it ("【经费】", "学术方面：").
    Topic(A),
    /// What follows is praise (1) or criticism (−1) ("优点：", "缺点：").
    Tone(i8),
    /// Something else ("其他：", "总结："): it ends the heading before.
    Other,
}

struct Words {
    marker: Vec<Vec<char>>,
    suffix: Vec<Vec<char>>,
    lead: Vec<Vec<char>>,
    good: Vec<Vec<char>>,
    bad: Vec<Vec<char>>,
    other: Vec<Vec<char>>,
    aside: Vec<Vec<char>>,
    back: Vec<Vec<char>>,
    owner: Vec<Vec<char>>,
}

fn words() -> &'static Words {
    static W: OnceLock<Words> = OnceLock::new();
    W.get_or_init(|| {
        let mut w = Words {
            marker: Vec::new(),
            suffix: Vec::new(),
            lead: Vec::new(),
            good: Vec::new(),
            bad: Vec::new(),
            other: Vec::new(),
            aside: Vec::new(),
            back: Vec::new(),
            owner: Vec::new(),
        };
        for e in lexfile::parse("structure.txt", LEXICON) {
            let list = match e.key.as_str() {
                "marker" => &mut w.marker,
                "suffix" => &mut w.suffix,
                "lead" => &mut w.lead,
                "good" => &mut w.good,
                "bad" => &mut w.bad,
                "other" => &mut w.other,
                "aside" => &mut w.aside,
                "back" => &mut w.back,
                "owner" => &mut w.owner,
                k => panic!("structure.txt: unknown key {k}"),
            };
            list.extend(e.terms.iter().map(|t| t.chars().collect()));
        }
        for list in [&mut w.marker, &mut w.suffix, &mut w.lead, &mut w.owner] {
            list.sort_by_key(|t| std::cmp::Reverse(t.len()));
        }
        w
    })
}

/// Whether `c` is part of a list marker: a digit, a bracket, a dot.
fn marks(c: char) -> bool {
    c.is_ascii_digit() || "()（）[]【】、.．)-*#".contains(c)
}

/// Whether `chars` (one clause, folded) is only a list marker ("1", "(2)"):
/// it says nothing and leaves the heading before as it is.
pub fn only_marker(chars: &[char]) -> bool {
    !chars.is_empty() && chars.iter().all(|c| marks(*c))
}

/// The heading `chars` (one clause, folded) is, if it is one.
pub fn heading<A: Copy + Eq>(topics: &Topics<A>, chars: &[char]) -> Option<Heading<A>> {
    let w = words();
    let mut s = chars;
    while let Some(c) = s.first() {
        if marks(*c) {
            s = &s[1..];
        } else {
            break;
        }
    }
    for list in [&w.lead, &w.marker, &w.owner] {
        if let Some(m) = list.iter().find(|m| s.starts_with(m) && s.len() > m.len()) {
            s = &s[m.len()..];
        }
    }
    while let Some(c) = s.first() {
        if marks(*c) {
            s = &s[1..];
        } else {
            break;
        }
    }
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    let is = |list: &[Vec<char>], s: &[char]| list.iter().any(|t| t.as_slice() == s);
    let core = |s: &[char]| -> Option<Heading<A>> {
        if is(&w.good, s) {
            return Some(Heading::Tone(1));
        }
        if is(&w.bad, s) {
            return Some(Heading::Tone(-1));
        }
        if is(&w.other, s) {
            return Some(Heading::Other);
        }
        match topics.spans(s).as_slice() {
            [(0, end, a)] if *end == s.len() => Some(Heading::Topic(*a)),
            _ => None,
        }
    };
    core(s).or_else(|| {
        let suffix = w
            .suffix
            .iter()
            .find(|x| s.ends_with(x) && s.len() > x.len())?;
        core(&s[..s.len() - suffix.len()])
    })
}

/// The headings `message` sets in brackets ("【经费】", "[学术]"), folded:
/// a boxed heading governs up to the next one, across sentences; any other
/// heading ("学术方面，…", "经费：…"), its own sentence.
pub fn boxed(message: &str) -> Vec<String> {
    let folded: String = super::super::fold::fold(message)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = Vec::new();
    let mut rest = folded.as_str();
    while let Some(open) = rest.find(['【', '[']) {
        let after = &rest[open + rest[open..].chars().next().map_or(1, char::len_utf8)..];
        match after.find(['】', ']']) {
            Some(close) if after[..close].chars().count() <= 10 => {
                out.push(after[..close].to_string());
                rest = &after[close..];
            }
            _ => rest = after,
        }
    }
    out
}

/// Whether `chars` (one clause, folded) opens a digression ("跑个题"), or
/// comes back from one ("回到正题"): (opens, comes back).
pub fn digression(chars: &[char]) -> (bool, bool) {
    let w = words();
    let has = |list: &[Vec<char>]| {
        list.iter()
            .any(|t| (0..chars.len()).any(|i| chars[i..].starts_with(t)))
    };
    (has(&w.aside), has(&w.back))
}

/// The tone `chars` (one clause, folded) opens with, when it names what
/// is good or bad before saying it ("缺点是经费紧张", "优点就是自由").
pub fn tone_at_start(chars: &[char]) -> Option<i8> {
    let w = words();
    let s = w
        .lead
        .iter()
        .find(|m| chars.starts_with(m))
        .map_or(chars, |m| &chars[m.len()..]);
    let opens = |list: &[Vec<char>]| {
        list.iter().any(|t| {
            s.starts_with(t)
                && matches!(
                    s.get(t.len()..t.len() + 1),
                    Some(['是' | '也' | '就' | '嘛' | '呢'])
                )
        })
    };
    if opens(&w.good) {
        Some(1)
    } else if opens(&w.bad) {
        Some(-1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn topics() -> Topics<u8> {
        let mut t = Topics::new();
        t.add("学术", 0, None);
        t.add("学术水平", 0, None);
        t.add("经费", 1, None);
        t.add("就业", 3, None);
        t
    }

    fn h(s: &str) -> Option<Heading<u8>> {
        heading(&topics(), &s.chars().collect::<Vec<_>>())
    }

    #[test]
    fn a_heading_is_a_name_between_a_marker_and_a_suffix() {
        assert_eq!(h("学术"), Some(Heading::Topic(0)));
        assert_eq!(h("1.学术水平"), Some(Heading::Topic(0)));
        assert_eq!(h("经费方面"), Some(Heading::Topic(1)));
        assert_eq!(h("关于就业"), Some(Heading::Topic(3)));
        // Whose it is, before the name.
        assert_eq!(h("至于学生就业"), Some(Heading::Topic(3)));
        assert_eq!(h("老师的学术方面"), Some(Heading::Topic(0)));
        assert_eq!(h("缺点"), Some(Heading::Tone(-1)));
        assert_eq!(h("其他"), Some(Heading::Other));
        // A statement is no heading.
        assert_eq!(h("经费很多"), None);
        assert_eq!(h("学术和经费"), None);
        assert!(only_marker(&['2']));
    }
}
