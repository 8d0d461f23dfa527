//! The editor's lookup tool (bound to the editor's model call, which loops
//! through the tool node): the site's own knowledge — how posting,
//! editing, scores and rankings work (`prompts/coach/knowledge.txt`) and the
//! FAQ (`prompts/embedded/faq.txt`) — searched by the words and characters
//! a query shares with each passage. Pure and deterministic; the graph's
//! tool node runs it, at most [`MAX_LOOKUPS`] times a turn.

const KNOWLEDGE: &str = include_str!("../../../prompts/coach/knowledge.txt");

/// Lookups one coached turn may make.
pub const MAX_LOOKUPS: usize = 2;
/// Passages one lookup returns.
const TOP: usize = 2;

/// One passage of site knowledge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passage {
    pub id: String,
    /// Its trigger words, each with what it counts when a query holds it
    /// (set at load, see [`Knowledge::lookup`]).
    words: Vec<(String, usize)>,
    pub text: String,
    /// Claims that are false on this site (`deny:`): a line that makes one,
    /// or says yes to a question that does, contradicts the passage.
    deny: Vec<String>,
}

/// All the passages, loaded once.
#[derive(Debug)]
pub struct Knowledge(Vec<Passage>);

/// A passage from elsewhere (the site's FAQ, which the agent parses): its
/// id, trigger words and answer.
pub type Extra = (String, Vec<String>, String);

impl Knowledge {
    /// The coach's passages (`knowledge.txt`) and `faq`'s, as `faq:<id>`.
    pub fn load(faq: Vec<Extra>) -> Knowledge {
        let mut passages = Vec::new();
        let mut current: Option<Passage> = None;
        for (no, raw) in KNOWLEDGE.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("knowledge.txt:{}: expected `key: value`", no + 1));
            let value = value.trim();
            match key.trim() {
                "id" => {
                    passages.extend(current.take());
                    current = Some(Passage {
                        id: value.to_string(),
                        words: Vec::new(),
                        text: String::new(),
                        deny: Vec::new(),
                    });
                }
                "words" => {
                    if let Some(p) = current.as_mut() {
                        p.words = value
                            .split('|')
                            .map(|w| crate::catalog::normalize(w.trim()))
                            .filter(|w| !w.is_empty())
                            .map(|w| (w, 0))
                            .collect();
                    }
                }
                "text" => {
                    if let Some(p) = current.as_mut() {
                        p.text = value.to_string();
                    }
                }
                "deny" => {
                    if let Some(p) = current.as_mut() {
                        p.deny = value
                            .split('|')
                            .map(|w| crate::text::fold::key(w.trim()))
                            .filter(|w| !w.is_empty())
                            .collect();
                    }
                }
                other => panic!("knowledge.txt:{}: unknown key {other}", no + 1),
            }
        }
        passages.extend(current);
        for (id, words, answer) in faq {
            passages.push(Passage {
                id: format!("faq:{id}"),
                words: words.into_iter().map(|w| (w, 0)).collect(),
                text: answer,
                deny: Vec::new(),
            });
        }
        // A word counts once however many trigger groups repeat it.
        for p in &mut passages {
            p.words.sort();
            p.words.dedup();
        }
        // What a shared word counts: its length twelve times over the
        // number of passages that list it (导师 says less than 匿名).
        let mut df: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for p in &passages {
            for (w, _) in &p.words {
                *df.entry(w.clone()).or_default() += 1;
            }
        }
        for p in &mut passages {
            for (w, weight) in &mut p.words {
                *weight = w.chars().count() * 12 / df.get(w.as_str()).copied().unwrap_or(1).max(1);
            }
        }
        Knowledge(passages)
    }

    /// The passages that best answer `query`, best first: a shared word
    /// counts its length twelve times over the number of passages that list
    /// it (导师 says less than 匿名), each shared character once.
    pub fn lookup(&self, query: &str) -> Vec<&Passage> {
        let q = crate::catalog::normalize(query);
        let chars: Vec<char> = q.chars().filter(|c| !c.is_whitespace()).collect();
        let mut scored: Vec<(usize, usize, &Passage)> = self
            .0
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let words: usize = p
                    .words
                    .iter()
                    .filter(|(w, _)| q.contains(w.as_str()))
                    .map(|(_, weight)| weight)
                    .sum();
                let shared = chars
                    .iter()
                    .filter(|c| c.is_alphanumeric())
                    .filter(|c| p.text.contains(**c))
                    .count();
                (words + shared, i, p)
            })
            .filter(|(score, ..)| *score > 6)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(TOP).map(|(.., p)| p).collect()
    }
}

/// Words that, right before a claim, negate it ("不会显示你的名字").
const NEGATED: [&str; 12] = [
    "不",
    "没",
    "无法",
    "不会",
    "不能",
    "不可以",
    "不可能",
    "看不",
    "别",
    "绝不",
    "并不",
    "不用",
];
/// A line that opens with these says yes to the question it answers.
const YES: [&str; 9] = [
    "是的", "是", "对", "对的", "可以", "会", "能", "没错", "当然",
];

impl Knowledge {
    /// The passage `line` contradicts, if any: it makes a claim the
    /// passage denies (and does not negate it), or it opens with a yes to
    /// `question` that makes one. "是的，评价发布后别人可以看到你的名字" to
    /// "别人能看到我的名字吗" contradicts the anonymity passage.
    pub fn contradicted(&self, line: &str, question: &str) -> Option<&Passage> {
        let folded = crate::text::fold::fold(line);
        // Each clause in the form the claims are written in, once.
        let clauses: Vec<String> = crate::text::clauses::split(&folded)
            .iter()
            .map(|c| crate::text::fold::key(&c.text))
            .collect();
        let asserts = |claim: &str| {
            clauses.iter().any(|text| {
                let mut from = 0;
                while let Some(at) = text[from..].find(claim) {
                    let at = from + at;
                    let before = &text[..at];
                    if !NEGATED.iter().any(|n| before.ends_with(n)) {
                        return true;
                    }
                    from = at + claim.len();
                }
                false
            })
        };
        let says_yes = clauses.first().is_some_and(|f| YES.contains(&f.as_str()));
        let q = crate::text::fold::key(question);
        self.0.iter().find(|p| {
            p.deny.iter().any(|claim| {
                asserts(claim)
                    || (says_yes && q.contains(claim.as_str()))
                    // "你的名字" in the line, "我的名字" in the question.
                    || (says_yes && q.contains(&claim.replace('你', "我")))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_find_the_passage_that_answers_them() {
        let k = Knowledge::load(crate::agent::nlu::faq_passages());
        for (q, ids) in [
            ("评价发布后还能修改吗", &["edit_after"][..]),
            ("导师会知道是我写的吗", &["anonymity"]),
            ("分数是怎么算的", &["scores", "faq:rating_formula"]),
            (
                "排名怎么排的，评价少的老师吃亏吗",
                &["ranking", "faq:rating_formula"],
            ),
            ("能写他的手机号吗", &["posting_rules"]),
        ] {
            let found = k.lookup(q);
            let first = found.first().map(|p| p.id.as_str()).unwrap_or_default();
            assert!(ids.contains(&first), "{q}: {found:?}");
        }
        assert!(k.lookup("嗯").is_empty());
    }

    #[test]
    fn lines_that_say_the_opposite_of_a_passage_are_found() {
        let k = Knowledge::load(crate::agent::nlu::faq_passages());
        let q = "评价发布以后别人能看到我的名字吗？";
        for line in [
            "是的，评价发布后别人可以看到你的名字。",
            "会的，导师能看到是你写的。",
            "评价是实名的，大家都知道是谁写的。",
        ] {
            assert_eq!(
                k.contradicted(line, q).map(|p| p.id.as_str()),
                Some("anonymity"),
                "{line}"
            );
        }
        assert_eq!(
            k.contradicted("发布以后就不能修改了。", "发布后还能改吗")
                .map(|p| p.id.as_str()),
            Some("edit_after")
        );
        for line in [
            "不会，评价是匿名的，别人看不到你的名字。",
            "页面上不显示你的身份。",
            "发布后24小时内可以修改。",
        ] {
            assert_eq!(k.contradicted(line, q).map(|p| &p.id), None, "{line}");
        }
    }
}
