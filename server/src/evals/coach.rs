//! The coach's labelled set (路由准确性, routing accuracy): review messages with
//! the route an expert would take and the posting rules each breaks. The
//! router (with the rule check, as in a real turn) is run on every message
//! and scored: routing accuracy, and precision / recall per rule.
//!
//! One JSON object per line (`//` lines are comments):
//! `{"say": "…", "covered": ["academic"], "next_agent": "follow_up", "violations": []}`
//! where `covered` lists the dimensions the draft already had.

pub use super::rules::RuleScore;
use serde::Deserialize;

use crate::coach::lexicon::CoachLexicon;
use crate::coach::reader::Reader;
use crate::coach::router;
use crate::coach::state::{CoachState, Dimension, NextAgent};
use crate::reviews::rules::{self, RuleContext};
use crate::text::fold::fold;

#[derive(Clone, Debug, Deserialize)]
pub struct Labelled {
    pub say: String,
    #[serde(default)]
    pub covered: Vec<Dimension>,
    pub next_agent: NextAgent,
    #[serde(default)]
    pub violations: Vec<String>,
}

/// Parses the set (blank and `//` lines skipped).
pub fn parse(text: &str) -> Result<Vec<Labelled>, String> {
    crate::text::jsonl::parse(text)
}

/// How one message went.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub say: String,
    pub want: NextAgent,
    pub got: NextAgent,
    pub want_rules: Vec<String>,
    pub got_rules: Vec<String>,
    pub reason: String,
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 {
        1.0
    } else {
        n as f64 / d as f64
    }
}

/// The draft a labelled message arrives at: its `covered` dimensions said.
fn state_of(l: &Labelled) -> CoachState {
    let mut state = CoachState::new("1".into(), "张三".into());
    for d in &l.covered {
        let c = state.coverage_mut(*d);
        c.mentioned = true;
        c.specific = true;
        // Enough earlier text for the covered dimensions to count.
        state.fragments.push("之前说过的一段具体经历。".into());
    }
    state
}

/// The posting rules a labelled message breaks, by code, in order.
fn rules_of(l: &Labelled) -> Vec<String> {
    let ctx = RuleContext {
        advisor_name: "张三".into(),
    };
    let mut got_rules: Vec<String> = Vec::new();
    for v in rules::check(&l.say, &ctx) {
        if !got_rules.iter().any(|c| c == v.code) {
            got_rules.push(v.code.to_string());
        }
    }
    got_rules
}

/// Runs the router on every labelled message.
pub fn run(set: &[Labelled]) -> Vec<Verdict> {
    let lex = CoachLexicon::load();
    let reader = Reader::load();
    set.iter()
        .map(|l| {
            let state = state_of(l);
            let got_rules = rules_of(l);
            let text = fold(&l.say);
            let said = reader.read(&l.say);
            let e = router::evaluate(&lex, &said, &state, &text, got_rules.clone());
            Verdict {
                say: l.say.clone(),
                want: l.next_agent,
                got: e.next_agent.unwrap_or(NextAgent::FollowUp),
                want_rules: l.violations.clone(),
                got_rules,
                reason: e.reason,
            }
        })
        .collect()
}

/// How the coach does with a model: the router's accuracy
/// with the model's evaluation (code's rules still check it), and how often
/// the follow-up's own words ask about a dimension the draft actually lacks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelScore {
    pub messages: usize,
    pub routed_right: usize,
    /// The router's model call failed (the rules decided).
    pub router_faults: usize,
    /// Follow-ups asked of the model.
    pub follow_ups: usize,
    /// Of those, lines said (they passed the checks) …
    pub said: usize,
    /// … and of those, lines that name a missing dimension and no covered one.
    pub asked_missing: usize,
}

impl ModelScore {
    pub fn render(&self, model: &str) -> String {
        let pct = |n: usize, d: usize| {
            if d == 0 {
                0.0
            } else {
                100.0 * n as f64 / d as f64
            }
        };
        format!(
            "coach with {model}\n\
             routing accuracy        {}/{} ({:.1}%)\n\
             router model faults     {}\n\
             follow-ups asked        {}\n\
             model lines said        {}/{} ({:.1}%; the rest: the template)\n\
             asked a missing dim     {}/{} ({:.1}% of lines said)\n",
            self.routed_right,
            self.messages,
            pct(self.routed_right, self.messages),
            self.router_faults,
            self.follow_ups,
            self.said,
            self.follow_ups,
            pct(self.said, self.follow_ups),
            self.asked_missing,
            self.said,
            pct(self.asked_missing, self.said),
        )
    }
}

/// Runs `coach`'s router with `client`'s model on every labelled message,
/// and its follow-up on those the router sends there.
pub async fn run_model(
    coach: &crate::coach::Coach,
    client: &crate::llm::LlmClient,
    set: &[Labelled],
) -> ModelScore {
    let lex = CoachLexicon::load();
    let reader = Reader::load();
    let mut score = ModelScore::default();
    for l in set {
        score.messages += 1;
        let state = state_of(l);
        let violations = rules_of(l);
        let text = fold(&l.say);
        let said = reader.read(&l.say);
        let e = match coach.model_evaluation(client, &state, &l.say).await {
            Ok(proposed) => router::reroute(&lex, &said, &state, &text, proposed, violations),
            Err(_) => {
                score.router_faults += 1;
                router::evaluate(&lex, &said, &state, &text, violations)
            }
        };
        let got = e.next_agent.unwrap_or(NextAgent::FollowUp);
        if got == l.next_agent {
            score.routed_right += 1;
        }
        if got != NextAgent::FollowUp {
            continue;
        }
        let Some(gap) = Dimension::ALL
            .into_iter()
            .find(|d| !state.coverage(*d).mentioned && !e.dimensions.contains(d))
        else {
            continue;
        };
        score.follow_ups += 1;
        if let Ok(line) = coach.follow_up_line(client, &state, &e, gap, &l.say).await {
            score.said += 1;
            let line = fold(&line);
            let named = reader.dimensions(&line);
            let names = |d: Dimension| named.contains(&d);
            let missing = Dimension::ALL
                .into_iter()
                .filter(|d| !state.coverage(*d).mentioned && !e.dimensions.contains(d))
                .any(names);
            let covered = Dimension::ALL
                .into_iter()
                .filter(|d| state.coverage(*d).mentioned || e.dimensions.contains(d))
                .any(names);
            if missing && !covered {
                score.asked_missing += 1;
            }
        }
    }
    score
}

/// Routing accuracy, and the per-rule scores (rules in the order first seen).
pub fn score(verdicts: &[Verdict]) -> (f64, Vec<RuleScore>) {
    let right = verdicts.iter().filter(|v| v.want == v.got).count();
    let mut rules: Vec<RuleScore> = Vec::new();
    let entry = |code: &str, rules: &mut Vec<RuleScore>| -> usize {
        match rules.iter().position(|r| r.code == code) {
            Some(i) => i,
            None => {
                rules.push(RuleScore {
                    code: code.to_string(),
                    ..RuleScore::default()
                });
                rules.len() - 1
            }
        }
    };
    for v in verdicts {
        for code in &v.want_rules {
            let i = entry(code, &mut rules);
            if v.got_rules.contains(code) {
                rules[i].true_positives += 1;
            } else {
                rules[i].false_negatives += 1;
            }
        }
        for code in v.got_rules.iter().filter(|c| !v.want_rules.contains(c)) {
            let i = entry(code, &mut rules);
            rules[i].false_positives += 1;
        }
    }
    (ratio(right, verdicts.len()), rules)
}

/// The report the `eval-coach` command prints.
pub fn render(verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    for v in verdicts {
        let ok = v.want == v.got && {
            let mut a = v.want_rules.clone();
            let mut b = v.got_rules.clone();
            a.sort();
            b.sort();
            a == b
        };
        out.push_str(&format!(
            "{}  «{}» → {:?} {:?}{}\n",
            if ok { "PASS" } else { "FAIL" },
            v.say,
            v.got,
            v.got_rules,
            if ok {
                String::new()
            } else {
                format!("  (want {:?} {:?}; {})", v.want, v.want_rules, v.reason)
            }
        ));
    }
    let (accuracy, rules) = score(verdicts);
    out.push_str(&format!(
        "\nmessages           {}\nrouting accuracy   {:.1}%\n",
        verdicts.len(),
        accuracy * 100.0
    ));
    for r in rules {
        out.push_str(&format!("rule {}", r.line()));
    }
    out
}
