//! How often the posting rules are right, measured on a labelled set
//! (`server/evals/dev/rules.jsonl`): sentences written the way students write,
//! each with the rules it breaks — violations of every rule and innocent
//! look-alikes (years, amounts, room numbers, 微信群, 邮件回复很快, 课题组网站 …).
//! Without a measure a word list only grows; with one, a new pattern that
//! catches more but refuses innocent reviews shows up at once.
//!
//! One JSON object per line (`//` lines are comments):
//! `{"text": "…", "rules": ["contains_contact"]}` (`[]`: innocent).
//! `server eval-rules <file>` prints precision and recall per rule, the
//! contact details together, and the share of innocent sentences accepted;
//! `server/tests/suite/rules_eval.rs` asserts the targets.

use serde::Deserialize;

use crate::reviews::rules::{self, RuleContext};

/// Precision and recall of one rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleScore {
    pub code: String,
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
}

impl RuleScore {
    pub fn precision(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_positives,
        )
    }
    pub fn recall(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_negatives,
        )
    }

    /// The rule's line of a report: its code, precision, recall and counts.
    pub fn line(&self) -> String {
        format!(
            "{:<20} precision {:>5.1}%  recall {:>5.1}%  (tp {}, fp {}, fn {})\n",
            self.code,
            self.precision() * 100.0,
            self.recall() * 100.0,
            self.true_positives,
            self.false_positives,
            self.false_negatives
        )
    }
}

fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 {
        1.0
    } else {
        n as f64 / d as f64
    }
}

/// The rules that are contact details (their recall target is 0.95).
pub const CONTACT_RULES: [&str; 4] = [
    "contains_phone",
    "contains_contact",
    "contains_email",
    "contains_link",
];

/// One line of the set (read with `crate::text::jsonl::parse`).
#[derive(Clone, Debug, Deserialize)]
pub struct Labelled {
    pub text: String,
    #[serde(default)]
    pub rules: Vec<String>,
}

/// What the rules said about one sentence.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub text: String,
    pub want: Vec<String>,
    pub got: Vec<String>,
}

/// Checks every sentence as a review of 张三.
pub fn run(set: &[Labelled]) -> Vec<Verdict> {
    let ctx = RuleContext {
        advisor_name: "张三".into(),
    };
    set.iter()
        .map(|l| {
            let mut got: Vec<String> = Vec::new();
            for v in rules::check(&l.text, &ctx) {
                if !got.iter().any(|c| c == v.code) {
                    got.push(v.code.to_string());
                }
            }
            Verdict {
                text: l.text.clone(),
                want: l.rules.clone(),
                got,
            }
        })
        .collect()
}

/// The scores of a run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Per rule, in the order first seen in the set.
    pub rules: Vec<RuleScore>,
    /// The contact rules counted as one.
    pub contact: RuleScore,
    pub innocent: usize,
    pub innocent_accepted: usize,
}

impl Report {
    pub fn of(verdicts: &[Verdict]) -> Report {
        let mut r = Report::default();
        r.contact.code = "contact details".into();
        for v in verdicts {
            if v.want.is_empty() {
                r.innocent += 1;
                r.innocent_accepted += usize::from(v.got.is_empty());
            }
            let contact = |l: &[String]| l.iter().any(|c| CONTACT_RULES.contains(&c.as_str()));
            count(&mut r.contact, contact(&v.want), contact(&v.got));
            for code in v.want.iter().chain(&v.got) {
                if !r.rules.iter().any(|s| s.code == *code) {
                    r.rules.push(RuleScore {
                        code: code.clone(),
                        ..RuleScore::default()
                    });
                }
            }
            for s in &mut r.rules {
                let code = s.code.clone();
                count(s, v.want.contains(&code), v.got.contains(&code));
            }
        }
        r
    }

    /// The share of innocent sentences with no violation.
    pub fn innocent_precision(&self) -> f64 {
        if self.innocent == 0 {
            1.0
        } else {
            self.innocent_accepted as f64 / self.innocent as f64
        }
    }

    pub fn rule(&self, code: &str) -> Option<&RuleScore> {
        self.rules.iter().find(|s| s.code == code)
    }
}

fn count(s: &mut RuleScore, want: bool, got: bool) {
    match (want, got) {
        (true, true) => s.true_positives += 1,
        (true, false) => s.false_negatives += 1,
        (false, true) => s.false_positives += 1,
        (false, false) => {}
    }
}

/// The report `server eval-rules` prints: every miss, then the table.
pub fn render(verdicts: &[Verdict]) -> String {
    let mut out = String::new();
    for v in verdicts {
        let (mut a, mut b) = (v.want.clone(), v.got.clone());
        a.sort();
        b.sort();
        if a != b {
            out.push_str(&format!(
                "MISS «{}» → {:?} (want {:?})\n",
                v.text, v.got, v.want
            ));
        }
    }
    let r = Report::of(verdicts);
    out.push_str(&format!(
        "\nsentences {}  (innocent {}, accepted {} = {:.1}%)\n",
        verdicts.len(),
        r.innocent,
        r.innocent_accepted,
        r.innocent_precision() * 100.0
    ));
    for s in r.rules.iter().chain(std::iter::once(&r.contact)) {
        out.push_str(&s.line());
    }
    out
}
