//! The posting rules measured on their labelled set
//! (`server/evals/dev/rules.jsonl`, also `server eval-rules`): at least 0.95
//! recall on every kind of contact detail, at least 0.98 of the innocent
//! look-alikes accepted, and every rule right more often than not.

use server::evals::rules::{run, Labelled, Report, CONTACT_RULES};
use server::text::jsonl::parse as parse_jsonl;

#[test]
fn the_rules_meet_their_targets_on_the_labelled_set() {
    let set: Vec<Labelled> =
        parse_jsonl(include_str!("../../evals/dev/rules.jsonl")).expect("the set parses");
    assert!(set.len() >= 400, "{} sentences", set.len());
    let report = Report::of(&run(&set));
    assert!(
        report.innocent >= 100,
        "{} innocent sentences",
        report.innocent
    );
    assert!(
        report.innocent_precision() >= 0.98,
        "innocent accepted {:.3}",
        report.innocent_precision()
    );
    for code in CONTACT_RULES {
        let s = report.rule(code).expect("every contact rule is in the set");
        assert!(s.recall() >= 0.95, "{code}: recall {:.3}", s.recall());
        assert!(
            s.precision() >= 0.95,
            "{code}: precision {:.3}",
            s.precision()
        );
    }
    assert!(report.contact.recall() >= 0.95);
    for s in &report.rules {
        assert!(
            s.true_positives + s.false_negatives >= 8,
            "{}: too few examples",
            s.code
        );
        assert!(
            s.precision() >= 0.9 && s.recall() >= 0.9,
            "{}: precision {:.3}, recall {:.3}",
            s.code,
            s.precision(),
            s.recall()
        );
    }
}
