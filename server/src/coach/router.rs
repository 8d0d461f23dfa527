//! The router node: evaluates each message into a
//! structured [`Evaluation`] — which dimensions it covers, whether it is
//! specific, which posting rules it breaks, whether the review is now
//! complete, a reason — and the `next_agent`. The rules below decide the
//! route; a language model, when configured, may propose the evaluation
//! instead (see `graph/route.rs`), and these same routing rules then apply.

use super::lexicon::CoachLexicon;
use super::reader::Said;
use super::state::{CoachState, Dimension, Evaluation, NextAgent};

/// The shortest review the site accepts, in characters (the posting rules).
pub use app::vocabulary::MIN_TEXT;

/// What one message adds: the dimensions it speaks about (`said`, the
/// reader's reading of it), and whether it is specific (something concrete:
/// a number, a frequency, a thing).
pub fn read(lex: &CoachLexicon, said: &Said, text: &str) -> (Vec<Dimension>, bool) {
    let dims: Vec<Dimension> = said.dims.iter().map(|(d, _)| *d).collect();
    let chars = text.chars().count();
    let has_digit = text.chars().any(|c| c.is_ascii_digit());
    let concrete = CoachLexicon::any(&lex.concrete, text) || has_digit;
    let vague_only = CoachLexicon::any(&lex.vague, text) && chars <= 8;
    (dims, concrete && !vague_only && chars >= 8)
}

/// The evaluation of `text` in `state`; `violations` are the codes the rule
/// check found (the tool node runs it before the router decides).
pub fn evaluate(
    lex: &CoachLexicon,
    said: &Said,
    state: &CoachState,
    text: &str,
    violations: Vec<String>,
) -> Evaluation {
    let (dims, specific) = read(lex, said, text);
    let question = CoachLexicon::any(&lex.question, text)
        || (dims.is_empty()
            && (text.ends_with('？') || text.ends_with('?') || text.ends_with('吗')));
    let done = CoachLexicon::any(&lex.done, text);
    // Coverage as it will be once this message counts.
    let mentioned = |d: Dimension| state.coverage(d).mentioned || dims.contains(&d);
    let covered = Dimension::ALL.iter().filter(|d| mentioned(**d)).count();
    let length = state.text().chars().count()
        + if violations.is_empty() {
            text.chars().count()
        } else {
            0
        };
    let complete = violations.is_empty()
        && length >= MIN_TEXT
        && (covered == Dimension::ALL.len() || (done && covered >= 2));
    let (next, reason) = if !violations.is_empty() {
        (
            NextAgent::Editor,
            format!("违反发帖规则：{}", violations.join("、")),
        )
    } else if question {
        (NextAgent::Editor, "学生直接提问".to_string())
    } else if complete {
        (
            NextAgent::Editor,
            format!("四个维度已覆盖 {covered} 个，内容足够，整理成草稿"),
        )
    } else if !dims.is_empty() && !specific {
        (
            NextAgent::FollowUp,
            "说到了但比较笼统，追问细节".to_string(),
        )
    } else {
        (
            NextAgent::FollowUp,
            format!("还缺 {} 个维度，继续追问", Dimension::ALL.len() - covered),
        )
    };
    Evaluation {
        dimensions: dims,
        specific,
        violations,
        complete,
        question,
        reason,
        next_agent: Some(next),
        action: None,
    }
}

/// A model's evaluation, checked: the rule check's violations are the ones
/// that count (the model may add known codes it saw), and the route is
/// decided by the same rules as [`evaluate`] from the model's reading.
/// Whether the review is complete is code's to say (its coverage of the
/// four dimensions, or 就这些 with two): measured on the local 0.5B model,
/// it called one sentence about 学术 a complete review. A question is taken
/// from the model only when the message is worded as one.
pub fn reroute(
    lex: &CoachLexicon,
    said: &Said,
    state: &CoachState,
    text: &str,
    proposed: Evaluation,
    mut violations: Vec<String>,
) -> Evaluation {
    const KNOWN: [&str; 6] = [
        "contains_phone",
        "contains_id_number",
        "contains_email",
        "private_life",
        "insult",
        "names_student",
    ];
    for v in proposed.violations {
        if KNOWN.contains(&v.as_str()) && !violations.contains(&v) {
            violations.push(v);
        }
    }
    let rules = evaluate(lex, said, state, text, violations);
    let mut dims = proposed.dimensions;
    dims.dedup();
    let asks = text.contains(['？', '?', '吗', '呢']);
    let question = rules.question || (proposed.question && asks);
    if proposed.complete != rules.complete {
        tracing::info!(
            model = proposed.complete,
            code = rules.complete,
            "the model's view of completeness is not taken"
        );
    }
    let complete = rules.complete;
    let next = if !rules.violations.is_empty() || question || complete {
        NextAgent::Editor
    } else {
        NextAgent::FollowUp
    };
    Evaluation {
        dimensions: if dims.is_empty() {
            rules.dimensions
        } else {
            dims
        },
        specific: proposed.specific,
        complete: complete && rules.violations.is_empty(),
        question,
        reason: if proposed.reason.is_empty() {
            rules.reason.clone()
        } else {
            proposed.reason
        },
        next_agent: Some(next),
        violations: rules.violations,
        // Never carried on: code alone decides consequential actions.
        action: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::reader::Reader;
    use super::*;

    fn lex() -> CoachLexicon {
        CoachLexicon::load()
    }

    #[test]
    fn dimensions_and_specifics_are_read() {
        let l = lex();
        let r = Reader::load();
        let text = "学术水平很高，每周组会都认真指导，但是经费不够，补助很少";
        let (dims, specific) = read(&l, &r.read(text), text);
        assert_eq!(dims, [Dimension::Academic, Dimension::Funding]);
        assert!(specific);
        let (_, specific) = read(&l, &r.read("还行吧"), "还行吧");
        assert!(!specific);
    }

    #[test]
    fn a_gap_goes_to_the_follow_up_the_rest_to_the_editor() {
        let l = lex();
        let r = Reader::load();
        let s = CoachState::new("1".into(), "张三".into());
        let e = evaluate(&l, &r.read("学术水平挺高的"), &s, "学术水平挺高的", vec![]);
        assert_eq!(e.next_agent, Some(NextAgent::FollowUp));
        let e = evaluate(
            &l,
            &r.read("电话13812345678"),
            &s,
            "电话13812345678",
            vec!["contains_phone".into()],
        );
        assert_eq!(e.next_agent, Some(NextAgent::Editor));
        let e = evaluate(
            &l,
            &r.read("评价会不会被导师看到？"),
            &s,
            "评价会不会被导师看到？",
            vec![],
        );
        assert!(e.question);
        assert_eq!(e.next_agent, Some(NextAgent::Editor));
        let text = "学术很强，每周组会；经费充足，补助每月三千；对学生很耐心；毕业去向都是大厂";
        let e = evaluate(&l, &r.read(text), &s, text, vec![]);
        assert!(e.complete);
        assert_eq!(e.next_agent, Some(NextAgent::Editor));
    }
}
