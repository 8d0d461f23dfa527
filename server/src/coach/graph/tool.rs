//! The tool step: runs the job the editor left — the form's validation of
//! the draft, publishing through `reviews::submit`, a knowledge lookup —
//! and hands what it found back to the editor. The only step that touches
//! the site's reviews.

use app::model::{NewReview, Ratings};

use super::{Found, Job, Walk};
use crate::coach::state::CoachState;
use crate::coach::Coach;

impl Coach {
    /// The tool step: runs the job and hands the result back to the editor.
    pub(super) async fn tool(&self, state: &mut CoachState, w: &mut Walk<'_>) {
        let Some(job) = w.job.take() else {
            w.error = Some("tool: no job".into());
            return;
        };
        let review = self.draft(state);
        w.found = Some(match job {
            Job::CheckDraft => match crate::reviews::validate(&review, &self.rule_context(state)) {
                problems if problems.is_empty() => Found::DraftOk,
                problems => Found::DraftBroken(problems[0].message.clone()),
            },
            Job::Lookup(query) => {
                Found::Passages(self.knowledge.lookup(&query).into_iter().cloned().collect())
            }
            Job::Submit => {
                match crate::reviews::submit(&self.site, &state.advisor_id, review, w.client_key)
                    .await
                {
                    Ok(posted) => Found::Posted(Box::new(posted)),
                    Err(e) => Found::Refused(e.info.message),
                }
            }
        });
    }

    /// The draft as the form would submit it.
    fn draft(&self, state: &CoachState) -> NewReview {
        let scores = state.scores.clone().unwrap_or_else(|| state.propose());
        NewReview {
            ratings: Ratings {
                academic: scores.academic,
                funding: scores.funding,
                relationship: scores.relationship,
                prospects: scores.prospects,
                overall: scores.overall,
            },
            tags: state.tags.clone(),
            text: state.text(),
            relation: state.relation.clone().unwrap_or_else(|| "了解".to_string()),
            recommend: state.recommend,
        }
    }
}
