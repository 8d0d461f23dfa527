//! `understand`: code's own language understanding runs on every message,
//! with or without a model — slots, the act asked for, references, negated
//! values. With someone else's words in the message ("我朋友想考清华，我想考
//! 北大") the form values come from the student's own clauses alone; the
//! references and the act from the whole message. Unless the student's own
//! words ask for the place someone else named and name none of their own
//! ("听说厦大的新闻学不错，想看看导师"), or the student asks for the
//! applicant ("我女儿想考厦大的生物学"): the place heard of is what the
//! student asks about. A value the student negates ("我不想做机器学习")
//! leaves the form.

use app::protocol::{IntentResult, UserForm};

use super::persona::PersonaLexicon;
use super::{Answer, Decided, Outcome, Turn};
use crate::agent::about_place::{PlaceOffer, PlaceWords};
use crate::agent::nlu::{self, Act, Analysis, Lexicons, Slot};
use crate::agent::replies::Templates;
use crate::agent::{option, spoken};
use crate::coach::Coach;
use crate::site::Site;
use crate::speech_act::{Answer as YesNo, Reading, SpeechActs};

/// What the step reads besides the turn.
pub(super) struct Deps<'a> {
    /// The catalog (a chip answered in words) and the advisor names the
    /// student may say.
    pub site: &'a Site,
    pub lexicons: &'a Lexicons,
    /// Whose words each clause is, and a yes or no to an offer.
    pub acts: &'a SpeechActs,
    /// Whether the student asks to write a review.
    pub coach: &'a Coach,
    /// Words the personas read, which are not "unread".
    pub personas: &'a PersonaLexicon,
    /// The place answer's offer, accepted by its chip's words.
    pub place_words: &'a PlaceWords,
    pub templates: &'a Templates,
    /// A model is configured (it may classify what code did not read).
    pub model_configured: bool,
}

impl Deps<'_> {
    pub(super) async fn run(&self, t: &mut Turn<'_>) -> Decided {
        t.understood.known = t.known_names(self.site, self.lexicons).await;
        let whole = nlu::analyze(&t.input.text, self.lexicons, &t.understood.known);
        // The student's own words, and what someone told them to do ("我爸
        // 让我看管理科学与工程"): that is what they came to ask about.
        let own = t.understood.reading.has_reported().then(|| {
            nlu::analyze(
                &t.understood.reading.wished_text(),
                self.lexicons,
                &t.understood.known,
            )
        });
        // "我女儿…她想考厦门大学的生物学": a parent asks for the applicant,
        // whose wish is the request.
        let for_someone = nlu::asks_for_someone(&whole, self.lexicons);
        let asks_for_the_place_heard_of = own.as_ref().is_some_and(|own| {
            own.school.is_none()
                && own.major.is_none()
                && (for_someone
                    || matches!(own.act, Act::ListAdvisors | Act::Recommend | Act::WantExam))
        });
        // "我妈老说西安医科大学，就那个，临床医学的导师排名": the student's own
        // words ask for a major, name no school and point back at the one
        // school the others' words name: where they ask ("我朋友想考清华，
        // 我想考计算机" keeps the friend's wish the friend's).
        let own_text = t.understood.reading.own_text();
        let points_back = self
            .lexicons
            .lists
            .place_back
            .occurs_in(&crate::text::utterance::chars(&own_text));
        let heard_school = whole
            .school
            .clone()
            .filter(|s| points_back && matches!(s, Slot::One(_)));
        t.understood.analysis = if let Some(mut own) = own.filter(|_| !asks_for_the_place_heard_of)
        {
            if own.school.is_none() && own.major.is_some() {
                own.school = heard_school;
            }
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
        // "他说让我去读电气": the 他 of a clause telling the student what to
        // do is who told them, not an advisor pointed at.
        if t.understood
            .reading
            .clauses()
            .iter()
            .any(|c| c.directs_the_writer)
        {
            let refs = &mut t.understood.analysis.references;
            refs.retain(|r| *r != nlu::Reference::Pronoun);
        }
        // "好的" / "看看导师排名" to last turn's offer: its place, as if named.
        if let Some(offer) = t.input.offered.take() {
            if let Some(declined) = self.answer_offer(t, offer) {
                return Decided::answered(declined);
            }
        }
        // "第二个", "西安那个": the chips under the last question, answered in
        // words — the same as clicking one.
        if let Some(click) = spoken::answer(
            t.memory().pending.as_ref(),
            &t.understood.analysis,
            &t.understood.analysis.normalized,
        ) {
            match option::interpret(&click, self.site.catalog(), t.form()) {
                Ok(chip) => {
                    t.understood.chip = Some(chip);
                    return Outcome::Chip.into();
                }
                Err(e) => tracing::debug!(error = %e, "a spoken chip that does not apply"),
            }
        }
        t.understood.form = Some(without_rejected(
            t.form().clone(),
            &t.understood.analysis.rejected,
        ));
        t.understood.foreign = t.understood.analysis.rejected.clone();
        if !asks_for_the_place_heard_of {
            let reported = self.reported_values(
                &t.understood.reading,
                &t.understood.analysis,
                &t.understood.known,
            );
            t.understood.foreign.extend(reported);
        }
        // "我想评价一下张三老师": the coach starts a review conversation — when
        // the student asks it, not when a friend wants to ("我同学想评价他").
        let own_words = crate::text::fold::fold(&own_text);
        t.understood.wants_review = self.coach.wants_to_start(&own_words);
        t.understood.unread = t
            .understood
            .analysis
            .unexplained
            .iter()
            .filter(|f| !self.personas.covers(f))
            .cloned()
            .collect();
        // What code understood nothing of, a model classifies —
        // when it says something at all ("好的" alone says nothing), and
        // only where the message could bear out a label code would take
        // (a question without 我 is no read-back, and no greeting): the
        // rest goes straight to the planner, one model call, not two.
        let normalized = crate::catalog::normalize(&t.input.text);
        let classify = self.model_configured
            && t.input.session.persona != crate::agent::CASUAL
            && !t.understood.wants_review
            && understood_nothing(&t.understood.analysis)
            && !t.understood.unread.is_empty()
            && super::classify::evidence().could_support(
                &normalized,
                crate::agent::nlu::is_question(&t.input.text, self.lexicons),
            );
        if classify {
            Outcome::Classify.into()
        } else {
            Outcome::Next.into()
        }
    }

    /// The student's answer to a place answer's offer to search: a yes
    /// ("好的", the chip "看看导师排名", "看看排名") puts the offered school and
    /// major into the analysis, as if said now; a no ("先不用") is answered
    /// and the turn ends (the answer returned); anything else, or a place
    /// or an advisor named now, leaves the offer behind.
    fn answer_offer(&self, t: &mut Turn<'_>, offer: PlaceOffer) -> Option<Answer> {
        let a = &t.understood.analysis;
        let moved_on = a.school.is_some()
            || a.major.is_some()
            || a.unknown_school.is_some()
            || a.unknown_major.is_some()
            || !a.references.is_empty();
        if moved_on {
            return None;
        }
        let text = crate::catalog::normalize(&t.input.text);
        let chip = crate::catalog::normalize(self.place_words.accept_option());
        let accepted = text.contains(&chip)
            || matches!(a.act, Act::ListAdvisors | Act::Recommend)
            || self.acts.answer(&t.understood.reading) == YesNo::Yes;
        if accepted {
            t.understood.analysis.school = offer.school.map(Slot::One);
            t.understood.analysis.major = offer.major.map(Slot::One);
            if !matches!(
                t.understood.analysis.act,
                Act::ListAdvisors | Act::Recommend
            ) {
                t.understood.analysis.act = Act::None;
            }
        } else if self.acts.answer(&t.understood.reading) == YesNo::No {
            let turn = t.input.session.memory.turns;
            let intent = IntentResult {
                intent: "unknown".into(),
                confidence: 0.9,
                reasoning: "学生不需要查看排名，表单不变".into(),
            };
            let voice = self.templates.render("place_offer_declined", turn, &[]);
            return Some(Answer::as_intent(voice, intent));
        }
        None
    }

    /// Form values only someone else's clauses name: no planner may put
    /// them in the form.
    fn reported_values(&self, reading: &Reading, own: &Analysis, known: &[String]) -> Vec<String> {
        if !reading.has_reported() {
            return Vec::new();
        }
        let theirs = nlu::analyze(&reading.reported_text(), self.lexicons, known);
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

/// Code's understanding found nothing: no act, no value, no advisor, no
/// FAQ entry — the case handed to the model's classification.
fn understood_nothing(a: &Analysis) -> bool {
    a.act == Act::None
        && a.school.is_none()
        && a.major.is_none()
        && a.unknown_school.is_none()
        && a.unknown_major.is_none()
        && !a.names_wishes()
        && a.references.is_empty()
        && !a.pair
        && a.rejected.is_empty()
        && a.faq.is_none()
        && a.postponed.is_empty()
        && !a.correction
}

/// The form without the values the student negated.
fn without_rejected(mut form: UserForm, rejected: &[String]) -> UserForm {
    use crate::agent::form;
    for field in app::vocabulary::FORM_FIELDS {
        let value = form::field_value(&form, field);
        if value.is_some_and(|v| rejected.iter().any(|r| r == v)) {
            form::set_field(&mut form, field, None);
        }
    }
    form
}
