//! `understand`: code's own language understanding runs on every message,
//! with or without a model — slots, the act asked for, references, negated
//! values. With someone else's words in the message ("我朋友想考清华，我想考
//! 北大") the form values come from the student's own clauses alone; the
//! references and the act from the whole message. A value the student
//! negates ("我不想做机器学习") leaves the form.

use app::protocol::UserForm;

use super::Turn;
use crate::agent::nlu::{self, Analysis, Slot};
use crate::agent::{option, spoken, Agent};
use crate::speech_act::Reading;

impl Agent {
    pub(super) async fn understand(&self, t: &mut Turn<'_>) {
        // The student opened a detail page by themselves since the last
        // turn: that advisor is now the one "他" means.
        if t.page.selected_advisor.is_some()
            && t.page.selected_advisor != t.session.page_context.selected_advisor
        {
            t.memory.last_advisor = t.page.selected_advisor.clone();
        }
        t.known = self.known_names(&t.text, &t.page, &t.memory, &t.form).await;
        let whole = nlu::analyze(&t.text, &self.lexicons, &t.known);
        t.analysis = if t.reading.has_reported() {
            let own = nlu::analyze(&t.reading.own_text(), &self.lexicons, &t.known);
            Analysis {
                act: whole.act,
                references: whole.references,
                pair: whole.pair,
                faq: whole.faq,
                follow_up: whole.follow_up,
                normalized: whole.normalized,
                ..own
            }
        } else {
            whole
        };
        // "第二个", "西安那个": the chips under the last question, answered in
        // words — the same as clicking one.
        if let Some(click) = spoken::answer(
            t.memory.pending.as_ref(),
            &t.analysis,
            &t.analysis.normalized,
        ) {
            match option::interpret(&click, self.site.catalog(), &t.form) {
                Ok(chip) => {
                    t.chip = Some(chip);
                    return;
                }
                Err(e) => tracing::debug!(error = %e, "a spoken chip that does not apply"),
            }
        }
        t.form = without_rejected(std::mem::take(&mut t.form), &t.analysis.rejected);
        t.foreign = t.analysis.rejected.clone();
        let reported = self.reported_values(&t.reading, &t.analysis, &t.known);
        t.foreign.extend(reported);
        // "我想评价一下张三老师": the coach starts a review conversation — when
        // the student asks it, not when a friend wants to ("我同学想评价他").
        let own_words = crate::catalog::normalize(&t.reading.own_text());
        t.wants_review = self.coach.wants_to_start(&own_words);
    }

    /// Form values only someone else's clauses name: no planner may put
    /// them in the form.
    fn reported_values(&self, reading: &Reading, own: &Analysis, known: &[String]) -> Vec<String> {
        if !reading.has_reported() {
            return Vec::new();
        }
        let theirs = nlu::analyze(&reading.reported_text(), &self.lexicons, known);
        let one = |slot: &Option<Slot>| match slot {
            Some(Slot::One(v)) => Some(v.clone()),
            _ => None,
        };
        let own_values = [
            one(&own.school),
            one(&own.major),
            own.research_direction.clone(),
        ];
        [
            one(&theirs.school),
            one(&theirs.major),
            theirs.research_direction.clone(),
        ]
        .into_iter()
        .flatten()
        .filter(|v| !own_values.iter().flatten().any(|o| o == v))
        .collect()
    }
}

/// The form without the values the student negated.
fn without_rejected(mut form: UserForm, rejected: &[String]) -> UserForm {
    use crate::agent::steer;
    for field in app::vocabulary::FORM_FIELDS {
        let value = steer::field_value(&form, field);
        if value.is_some_and(|v| rejected.iter().any(|r| r == v)) {
            steer::set_field(&mut form, field, None);
        }
    }
    form
}
