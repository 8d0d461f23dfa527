//! Whom a clause speaks of: the advisor reviewed, or someone else — another
//! group, the people the advisor suits, or someone beside the advisor
//! (a co-advisor, a senior, a postdoc, the writer). Chinese leaves the
//! subject out once it is set ("我们组最烦的就是那个博后，天天阴阳怪气，见谁
//! 怼谁"): a clause with no subject of its own goes on about the one its
//! sentence last turned to, until a clause names someone again ("老板倒是
//! 一直在中间调和").

use super::{list, longest, skip_all, Clause};

/// How far into a clause a `subject` word still opens it: a surname or a
/// demonstrative before 老师.
const SUBJECT_WITHIN: usize = 3;

impl Clause {
    /// Whether it speaks of another advisor or group ("隔壁组更惨"), not of
    /// the one reviewed ("我老板吊打隔壁组" does), of whom the advisor suits
    /// ("适合想读博的人"), or judges the traits of someone beside the advisor:
    /// it opens (past a `beside_lead` word) with a `beside` person right
    /// before a `trait` ("是我们副导脾气不好", "我自己水平也一般").
    pub fn about_someone_else(&self) -> bool {
        self.names_another_advisor() || self.judges_someone_beside() || self.has("audience")
    }

    /// Whether it names another advisor or group and not the one reviewed:
    /// the reviewed one's words (`ours`) counted outside the other's own
    /// ("本科导师特别凶" holds 导师 inside 本科导师).
    fn names_another_advisor(&self) -> bool {
        if !self.has("other") {
            return false;
        }
        let spans = |key: &str| -> Vec<(usize, usize)> {
            list(key)
                .iter()
                .flat_map(|w| {
                    self.text
                        .match_indices(w.as_str())
                        .map(|(at, m)| (at, at + m.len()))
                })
                .collect()
        };
        let others = spans("other");
        !spans("ours")
            .into_iter()
            .any(|(s, e)| !others.iter().any(|&(os, oe)| os <= s && e <= oe))
    }

    fn judges_someone_beside(&self) -> bool {
        let rest = skip_all(&self.text, "beside_lead");
        let Some(n) = longest(rest, "beside") else {
            return false;
        };
        let rest = &rest[n..];
        longest(rest.strip_prefix('的').unwrap_or(rest), "trait").is_some()
    }

    /// Whether it turns to someone other than the advisor, whom the clauses
    /// after it go on about: it opens with another group or the school's
    /// offices ("隔壁组更惨", not "放在别的组早被劝退了"), or with someone
    /// beside the advisor whose traits it judges, or it ends naming
    /// them after 是 ("最烦的就是那个博后", "问题是我们师兄"), or names
    /// nothing else.
    fn turns_to_someone_beside(&self) -> bool {
        let opening = skip_all(&self.text, "beside_lead");
        if self.judges_someone_beside()
            || (longest(opening, "other").is_some() && self.names_another_advisor())
        {
            return true;
        }
        let text = self
            .text
            .trim_end_matches(['了', '啊', '呀', '吧', '呢', '哈']);
        let Some(person) = list("beside")
            .iter()
            .filter(|w| text.ends_with(w.as_str()))
            .max_by_key(|w| w.len())
        else {
            return false;
        };
        let before = &text[..text.len() - person.len()];
        let before = list("beside_mark")
            .iter()
            .filter(|m| before.ends_with(m.as_str()))
            .max_by_key(|m| m.len())
            .map_or(before, |m| &before[..before.len() - m.len()]);
        // "就是那个博后" is cut at the connective 就是: the person alone is
        // left ("那个博后").
        before.is_empty() || before.ends_with('是')
    }

    /// Whether it opens (past a `beside_lead` word) with whom it speaks of:
    /// the advisor, the writer or someone beside them (`subject`, `beside`),
    /// a `subject` word within its first characters ("于老师的学生",
    /// "这个老师的学生").
    fn has_subject(&self) -> bool {
        let rest = skip_all(&self.text, "beside_lead");
        for (i, _) in rest.char_indices().take(SUBJECT_WITHIN) {
            // "还在老板面前抢功": the advisor after a preposition is no subject.
            let after_preposition = list("preposition")
                .iter()
                .any(|p| rest[..i].ends_with(p.as_str()));
            if longest(&rest[i..], "subject").is_some() && !after_preposition {
                return true;
            }
        }
        longest(rest, "beside").is_some()
    }
}

/// For each clause of `clauses` (a message cut by this module), whether it
/// speaks of someone else ([`Clause::about_someone_else`]), or goes on,
/// with no subject of its own, about the someone else an earlier clause of
/// its sentence turned to, or the clause after it clears the advisor of it
/// (`not_theirs`).
pub fn about_someone_else(clauses: &[Clause]) -> Vec<bool> {
    let mut beside: Option<usize> = None;
    let mut of: Vec<bool> = clauses
        .iter()
        .map(|c| {
            let carried =
                beside == Some(c.sentence) && !c.has_subject() && c.link == super::Link::None;
            let turns = c.turns_to_someone_beside();
            beside = (turns || carried).then_some(c.sentence);
            turns || carried || c.about_someone_else()
        })
        .collect();
    // "…才能答辩，这跟我老板没关系啊", "实验室离宿舍远（这个不怪老师）":
    // the clause right before it.
    for (i, c) in clauses.iter().enumerate().skip(1) {
        if c.has("not_theirs") && clauses[i - 1].sentence == c.sentence {
            of[i - 1] = true;
        }
    }
    of
}
