//! When the persona switches, decided by the `persona` step
//! before any planner runs. Two personas: 小暖, the casual one, for the
//! human side of choosing an advisor — anxiety, indecision, encouragement,
//! chitchat — with no data tools; and the analysis persona, precise and
//! data-backed, that fills the form and uses the tools. One session, one
//! context: a switch changes who answers, never the form, the page or the
//! history.
//!
//! Who answers the next message:
//!
//! 1. The student names a persona ("切换到闲聊模式", "说正事") → that one.
//! 2. The message needs data — a school, major, direction or preference
//!    named, an advisor referred to, a comparison, a ranking, statistics —
//!    → analysis. (Asking for a recommendation alone is a keyword, weaker:
//!    "不知道选谁，好纠结" is the human side of choosing.)
//! 3. Both are *strong* triggers: they also override a manual choice.
//! 4. A manual choice (the panel's toggle, `POST /api/v1/chat/switch_agent`)
//!    otherwise holds until the student switches again.
//! 5. Otherwise keywords switch both ways (`server/lexicons/personas.txt`):
//!    casual → analysis on an analysis word; analysis → casual on a casual
//!    word when the message has no analysis word.
//!
//! The same word lists tell the `understand` step which unread words the
//! casual persona answers ([`PersonaLexicon::covers`]) and the `casual` step
//! which of its replies fits ([`PersonaLexicon::topic`]). The personas'
//! names, and the switch's system line, are the protocol's
//! (`app::protocol`); a name read back is `agent::persona_named`.

use app::protocol::{switch_message, AgentEvent, ANALYSIS, CASUAL};

use crate::agent::nlu::{Act, Analysis};

const LEXICON: &str = include_str!("../../../../lexicons/personas.txt");
const TOPICS: &str = include_str!("../../../../lexicons/casual_topics.txt");

/// Why the persona changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The student asked for it by name.
    Asked,
    /// The message needs the data tools.
    DataNeeded,
    /// A keyword of the other persona.
    Keyword(String),
}

impl Reason {
    pub fn strong(&self) -> bool {
        !matches!(self, Reason::Keyword(_))
    }
}

/// The keyword lists, parsed once.
#[derive(Debug, Default)]
pub struct PersonaLexicon {
    to_analysis: Vec<String>,
    to_casual: Vec<String>,
    analysis: Vec<String>,
    casual: Vec<String>,
    topics: Vec<(String, Vec<String>)>,
}

fn normalized(list: Vec<String>) -> Vec<String> {
    list.iter()
        .map(|t| crate::catalog::normalize(t))
        .filter(|t| !t.is_empty())
        .collect()
}

impl PersonaLexicon {
    pub fn load() -> PersonaLexicon {
        let mut lex = PersonaLexicon::default();
        for e in crate::text::lexfile::parse("personas.txt", LEXICON) {
            let terms = normalized(e.terms);
            match e.key.as_str() {
                "to_analysis" => lex.to_analysis = terms,
                "to_casual" => lex.to_casual = terms,
                "analysis" => lex.analysis = terms,
                "casual" => lex.casual = terms,
                other => panic!("personas.txt: unknown key {other}"),
            }
        }
        lex.topics = crate::text::lexfile::parse("casual_topics.txt", TOPICS)
            .into_iter()
            .map(|e| (e.key, normalized(e.terms)))
            .collect();
        lex
    }

    /// The first term of `list` in `text`, as a word: a Latin term only
    /// where no Latin letter or digit touches it ("K线", not inside a name).
    fn find<'a>(list: &'a [String], text: &str) -> Option<&'a String> {
        list.iter().find(|t| contains_word(text, t))
    }

    /// The persona that answers `text` (already normalised), and why it
    /// changed; `None` keeps `current`.
    pub fn decide(
        &self,
        text: &str,
        analysis: &Analysis,
        current: &str,
        manual: bool,
    ) -> Option<(&'static str, Reason)> {
        // A request to chat yields to a message that needs data ("想聊聊这个
        // 导师" is about an advisor).
        let wanted = if Self::find(&self.to_casual, text).is_some() && !needs_data(analysis) {
            Some((CASUAL, Reason::Asked))
        } else if Self::find(&self.to_analysis, text).is_some() || needs_data(analysis) {
            let why = if Self::find(&self.to_analysis, text).is_some() {
                Reason::Asked
            } else {
                Reason::DataNeeded
            };
            Some((ANALYSIS, why))
        } else if manual {
            None
        } else {
            let casual_word = Self::find(&self.casual, text);
            // Asking to be given a choice is a weak sign of the data side: "不知
            // 道选谁，好纠结" is the human side of choosing.
            let analysis_word = Self::find(&self.analysis, text).cloned().or_else(|| {
                (analysis.act == Act::Recommend && casual_word.is_none())
                    .then(|| "推荐".to_string())
            });
            match (current == CASUAL, analysis_word, casual_word) {
                (true, Some(k), _) => Some((ANALYSIS, Reason::Keyword(k))),
                (false, None, Some(k)) => Some((CASUAL, Reason::Keyword(k.clone()))),
                _ => None,
            }
        };
        wanted.filter(|(to, _)| *to != current)
    }

    /// Whether `fragment` (normalised) holds a word the casual persona's
    /// replies answer, or a request to switch: what code did not read as a
    /// form value but did read as the human side ("压力好大") or a switch
    /// ("切换到分析模式") was understood. The analysis side's words are not:
    /// "实验室" alone says nothing code can answer.
    pub fn covers(&self, fragment: &str) -> bool {
        [&self.to_analysis, &self.to_casual, &self.casual]
            .into_iter()
            .chain(self.topics.iter().map(|(_, words)| words))
            .any(|list| Self::find(list, fragment).is_some())
    }

    /// The casual topic of `text`: the key of its reply template.
    pub fn topic(&self, text: &str) -> &str {
        self.topics
            .iter()
            .find(|(_, words)| Self::find(words, text).is_some())
            .map(|(k, _)| k.as_str())
            .unwrap_or("fallback")
    }
}

/// Whether `term` occurs in `text` as a word (see [`PersonaLexicon::find`]).
fn contains_word(text: &str, term: &str) -> bool {
    let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    text.match_indices(term).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + term.len()..].chars().next();
        let first = term.chars().next();
        let last = term.chars().next_back();
        let joined_before = latin(first) && latin(before);
        let joined_after = latin(last) && latin(after);
        !(joined_before || joined_after)
    })
}

/// The message asks for what only the data side can give.
pub fn needs_data(a: &Analysis) -> bool {
    a.school.is_some()
        || a.major.is_some()
        || a.unknown_school.is_some()
        || a.names_wishes()
        || !a.references.is_empty()
        // "想聊聊" asks about nobody: a wish to talk, not a question.
        || (a.act == Act::AskAbout && !a.references.is_empty())
        || matches!(
            a.act,
            Act::AskReviews
                | Act::OpenDetail
                | Act::ListAdvisors
                | Act::Compare
                | Act::Statistics
                | Act::ReadBack
                | Act::AboutPlace
        )
}

/// The `agent_switched` event (the switch recorded and told to the student),
/// whose message is also the
/// system line stored in the conversation.
pub fn switch_event(from: &str, to: &'static str, why: &Reason) -> AgentEvent {
    let mut data = serde_json::Map::new();
    data.insert("from".into(), from.into());
    data.insert("to".into(), to.into());
    data.insert("message".into(), switch_message(from, to).into());
    data.insert(
        "reason".into(),
        match why {
            Reason::Asked => "asked".into(),
            Reason::DataNeeded => "data_needed".into(),
            Reason::Keyword(k) => format!("keyword:{k}").into(),
        },
    );
    AgentEvent {
        kind: "agent_switched".into(),
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::nlu::{Reference, Slot};

    fn lex() -> PersonaLexicon {
        PersonaLexicon::load()
    }

    fn decide(text: &str, a: &Analysis, current: &str, manual: bool) -> Option<&'static str> {
        let text = crate::catalog::normalize(text);
        lex().decide(&text, a, current, manual).map(|(to, _)| to)
    }

    #[test]
    fn keywords_switch_both_ways() {
        let none = Analysis::default();
        for text in [
            "考研压力好大，好焦虑",
            "谢谢你",
            "今天好累啊",
            "周末想去看电影",
            "想找人聊聊",
        ] {
            assert_eq!(decide(text, &none, ANALYSIS, false), Some(CASUAL), "{text}");
        }
        for text in [
            "帮我看看排名",
            "想对比一下",
            "评分多少",
            "有没有统计数据",
            "经费怎么样",
            "推荐一个",
        ] {
            assert_eq!(decide(text, &none, CASUAL, false), Some(ANALYSIS), "{text}");
        }
        // A casual word next to an analysis word stays on the data side.
        assert_eq!(decide("谢谢，再推荐一个导师", &none, ANALYSIS, false), None);
        // Nothing of either: stay.
        assert_eq!(decide("嗯嗯", &none, CASUAL, false), None);
        assert_eq!(decide("嗯嗯", &none, ANALYSIS, false), None);
    }

    #[test]
    fn data_needs_and_explicit_requests_are_strong() {
        let school = Analysis {
            school: Some(Slot::One("北京大学".into())),
            ..Analysis::default()
        };
        assert_eq!(decide("我想考北大", &school, CASUAL, true), Some(ANALYSIS));
        let reference = Analysis {
            references: vec![Reference::Ordinal(0)],
            ..Analysis::default()
        };
        assert_eq!(decide("第一个呢", &reference, CASUAL, true), Some(ANALYSIS));
        let none = Analysis::default();
        assert_eq!(
            decide("切换到闲聊模式", &none, ANALYSIS, true),
            Some(CASUAL)
        );
        assert_eq!(decide("好了，说正事", &none, CASUAL, true), Some(ANALYSIS));
        let (_, why) = lex()
            .decide(
                &crate::catalog::normalize("我想考北大"),
                &school,
                CASUAL,
                false,
            )
            .unwrap();
        assert_eq!(why, Reason::DataNeeded);
        assert!(why.strong());
    }

    /// Every original keyword (the lines marked "original" in
    /// `server/lexicons/personas.txt`), both directions, word for word.
    const SEED_TO_ANALYSIS: &[&str] = &[
        "分析",
        "数据",
        "股票",
        "代码",
        "图表",
        "统计",
        "趋势",
        "预测",
        "计算",
        "比较",
        "评估",
        "模型",
        "算法",
        "查询",
        "报表",
        "K线",
        "市盈率",
        "财报",
        "投资",
        "收益",
        "风险",
        "涨跌幅",
        "成交量",
    ];
    const SEED_TO_CASUAL: &[&str] = &[
        "你好", "谢谢", "再见", "天气", "心情", "感觉", "喜欢", "讨厌", "故事", "笑话", "聊天",
        "闲聊", "日常", "生活", "情感", "兴趣", "爱好", "电影", "音乐", "美食", "旅游", "周末",
        "假期", "放松",
    ];

    #[test]
    fn every_original_switch_keyword_switches() {
        let none = Analysis::default();
        for word in SEED_TO_ANALYSIS {
            assert_eq!(decide(word, &none, CASUAL, false), Some(ANALYSIS), "{word}");
        }
        for word in SEED_TO_CASUAL {
            assert_eq!(decide(word, &none, ANALYSIS, false), Some(CASUAL), "{word}");
            // The guard: next to an analysis word the data side keeps it.
            let both = format!("{word}，帮我看看排名");
            assert_eq!(decide(&both, &none, ANALYSIS, false), None, "{both}");
        }
        // As words: a Latin term not inside a longer one.
        assert_eq!(decide("bk线", &none, CASUAL, false), None);
    }

    #[test]
    fn a_plain_wish_to_chat_switches_and_one_about_an_advisor_does_not() {
        let none = Analysis::default();
        for text in ["想聊聊", "我想聊聊", "能陪我说说话吗", "想跟你聊聊"] {
            assert_eq!(decide(text, &none, ANALYSIS, false), Some(CASUAL), "{text}");
        }
        let about = Analysis {
            act: Act::AskAbout,
            references: vec![Reference::Pronoun],
            ..Analysis::default()
        };
        assert_eq!(decide("想聊聊这个导师", &about, ANALYSIS, false), None);
        // "聊聊" alone asks about nobody: not a need for data.
        let talk = Analysis {
            act: Act::AskAbout,
            ..Analysis::default()
        };
        assert!(!needs_data(&talk));
    }

    #[test]
    fn a_manual_choice_holds_against_keywords() {
        let none = Analysis::default();
        assert_eq!(decide("好焦虑", &none, ANALYSIS, true), None);
        assert_eq!(decide("看看数据", &none, CASUAL, true), None);
    }

    #[test]
    fn topics_pick_the_casual_reply() {
        let l = lex();
        let t = |s: &str| l.topic(&crate::catalog::normalize(s)).to_string();
        assert_eq!(t("好纠结选谁"), "undecided");
        assert_eq!(t("压力好大睡不着"), "anxiety");
        assert_eq!(t("今天好累"), "tired");
        assert_eq!(t("我是不是考不上了"), "doubt");
        assert_eq!(t("谢谢你"), "thanks");
        assert_eq!(t("周末吃什么"), "life");
        assert_eq!(t("嗯"), "fallback");
    }

    #[test]
    fn every_topic_has_replies_that_fit_the_voice_limit() {
        let templates = crate::agent::replies::casual();
        for (topic, _) in &lex().topics {
            let key = format!("casual_{topic}");
            assert!(templates.has(&key), "no template {key}");
        }
        for key in templates.keys().collect::<Vec<_>>() {
            for v in templates.variants(key) {
                assert!(
                    crate::voice::len(v) <= crate::voice::MAX_CHARS,
                    "{key}: {v}"
                );
            }
        }
        assert!(templates.has("casual_fallback"));
    }

    #[test]
    fn names_and_messages() {
        assert_eq!(
            switch_message(CASUAL, ANALYSIS),
            "[系统] 已从闲聊模式切换到分析模式"
        );
        assert_eq!(crate::agent::persona_named(" casual "), Some(CASUAL));
        assert_eq!(crate::agent::persona_named("chitchat"), None);
        let event = switch_event(CASUAL, ANALYSIS, &Reason::Keyword("排名".into()));
        assert_eq!(event.data["reason"], "keyword:排名");
        assert_eq!(event.data["message"], switch_message(CASUAL, ANALYSIS));
    }
}
