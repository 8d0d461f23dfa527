//! `narrate`: what the turn says. Nothing internal is spoken (tool names,
//! annotations, JSON: `agent::voice`). A model's words are said only when
//! every advisor name and figure in them is in the turn's results, the page
//! or code's own reply (`agent::facts`); otherwise code's words are said and
//! the reply carries a `degraded` event. Code speaks from the results when
//! no planner did (the `Narrator` below).
//!
//! Spoken replies composed by code from what a turn actually did: used for
//! chip clicks (no planner runs) and whenever a planner leaves the reply to
//! code. Every sentence comes from `prompts/embedded/replies.txt`.
//!
//! This is the top of the reply side: it reads the tools' results by the
//! names and types of [`crate::agent::tools`], says schools and majors in the short
//! forms of [`crate::agent::spoken_names`], and leaves a place question's answer to
//! [`crate::agent::about_place`]; none of them imports anything from here.

use super::{Answer, Turn, Words};
use crate::agent::about_place::{self, PlaceWords};
use crate::agent::spoken_names::SpokenNames;
use crate::agent::tools::{
    PlaceResult, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS, GET_PLACE_FACTS,
    GET_STATISTICS, PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_RANKING,
};
use crate::agent::{facts, DEGRADED};
use crate::catalog::Catalog;
use crate::text::templates::Templates;
use crate::voice;
use app::model::{
    AdvisorDetail, Comparison, DimensionAverages, RankingPage, RankingStats, RecommendResult,
    ReviewsResult,
};
use app::protocol::AgentEvent;
use app::protocol::{ToolCall, UserForm};
use serde_json::Value;

fn result<T: serde::de::DeserializeOwned>(calls: &[ToolCall], tool: &str) -> Option<T> {
    calls
        .iter()
        .find(|c| c.tool == tool)
        .and_then(|c| c.result.clone())
        .and_then(|v| serde_json::from_value(v).ok())
}

/// "学生评价很好" for an average of reviews.
pub fn level(average: f64) -> &'static str {
    match average {
        a if a >= 4.3 => "很好",
        a if a >= 3.8 => "不错",
        a if a >= 3.0 => "一般",
        _ => "偏低",
    }
}

pub struct Narrator<'a> {
    pub templates: &'a Templates,
    pub names: &'a SpokenNames,
    pub catalog: &'a Catalog,
    pub place_words: &'a PlaceWords,
}

impl Narrator<'_> {
    /// The reply for what the executed `calls` did, given the form after the turn.
    pub fn narrate(&self, calls: &[ToolCall], form: &UserForm, turn: u32) -> String {
        let t = |key: &str, vars: &[(&str, &str)]| self.templates.render(key, turn, vars);
        if let Some(rec) = result::<RecommendResult>(calls, RECOMMEND_ADVISORS) {
            return self.recommendation(&rec, turn);
        }
        // What the student asked for comes before the ranking it may bring along.
        if let Some(c) = result::<Comparison>(calls, COMPARE_ADVISORS) {
            return self.comparison(&c, turn);
        }
        if let Some(place) = result::<PlaceResult>(calls, GET_PLACE_FACTS) {
            return about_place::speak(
                &place,
                calls,
                self.place_words,
                self.names,
                self.catalog,
                self.templates,
                turn,
            );
        }
        if let Some(stats) = result::<RankingStats>(calls, GET_STATISTICS) {
            let call = calls.iter().find(|c| c.tool == GET_STATISTICS);
            let name = |k: &str| {
                call.and_then(|c| c.result.as_ref())
                    .and_then(|r| r.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            return self.statistics(&stats, &name("school"), &name("major"), turn);
        }
        let chips = calls.iter().find(|c| c.tool == PRESENT_OPTIONS);
        let chip_field = chips
            .and_then(|c| c.params.get("target_field"))
            .and_then(Value::as_str);
        if let Some(page) = result::<RankingPage>(calls, UPDATE_RANKING) {
            let vars = self.pair_vars(&page.school, &page.major);
            let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
            if page.advisors.is_empty() {
                return t("list_empty", &[]);
            }
            return match chip_field {
                Some("research_direction") | Some("personality") => t("ranking_ready_offer", &vars),
                _ => t("ranking_ready", &vars),
            };
        }
        if let Some(d) = result::<AdvisorDetail>(calls, GET_ADVISOR_DETAIL) {
            return t("detail_open", &[("name", &d.name), ("title", &d.title)]);
        }
        if let Some(r) = result::<ReviewsResult>(calls, GET_ADVISOR_REVIEWS) {
            return self.reviews(&r, calls, turn);
        }
        match chip_field {
            Some("school") => match &form.major {
                Some(m) => t("ask_school", &[("major", m)]),
                None => t("ask_school_major", &[]),
            },
            Some("major") => t(
                "ask_major",
                &[("school", form.school.as_deref().unwrap_or_default())],
            ),
            Some("personality") => t("ask_personality", &[]),
            _ if form.status().is_complete => t("fallback_with_form", &[]),
            _ => t("fallback", &[]),
        }
    }

    /// `{school}`, `{major}`, `{school_short}`, `{major_short}` of a pair.
    pub fn pair_vars(&self, school: &str, major: &str) -> Vec<(&'static str, String)> {
        let spoken = self.names.major(major);
        vec![
            ("school", school.to_string()),
            ("major", spoken.clone()),
            (
                "school_short",
                self.names.school_short(self.catalog, school),
            ),
            ("major_short", spoken),
        ]
    }

    pub fn recommendation(&self, rec: &RecommendResult, turn: u32) -> String {
        let Some(first) = rec.advisors.first() else {
            return self.templates.render("recommend_none", turn, &[]);
        };
        let reason = first
            .reasons
            .iter()
            .take(2)
            .cloned()
            .collect::<Vec<_>>()
            .join("，");
        let reason = if reason.is_empty() {
            "综合评价最好".to_string()
        } else {
            reason
        };
        self.templates.render(
            "recommend",
            turn,
            &[
                ("name", &first.name),
                ("title", &first.title),
                ("reason", &reason),
            ],
        )
    }

    /// The difference in one sentence: what each of the first two advisors
    /// leads on by the widest margin ("张三师生关系更好，李四经费更充足"), or
    /// that one leads on everything. More than two: the best overall, and
    /// what the runner-up leads on.
    pub fn comparison(&self, c: &Comparison, turn: u32) -> String {
        let t = |key: &str, vars: &[(&str, &str)]| self.templates.render(key, turn, vars);
        if let Some(quiet) = c.advisors.iter().find(|a| a.averages.is_none()) {
            return t("compare_no_reviews", &[("name", &quiet.name)]);
        }
        let scored: Vec<(&AdvisorDetail, &DimensionAverages)> = c
            .advisors
            .iter()
            .filter_map(|a| a.averages.as_ref().map(|av| (a, av)))
            .collect();
        if scored.len() < 2 {
            return t("compare_which", &[]);
        }
        let mut by_score = scored.clone();
        by_score.sort_by(|x, y| y.0.score.total_cmp(&x.0.score));
        let (a, b) = if scored.len() == 2 {
            (scored[0], scored[1])
        } else {
            (by_score[0], by_score[1])
        };
        // Each advisor's clearest lead over the other: (margin, phrase key).
        let lead = |x: &DimensionAverages, y: &DimensionAverages| {
            DIMENSIONS
                .iter()
                .map(|(key, get)| (get(x) - get(y), *key))
                .filter(|(margin, _)| *margin >= 0.05)
                .max_by(|p, q| p.0.total_cmp(&q.0))
        };
        let phrase = |key: &str| t(&format!("compare_lead_{key}"), &[]);
        let first = if scored.len() == 2 {
            "compare_two"
        } else {
            "compare_many"
        };
        match (lead(a.1, b.1), lead(b.1, a.1)) {
            (Some((_, ka)), Some((_, kb))) => t(
                first,
                &[
                    ("a", &a.0.name),
                    ("lead_a", &phrase(ka)),
                    ("b", &b.0.name),
                    ("lead_b", &phrase(kb)),
                ],
            ),
            (Some((_, k)), None) => t(
                "compare_sweep",
                &[("a", &a.0.name), ("b", &b.0.name), ("lead_a", &phrase(k))],
            ),
            (None, Some((_, k))) => t(
                "compare_sweep",
                &[("a", &b.0.name), ("b", &a.0.name), ("lead_a", &phrase(k))],
            ),
            (None, None) => t("compare_even", &[("a", &a.0.name), ("b", &b.0.name)]),
        }
    }

    /// The figures of a school + major, briefly.
    pub fn statistics(&self, s: &RankingStats, school: &str, major: &str, turn: u32) -> String {
        let vars = self.pair_vars(school, major);
        let get = |k: &str| {
            vars.iter()
                .find(|(key, _)| *key == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let (Some(avg), Some(most)) = (s.average, s.most_reviewed.as_ref()) else {
            return self.templates.render(
                "stats_none",
                turn,
                &[
                    ("school_short", &get("school_short")),
                    ("major", &get("major")),
                ],
            );
        };
        self.templates.render(
            "stats_summary",
            turn,
            &[
                ("school_short", &get("school_short")),
                ("major", &get("major")),
                ("advisors", &s.advisors.to_string()),
                ("reviews", &s.reviews.to_string()),
                ("average", &format!("{avg:.1}")),
                ("most", &most.name),
            ],
        )
    }

    fn reviews(&self, r: &ReviewsResult, calls: &[ToolCall], turn: u32) -> String {
        let name = calls
            .iter()
            .find(|c| c.tool == GET_ADVISOR_REVIEWS)
            .and_then(|c| c.params.get("advisor_name"))
            .and_then(Value::as_str)
            .unwrap_or("这位导师")
            .to_string();
        match r.page.average {
            Some(avg) if r.count > 0 => self.templates.render(
                "reviews_summary",
                turn,
                &[
                    ("name", &name),
                    ("level", level(avg)),
                    ("average", &format!("{avg:.1}")),
                    ("count", &r.count.to_string()),
                ],
            ),
            _ => self
                .templates
                .render("reviews_none", turn, &[("name", &name)]),
        }
    }
}

/// The four dimensions, by the template suffix that phrases a lead on them.
type Dimension = (&'static str, fn(&DimensionAverages) -> f64);
const DIMENSIONS: [Dimension; 4] = [
    ("academic", |d| d.academic),
    ("funding", |d| d.funding),
    ("relationship", |d| d.relationship),
    ("prospects", |d| d.prospects),
];

/// What the step reads besides the turn: code's words for what the turn
/// did, and what a model's words are checked against.
pub(super) struct Deps<'a> {
    pub narrator: Narrator<'a>,
    /// The tools' names, never spoken.
    pub tool_names: &'a [String],
    /// For telling advisor names in a model's words.
    pub surnames: &'a facts::Surnames,
}

impl Deps<'_> {
    pub(super) fn run(&self, t: &mut Turn<'_>) -> Answer {
        let mut spoken = voice::clean(&t.plan().voice_response, self.tool_names);
        if let Words::Model { fallback, about } = &t.proposed.words {
            let mut grounding = facts::Grounding::default();
            for call in &t.proposed.executed {
                grounding.add_json(&call.params);
                if let Some(result) = &call.result {
                    grounding.add_json(result);
                }
            }
            match about {
                Some(name) => grounding.add_text(name),
                None => grounding.add_page(&t.input.page),
            }
            grounding.add_figures(fallback);
            let claims =
                facts::unsupported(&spoken, &grounding, &t.understood.known, self.surnames);
            if !claims.is_empty() {
                tracing::warn!(
                    ?claims,
                    "the model's reply states what the data does not; code narrates"
                );
                let mut data = serde_json::Map::new();
                data.insert("reason".into(), "unsupported_facts".into());
                data.insert("claims".into(), claims.into());
                t.reply.event(AgentEvent {
                    kind: DEGRADED.into(),
                    data,
                });
                spoken = voice::clean(fallback, self.tool_names);
            }
        }
        if t.understood.chip.is_some() && t.proposed.executed.is_empty() {
            spoken = self
                .narrator
                .templates
                .render("skip_ack", t.input.session.memory.turns, &[]);
        }
        Answer::says(if spoken.trim().is_empty() {
            self.narrator
                .narrate(&t.proposed.executed, t.form(), t.memory().turns)
        } else {
            spoken
        })
    }
}
