//! Dialogue suites: conversations with expectations per turn, replayed
//! against the agent the way a browser would (each reply's tool results are
//! applied to the page context before the next turn). The test suite and the
//! evaluation command read the same JSONL format, one dialogue per line:
//!
//! ```json
//! {"name": "the whole conversation", "turns": [
//!   {"say": "我想考北京大学计算机系",
//!    "expect": {"form": {"school": "北京大学"}, "tools": ["update_form", "update_ranking", "present_options"],
//!               "voice_prefix": "好的，北京大学计算机系。"}},
//!   {"click": {"target_field": "personality", "values": ["温和"]}, "expect": {"tools_include": ["recommend_advisors"]}},
//!   {"visit": {"ranking": ["北京大学", "计算机科学与技术"]}},
//!   {"visit": {"advisor": "张三"}},
//!   {"visit": "home"}
//! ]}
//! ```
//!
//! Expectations (all optional): `form` (fields that must equal; `null` means
//! empty; `direction`, `personality`, `research_style`, `funding` included),
//! `tools` (the exact sequence), `tools_include`, `tools_exclude`, `params`
//! (per tool, a subset of its parameters), `first_result` (per tool, the name
//! of the first advisor of its result), `voice` (exact), `voice_prefix`,
//! `voice_contains` (all of a list), `voice_excludes` (none of a list), `intent`, `agent` (the persona), `error` (the reply's error
//! code; without it, a reply with an error fails an expectation).
//!
//! This module holds the suite format and its parsing; `check.rs` judges a
//! reply against a turn's expectations, `run.rs` replays a dialogue into turn
//! reports, `summary.rs` scores a suite and `compare.rs` sets code alone
//! against a model, turn by turn.

mod check;
mod compare;
mod run;
mod summary;

use serde::Deserialize;
use serde_json::{Map, Value};

use app::protocol::OptionClick;

pub use check::check;
pub use compare::Comparison;
pub use run::{render_turn, run_dialogue, TurnReport};
pub use summary::Summary;

#[derive(Clone, Debug, Deserialize)]
pub struct Dialogue {
    pub name: String,
    pub turns: Vec<Turn>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Turn {
    #[serde(default)]
    pub say: Option<String>,
    #[serde(default)]
    pub click: Option<OptionClick>,
    #[serde(default)]
    pub visit: Option<Value>,
    #[serde(default)]
    pub expect: Option<Expect>,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct Expect {
    #[serde(default)]
    pub form: Option<Map<String, Value>>,
    #[serde(default)]
    pub tools: Option<Vec<String>>,
    #[serde(default)]
    pub tools_include: Vec<String>,
    #[serde(default)]
    pub tools_exclude: Vec<String>,
    #[serde(default)]
    pub params: Map<String, Value>,
    #[serde(default)]
    pub first_result: Map<String, Value>,
    #[serde(default)]
    pub voice: Option<String>,
    #[serde(default)]
    pub voice_prefix: Option<String>,
    #[serde(default)]
    pub voice_contains: Vec<String>,
    /// None of these may be said (the generic fallback, say).
    #[serde(default)]
    pub voice_excludes: Vec<String>,
    #[serde(default)]
    pub intent: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    /// The persona that must answer (`casual` / `analysis`).
    #[serde(default)]
    pub agent: Option<String>,
}

/// Parses a JSONL suite (blank lines and `//` comment lines are skipped).
pub fn parse_suite(text: &str) -> Result<Vec<Dialogue>, String> {
    crate::text::jsonl::parse(text)
}
