//! `classify`: the model's intent classification, for a message code
//! understood nothing of. A greeting or a read-back
//! question the model is confident of is answered here, by code's own
//! template and code's own reading of the form; anything else goes on to
//! `resolve` as code would have taken it, with code's `unknown` intent. A
//! provider that is down changes nothing: the turn goes on as it would with
//! no model (flagged `degraded`), and the breaker (`llm::breaker`) spares
//! the planner's call the same wait.
//!
//! The model's classification is for what code leaves unknown: when
//! a model is configured and code's own understanding found nothing in a
//! message (no code intent, no act, no value, no advisor), the model is asked
//! which of the few special intents it is — structured output: an intent of
//! a fixed enum, a confidence and a reason (`prompts/model/classify_intent.txt`).
//! Code acts on it only at or above [`THRESHOLD`] and only where the
//! message bears the label out ([`Evidence`], `server/lexicons/
//! model_intents.txt`: a greeting is short and asks nothing; a read-back is a
//! question about what the student said) — a 0.5B model labels "导师一般几点
//! 上班" read_back with 0.9. Below it, without the evidence, on a fault, or
//! for `unknown`, the turn goes on as code would have taken it. The model
//! never overrides an intent code recognised: it is not asked then.

use super::{Answer, Asker, Decided, Outcome, Turn};
use crate::agent::nlu::Lexicons;
use crate::agent::readback::ReadBack;
use crate::agent::replies::Templates;
use crate::llm::json::json_object;
use crate::llm::wire::WireMessage;
use crate::llm::{CompletionRequest, LlmClient, LlmError};
use app::protocol::IntentResult;
use serde_json::Value;

const PROMPT: &str = include_str!("../../../../prompts/model/classify_intent.txt");
const EVIDENCE: &str = include_str!("../../../lexicons/model_intents.txt");

/// What a model's intent must agree with in the message itself.
#[derive(Debug)]
pub struct Evidence {
    greeting_max_chars: usize,
    self_words: Vec<String>,
    memory_words: Vec<String>,
}

/// The evidence a model's label must find, loaded once (read by
/// `understand`, which asks the model only where a label could be borne
/// out, and by this step).
pub(super) fn evidence() -> &'static Evidence {
    static EVIDENCE: std::sync::OnceLock<Evidence> = std::sync::OnceLock::new();
    EVIDENCE.get_or_init(Evidence::load)
}

impl Evidence {
    pub fn load() -> Evidence {
        let entries = crate::text::lexfile::parse("model_intents.txt", EVIDENCE);
        let terms = |key: &str| -> Vec<String> {
            entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| {
                    e.terms
                        .iter()
                        .map(|t| crate::catalog::normalize(t))
                        .collect()
                })
                .unwrap_or_else(|| panic!("model_intents.txt: no {key}"))
        };
        Evidence {
            greeting_max_chars: terms("greeting.max_chars")[0]
                .parse()
                .expect("model_intents.txt: greeting.max_chars is a number"),
            self_words: terms("read_back.self"),
            memory_words: terms("read_back.memory"),
        }
    }

    /// Whether `message` (normalised; `question`: code reads it as a
    /// question) bears out the model's `intent`.
    pub fn supports(&self, intent: ModelIntent, normalized: &str, question: bool) -> bool {
        let has = |words: &[String]| words.iter().any(|w| normalized.contains(w.as_str()));
        match intent {
            ModelIntent::Greeting => {
                !question
                    && normalized.chars().filter(|c| c.is_alphanumeric()).count()
                        <= self.greeting_max_chars
            }
            ModelIntent::ReadBack => question && has(&self.self_words) && has(&self.memory_words),
            ModelIntent::Unknown => true,
        }
    }
}

impl Evidence {
    /// Whether `message` could bear out any intent code acts on: where it
    /// cannot, asking the model for one is a call whose answer is dropped.
    pub fn could_support(&self, normalized: &str, question: bool) -> bool {
        [ModelIntent::Greeting, ModelIntent::ReadBack]
            .into_iter()
            .any(|i| self.supports(i, normalized, question))
    }
}

/// The confidence below which the model's intent is not acted on.
pub const THRESHOLD: f64 = 0.7;
/// The longest reason kept, in characters.
const MAX_REASON: usize = 40;

/// The special intents the model may name (only what code must
/// treat specially; everything else is `unknown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelIntent {
    Greeting,
    ReadBack,
    Unknown,
}

impl ModelIntent {
    fn parse(s: &str) -> Option<ModelIntent> {
        match s.trim().to_ascii_lowercase().as_str() {
            "greeting" => Some(ModelIntent::Greeting),
            "read_back" => Some(ModelIntent::ReadBack),
            "unknown" => Some(ModelIntent::Unknown),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ModelIntent::Greeting => "greeting",
            ModelIntent::ReadBack => "read_back",
            ModelIntent::Unknown => "unknown",
        }
    }
}

/// The model's classification, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Classified {
    pub intent: ModelIntent,
    pub confidence: f64,
    pub reasoning: String,
}

impl Classified {
    /// Whether code acts on it: a special intent, confident enough.
    pub fn acted_on(&self) -> bool {
        self.intent != ModelIntent::Unknown && self.confidence >= THRESHOLD
    }

    /// As the reply's `intent` (the reason marked as the model's).
    pub fn result(&self) -> IntentResult {
        IntentResult {
            intent: self.intent.name().to_string(),
            confidence: self.confidence,
            reasoning: format!("模型判断：{}", self.reasoning),
        }
    }
}

/// The model's answer read into a classification: a JSON object whose
/// `intent` is one of the enum and whose `confidence` is a number in [0, 1]
/// (a percentage is scaled); anything else is `None`.
pub fn parse(content: &str) -> Option<Classified> {
    let object = json_object(content)?;
    let intent = ModelIntent::parse(object.get("intent")?.as_str()?)?;
    let confidence = match object.get("confidence")? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().trim_end_matches('%').parse().ok()?,
        _ => return None,
    };
    let confidence = if confidence > 1.0 && confidence <= 100.0 {
        confidence / 100.0
    } else {
        confidence
    };
    if !(0.0..=1.0).contains(&confidence) {
        return None;
    }
    let reasoning: String = object
        .get("reasoning")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_REASON)
        .collect();
    Some(Classified {
        intent,
        confidence,
        reasoning: reasoning.trim().to_string(),
    })
}

/// Why there is no usable classification.
#[derive(Debug)]
pub enum Unclassified {
    /// The provider is down, slow or limiting: the turn's planner call would
    /// meet the same, so the turn ends in the apology instead.
    Unavailable(LlmError),
    /// Anything else (an answer outside the schema, a refused request): the
    /// turn goes on as code would take it.
    Unusable(String),
}

/// Asks `client` to classify `message` (one call, with its usage in tokens).
pub async fn classify(
    client: &LlmClient,
    message: &str,
) -> Result<(Classified, u32), Unclassified> {
    let request = CompletionRequest {
        messages: vec![
            WireMessage::new("system", PROMPT.trim()),
            WireMessage::new("user", message.trim()),
        ],
        tools: None,
        tool_choice: None,
        // A label, not prose: as deterministic as the provider allows.
        temperature: crate::agent::planner::prompt::temperature("classify"),
    };
    let completion = client
        .complete(&request, &mut |_| {})
        .await
        .map_err(|e| match e {
            LlmError::Timeout
            | LlmError::Unreachable(_)
            | LlmError::RateLimited(_)
            | LlmError::Upstream(_)
            | LlmError::Skipped(_)
            | LlmError::OverBudget
            | LlmError::NoTimeLeft => Unclassified::Unavailable(e),
            other => Unclassified::Unusable(other.to_string()),
        })?;
    let tokens = completion.usage.map(|u| u.total_tokens).unwrap_or(0);
    parse(&completion.content)
        .map(|c| (c, tokens))
        .ok_or_else(|| {
            let shown: String = completion.content.chars().take(80).collect();
            Unclassified::Unusable(format!("outside the schema: {shown}"))
        })
}

/// What the step reads besides the turn (its own lexicon is
/// [`evidence`]).
pub(super) struct Deps<'a> {
    /// The model that classifies; none configured, the step passes.
    pub model: Option<&'a LlmClient>,
    /// Whether the message is a question.
    pub lexicons: &'a Lexicons,
    pub templates: &'a Templates,
    /// The form read back, for a read-back the model recognised.
    pub readback: &'a ReadBack,
}

impl Deps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Decided {
        let Some(model) = self.model else {
            return Outcome::Next.into();
        };
        match classify(model, &t.input.text).await {
            Ok((c, tokens)) => {
                t.cost.spend(Some(Asker::Intent), 1, tokens);
                tracing::debug!(
                    intent = c.intent.name(),
                    confidence = c.confidence,
                    "model intent"
                );
                let normalized = crate::catalog::normalize(&t.input.text);
                let question = crate::agent::nlu::is_question(&t.input.text, self.lexicons);
                if !c.acted_on() || !evidence().supports(c.intent, &normalized, question) {
                    tracing::info!(
                        intent = c.intent.name(),
                        confidence = c.confidence,
                        "the model's intent is not taken (below the threshold or not borne out)"
                    );
                    return Outcome::Next.into();
                }
                let turn = t.input.session.memory.turns;
                t.understood.classified = Some(c.result());
                let voice = match c.intent {
                    ModelIntent::Greeting => self.templates.render("greeting", turn, &[]),
                    ModelIntent::ReadBack => {
                        self.readback
                            .answer(t.form(), &normalized, self.templates, turn)
                    }
                    ModelIntent::Unknown => return Outcome::Next.into(),
                };
                Decided::answered(Answer::says(voice))
            }
            Err(Unclassified::Unavailable(e)) => {
                tracing::warn!(error = %e, "the model is unavailable; code takes the turn as it would alone");
                t.cost
                    .spend(Some(Asker::Intent), u32::from(e.was_sent()), 0);
                t.cost.provider_down();
                t.reply
                    .event(crate::agent::degraded_event(e.code(), &e.message()));
                Outcome::Next.into()
            }
            Err(Unclassified::Unusable(why)) => {
                t.cost.spend(Some(Asker::Intent), 1, 0);
                tracing::warn!(error = %why, "the model's intent classification is unusable; code's fallback");
                Outcome::Next.into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_no_label_could_fit_is_not_sent_to_be_classified() {
        let e = Evidence::load();
        // A question without 我 is neither a greeting nor a read-back.
        assert!(!e.could_support("读研期间能出国交换吗", true));
        // A short remark may be a greeting, a question about what I said a read-back.
        assert!(e.could_support("就是随口一说", false));
        assert!(e.could_support("你掌握了我哪些情况", true));
    }

    #[test]
    fn a_well_formed_answer_is_read() {
        let c = parse(r#"好的 {"intent": "greeting", "confidence": 0.92, "reasoning": "问候"}"#)
            .unwrap();
        assert_eq!(c.intent, ModelIntent::Greeting);
        assert!(c.acted_on());
        assert_eq!(c.result().intent, "greeting");
    }

    #[test]
    fn below_the_threshold_or_unknown_is_not_acted_on() {
        let low = parse(r#"{"intent": "read_back", "confidence": 0.4, "reasoning": "?"}"#).unwrap();
        assert!(!low.acted_on());
        let unknown = parse(r#"{"intent": "unknown", "confidence": 0.99}"#).unwrap();
        assert!(!unknown.acted_on());
        let pct = parse(r#"{"intent": "greeting", "confidence": "85%"}"#).unwrap();
        assert!((pct.confidence - 0.85).abs() < 1e-9);
    }

    #[test]
    fn a_label_the_message_does_not_bear_out_is_not_taken() {
        let e = Evidence::load();
        let n = crate::catalog::normalize;
        assert!(e.supports(ModelIntent::Greeting, &n("哟，各位晚上好呀"), false));
        assert!(!e.supports(ModelIntent::Greeting, &n("你掌握了我什么情况"), true));
        assert!(!e.supports(
            ModelIntent::Greeting,
            &n("我想了解一下整个考研的流程安排"),
            false
        ));
        assert!(e.supports(ModelIntent::ReadBack, &n("你掌握了我什么情况"), true));
        assert!(e.supports(ModelIntent::ReadBack, &n("我之前跟你讲过我的目标吗"), true));
        assert!(!e.supports(ModelIntent::ReadBack, &n("导师一般几点上班"), true));
        assert!(!e.supports(ModelIntent::ReadBack, &n("我该怎么准备复试"), true));
        assert!(!e.supports(ModelIntent::ReadBack, &n("我说过了"), false));
    }

    #[test]
    fn anything_outside_the_enum_or_range_is_refused() {
        for bad in [
            r#"{"intent": "reset", "confidence": 0.99}"#,
            r#"{"intent": "publish_review", "confidence": 1}"#,
            r#"{"intent": "greeting", "confidence": 7000}"#,
            r#"{"intent": "greeting", "confidence": -0.2}"#,
            r#"{"intent": "greeting"}"#,
            "greeting",
            "",
        ] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }
}
