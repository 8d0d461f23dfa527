//! `intent`: the few intents code answers alone — greeting,
//! meaningless input, reset, farewell — after the speech act of the message is read
//! Resetting is consequential: it passes only as the student's
//! direct instruction; a negation or a question about it is answered and the
//! form stays; someone else's words or a mere mention go on as an ordinary
//! message. "重新开始，我想考清华" resets and goes on with the rest.
//!
//! A farewell ("好了，谢谢", "不聊了") is read the same way, by the same
//! speech-act layer (the `end` phrases of `actions.txt`): it is one only
//! when the student's own words say it plainly and say nothing else (thanks
//! and particles aside), so "还没结束", "结束了吗？" and "好了，我想考清华"
//! go on as ordinary messages. Its reply carries the `conversation_end`
//! event: a voice call in the panel ends once the goodbye is spoken.
//!
//! Code-level intents: only what code must answer itself —
//! greetings, resets, and input with no meaning. A reset is named by the
//! `reset` phrases of `server/lexicons/actions.txt`; whether the student
//! asked for it is the speech-act step's verdict (`crate::speech_act`),
//! which the agent checks before resetting anything. Everything else is `unknown`
//! and goes to the planner, which routes by tool descriptions; adding a tool
//! never touches this list.

use super::{Answer, Decided, Outcome, Turn};
use crate::agent::replies::Templates;
use crate::speech_act::{self as speech, Force, SpeechActs};
use app::protocol::IntentResult;

const LEXICON: &str = include_str!("../../../lexicons/code_intents.txt");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    Greeting,
    /// Start over. `rest` says whether more followed ("重新来，我想考清华").
    Reset {
        rest: bool,
    },
    /// Nothing to act on: punctuation, interjections, key mashing.
    Meaningless,
    /// The student is done ("好了，谢谢"): said goodbye to, the call may end.
    Farewell,
    Unknown,
}

impl Intent {
    pub fn name(self) -> &'static str {
        match self {
            Intent::Greeting => "greeting",
            Intent::Reset { .. } => "reset",
            Intent::Meaningless => "empty",
            Intent::Farewell => "farewell",
            Intent::Unknown => "unknown",
        }
    }
}

/// The phrase lists, parsed once.
#[derive(Debug, Default)]
pub struct IntentLexicon {
    greeting: Vec<String>,
    reset: Vec<String>,
    end: Vec<String>,
    /// Words a farewell may carry besides its phrase ("谢谢").
    thanks: Vec<String>,
    particles: Vec<String>,
    interjections: Vec<char>,
}

/// The step's lexicon, loaded once.
fn intents() -> &'static IntentLexicon {
    static LEXICON: std::sync::OnceLock<IntentLexicon> = std::sync::OnceLock::new();
    LEXICON.get_or_init(IntentLexicon::load)
}

impl IntentLexicon {
    pub fn load() -> IntentLexicon {
        let acts = crate::speech_act::SpeechActs::load();
        let phrases = |action| {
            acts.phrases(action)
                .iter()
                .map(|p| crate::catalog::normalize(p))
                .collect()
        };
        let mut lex = IntentLexicon {
            reset: phrases(crate::speech_act::Action::Reset),
            end: phrases(crate::speech_act::Action::End),
            ..IntentLexicon::default()
        };
        let mut section = "";
        for line in LEXICON.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = match name {
                    "greeting" => "greeting",
                    "thanks" => "thanks",
                    "particles" => "particles",
                    "interjections" => "interjections",
                    _ => "",
                };
                continue;
            }
            let phrase = crate::catalog::normalize(line);
            match section {
                "greeting" => lex.greeting.push(phrase),
                "thanks" => lex.thanks.push(phrase),
                "particles" => lex.particles.push(phrase),
                "interjections" => lex.interjections.extend(phrase.chars()),
                _ => {}
            }
        }
        // Longest first, so "你们好" is consumed before "你好".
        for list in [
            &mut lex.greeting,
            &mut lex.reset,
            &mut lex.end,
            &mut lex.thanks,
            &mut lex.particles,
        ] {
            list.sort_by_key(|p| std::cmp::Reverse(p.chars().count()));
        }
        lex
    }

    /// What is left of `text` once every phrase of `phrases` and every particle is removed.
    fn strip(&self, text: &str, phrases: &[String]) -> (String, bool) {
        let mut rest = text.to_string();
        let mut hit = false;
        for p in phrases {
            if rest.contains(p.as_str()) {
                rest = rest.replace(p.as_str(), " ");
                hit = true;
            }
        }
        if hit {
            for p in &self.particles {
                rest = rest.replace(p.as_str(), " ");
            }
        }
        (rest.split_whitespace().collect::<String>(), hit)
    }

    /// Classifies one message (already known to be non-empty).
    pub fn classify(&self, message: &str) -> (Intent, IntentResult) {
        let text = crate::catalog::normalize(message);
        let meaningful: String = text
            .chars()
            .filter(|c| c.is_alphanumeric() && !self.interjections.contains(c))
            .collect();
        let result = |intent: Intent, confidence: f64, reasoning: &str| {
            (
                intent,
                IntentResult {
                    intent: intent.name().to_string(),
                    confidence,
                    reasoning: reasoning.to_string(),
                },
            )
        };
        if meaningful.is_empty() || is_key_mashing(&meaningful) {
            return result(Intent::Meaningless, 0.95, "没有可理解的内容");
        }
        let (rest, hit) = self.strip(&text, &self.reset);
        if hit {
            let rest = !rest.chars().all(|c| !c.is_alphanumeric());
            return result(Intent::Reset { rest }, 0.95, "要求重新开始");
        }
        let (rest, hit) = self.strip(&text, &self.greeting);
        if hit && rest.chars().all(|c| !c.is_alphanumeric()) {
            return result(Intent::Greeting, 0.98, "问候语");
        }
        let (rest, _) = self.strip(&text, &self.thanks);
        let (rest, hit) = self.strip(&rest, &self.end);
        if hit && rest.chars().all(|c| !c.is_alphanumeric()) {
            return result(Intent::Farewell, 0.95, "学生表示对话可以结束");
        }
        result(Intent::Unknown, 0.6, "交给规划器根据工具描述处理")
    }
}

/// Latin letters with no vowel run and no known word: "asdfgh", "qwrtzp".
fn is_key_mashing(text: &str) -> bool {
    if !text.chars().all(|c| c.is_ascii_alphabetic()) || text.len() < 4 {
        return false;
    }
    let vowels = text.chars().filter(|c| "aeiouy".contains(*c)).count();
    vowels * 5 < text.len()
}

/// What the step reads besides the turn (its own lexicon is [`intents`]).
pub(super) struct Deps<'a> {
    /// Whose words the message is, and what it does to a reset or an end.
    pub acts: &'a SpeechActs,
    pub templates: &'a Templates,
}

impl Deps<'_> {
    pub(super) fn run(&self, t: &mut Turn<'_>) -> Decided {
        t.understood.reading = self.acts.read(&t.input.text);
        let (intent, result) = intents().classify(&t.input.text);
        t.understood.intent = result;
        let turn = t.input.session.memory.turns;
        let say = |key: &str| self.templates.render(key, turn, &[]);
        let intent = match intent {
            Intent::Reset { rest } => match self
                .acts
                .force(&t.understood.reading, speech::Action::Reset)
            {
                Force::Instruction => Intent::Reset { rest },
                Force::Negation => {
                    return declined(say("reset_declined"), "学生说先不重新开始，表单保留")
                }
                Force::Question | Force::Condition => {
                    return declined(say("reset_question"), "学生在问或假设重新开始，表单保留")
                }
                Force::Absent | Force::Reported | Force::Mention => Intent::Unknown,
            },
            // Only the student's own, plain goodbye ends anything.
            Intent::Farewell
                if !self
                    .acts
                    .force(&t.understood.reading, speech::Action::End)
                    .acts() =>
            {
                Intent::Unknown
            }
            other => other,
        };
        let voice = match intent {
            Intent::Greeting => say("greeting"),
            Intent::Meaningless => say("meaningless"),
            Intent::Farewell => {
                t.reply.event(crate::agent::events::conversation_end());
                say("farewell")
            }
            Intent::Reset { rest } => {
                // The form and the memory read empty from here on
                // (`Turn::reset`).
                t.understood.authorised.push(speech::Action::Reset);
                if rest {
                    return Outcome::Next.into();
                }
                say("reset")
            }
            Intent::Unknown => return Outcome::Next.into(),
        };
        Decided::answered(Answer::says(voice))
    }
}

/// A reset the student did not ask for: answered, nothing changes.
fn declined(voice: String, reasoning: &str) -> Decided {
    let intent = IntentResult {
        intent: Intent::Unknown.name().into(),
        confidence: 0.9,
        reasoning: reasoning.into(),
    };
    Decided::answered(Answer::as_intent(voice, intent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intent(text: &str) -> Intent {
        IntentLexicon::load().classify(text).0
    }

    #[test]
    fn greetings_alone_are_greetings() {
        for t in [
            "你好",
            "您好！",
            "hi",
            "Hello~",
            "嗨，你好呀",
            "在吗？",
            "晚上好啊",
            "小助手你好",
            "ＨＩ",
        ] {
            assert_eq!(intent(t), Intent::Greeting, "{t}");
        }
    }

    #[test]
    fn a_greeting_with_a_request_goes_to_the_planner() {
        for t in [
            "你好，我想考北大计算机",
            "hi 推荐几个导师",
            "你好请问什么是985",
        ] {
            assert_eq!(intent(t), Intent::Unknown, "{t}");
        }
    }

    #[test]
    fn resets_with_and_without_a_new_request() {
        assert_eq!(intent("重新开始"), Intent::Reset { rest: false });
        assert_eq!(intent("换个学校重新来吧"), Intent::Reset { rest: false });
        assert_eq!(intent("重来，我想考清华"), Intent::Reset { rest: true });
    }

    #[test]
    fn a_plain_goodbye_alone_is_a_farewell() {
        for t in [
            "好了，谢谢",
            "好了",
            "结束",
            "不聊了",
            "好了谢谢你",
            "结束吧。",
            "拜拜",
        ] {
            assert_eq!(intent(t), Intent::Farewell, "{t}");
        }
        for t in [
            "好了，我想考清华",
            "我想好了",
            "谢谢",
            "老师人太好了",
            "结束以后呢",
        ] {
            assert_ne!(intent(t), Intent::Farewell, "{t}");
        }
    }

    #[test]
    fn meaningless_input() {
        for t in ["？？？", "。。。", "啊啊啊", "嗯嗯", "asdfgh", "😀😀", "…"] {
            assert_eq!(intent(t), Intent::Meaningless, "{t}");
        }
        for t in ["好的", "ok", "AI", "985", "哈工大"] {
            assert_ne!(intent(t), Intent::Meaningless, "{t}");
        }
    }

    #[test]
    fn results_carry_confidence_and_reasoning() {
        let (_, r) = IntentLexicon::load().classify("你好");
        assert_eq!(r.intent, "greeting");
        assert!(r.confidence > 0.9);
        assert!(!r.reasoning.is_empty());
    }
}
