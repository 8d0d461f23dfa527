//! Form filling for the embedded planner: which form fields a message names,
//! chips when a school or major is ambiguous or offered as alternatives, and
//! the reply when something could not be used (an unknown school, a field put
//! off, only exclusions). Kept apart from the planner's dispatch because it
//! changes with the form's fields, not with the acts.

use serde_json::{json, Map, Value};

use app::protocol::ToolCall;

use super::EmbeddedPlanner;
use crate::agent::form::Phase;
use crate::agent::nlu::{Analysis, Slot};
use crate::agent::planner::PlanInput;
use crate::agent::tools::chip_call;

impl EmbeddedPlanner {
    /// The alternatives the student offered, at most four (what a chip row
    /// holds and a voice can say).
    pub(super) fn not_rejected(&self, names: &[String], a: &Analysis) -> Vec<String> {
        names
            .iter()
            .filter(|n| !a.rejected.contains(n))
            .take(4)
            .cloned()
            .collect()
    }

    /// Chips and a question for a name heard only by sound (`Slot::Heard`):
    /// "你说的是复旦大学吗？" for one candidate, "是哪一所？" for several.
    fn heard(
        &self,
        said: &str,
        candidates: &[String],
        field: &str,
        turn: u32,
    ) -> (Option<ToolCall>, Option<String>) {
        let list: Vec<String> = candidates.iter().take(4).cloned().collect();
        let (title, key) = match (field, list.len()) {
            ("school", 1) => ("是这所学校吗？", "heard_one"),
            ("school", _) => ("是哪一所？", "heard_school"),
            (_, 1) => ("是这个专业吗？", "heard_one"),
            _ => ("是哪个专业？", "heard_major"),
        };
        let voice = self.say(
            key,
            turn,
            &[
                ("said", said),
                ("name", &list[0]),
                ("list", &list.join("、")),
            ],
        );
        (Some(chip_call(title, list, field)), Some(voice))
    }

    /// The form fields the message names, chips for ambiguous ones, and a
    /// reply when something could not be used.
    pub(super) fn slots(
        &self,
        a: &Analysis,
        input: &PlanInput<'_>,
    ) -> (Map<String, Value>, Option<ToolCall>, Option<String>) {
        let mut fields = Map::new();
        let mut chips = None;
        let mut voice = None;
        let turn = input.turn;
        match &a.school {
            Some(Slot::One(s)) if !a.rejected.contains(s) => {
                fields.insert("school".into(), json!(s));
            }
            Some(Slot::Ambiguous { said, candidates }) => {
                chips = Some(chip_call(
                    &format!("哪所{said}？"),
                    candidates.iter().take(6).cloned().collect(),
                    "school",
                ));
                voice = Some(self.say("ambiguous_school", turn, &[("said", said)]));
            }
            // "北大或者清华都行": which first is the student's choice.
            Some(Slot::Either(names)) => {
                let names = self.not_rejected(names, a);
                chips = Some(chip_call("先看哪一所？", names.clone(), "school"));
                voice = Some(self.say("either_school", turn, &[("list", &names.join("、"))]));
            }
            Some(Slot::Heard { said, candidates }) => {
                (chips, voice) = self.heard(said, candidates, "school", turn);
            }
            _ => {}
        }
        match &a.major {
            Some(Slot::One(m)) if !a.rejected.contains(m) => {
                fields.insert("major".into(), json!(m));
            }
            Some(Slot::Ambiguous { said, candidates }) if chips.is_none() => {
                // The school may settle it: keep only the majors it offers.
                let catalog = self.site.catalog();
                let school_name = fields
                    .get("school")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| input.form.school.clone());
                let school = school_name
                    .as_deref()
                    .and_then(|s| catalog.resolve_school(s).found());
                let offered: Vec<String> = candidates
                    .iter()
                    .filter(|m| {
                        school.is_none_or(|s| {
                            catalog
                                .resolve_major(m)
                                .found()
                                .is_some_and(|mm| catalog.advisor_count(s.id, mm.id) > 0)
                        })
                    })
                    .cloned()
                    .collect();
                match offered.as_slice() {
                    [only] => {
                        fields.insert("major".into(), json!(only));
                    }
                    _ => {
                        let list = if offered.len() >= 2 {
                            offered
                        } else {
                            candidates.clone()
                        };
                        chips = Some(chip_call(
                            "哪个专业？",
                            list.into_iter().take(6).collect(),
                            "major",
                        ));
                        voice = Some(self.say("ambiguous_major", turn, &[("said", said)]));
                    }
                }
            }
            Some(Slot::Either(names)) if chips.is_none() => {
                let names = self.not_rejected(names, a);
                chips = Some(chip_call("先看哪个专业？", names.clone(), "major"));
                voice = Some(self.say("either_major", turn, &[("list", &names.join("、"))]));
            }
            Some(Slot::Heard { said, candidates }) if chips.is_none() => {
                (chips, voice) = self.heard(said, candidates, "major", turn);
            }
            _ => {}
        }
        if let Some(d) = &a.research_direction {
            fields.insert("research_direction".into(), json!(d));
        }
        let mut prefs = Map::new();
        for (key, value) in [
            ("personality", &a.personality),
            ("research_style", &a.research_style),
            ("funding", &a.funding),
        ] {
            if let Some(v) = value {
                prefs.insert(key.into(), json!(v));
            }
        }
        if !prefs.is_empty() {
            fields.insert("preferences".into(), Value::Object(prefs));
        }
        if let Some(d) = &a.degree_type {
            fields.insert("degree_type".into(), json!(d));
        }
        if let Some(y) = &a.enrollment_year {
            fields.insert("enrollment_year".into(), json!(y));
        }
        if voice.is_none() {
            let school_known = fields.contains_key("school") || input.form.school.is_some();
            if let Some(s) = &a.unknown_school {
                if !fields.contains_key("school") {
                    voice = Some(self.say("unknown_school", turn, &[("school", s)]));
                }
            } else if let Some(m) = &a.unknown_major {
                if !fields.contains_key("major") {
                    voice = Some(
                        match (
                            school_known,
                            fields
                                .get("school")
                                .and_then(Value::as_str)
                                .or(input.form.school.as_deref()),
                        ) {
                            (true, Some(s)) => {
                                self.say("unknown_major", turn, &[("school", s), ("major", m)])
                            }
                            _ => self.say("unknown_major_no_school", turn, &[("major", m)]),
                        },
                    );
                }
            } else if fields.is_empty() && !a.rejected.is_empty() {
                voice = Some(self.rejected_voice(&a.rejected, input));
            }
        }
        // "计算机，学校再说": the field put off is not pressed for this turn.
        if voice.is_none() {
            let named = |k: &str, form: &Option<String>| {
                fields
                    .get(k)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or_else(|| form.clone())
            };
            let school = named("school", &input.form.school);
            let major = named("major", &input.form.major);
            match (school, major) {
                (None, Some(m)) if a.postponed.contains(&"school") => {
                    voice = Some(self.say(
                        "postponed_school",
                        turn,
                        &[("major", &self.names.major(&m))],
                    ));
                }
                (Some(s), None) if a.postponed.contains(&"major") => {
                    voice = Some(self.say("postponed_major", turn, &[("school", &s)]));
                }
                _ => {}
            }
        }
        (fields, chips, voice)
    }

    /// "好的，不做机器学习方向。你希望导师是什么风格呢？": what the student
    /// excluded, said as what it is, then the question of what the form
    /// actually lacks (the phase code steers to; the form here is already
    /// without the excluded values).
    pub(super) fn rejected_voice(&self, rejected: &[String], input: &PlanInput<'_>) -> String {
        let catalog = self.site.catalog();
        let said: Vec<String> = rejected
            .iter()
            .map(|v| {
                if catalog.resolve_school(v).found().is_some() {
                    format!("不考{v}")
                } else if catalog.resolve_major(v).found().is_some() {
                    format!("不考{v}专业")
                } else if app::vocabulary::FUNDINGS.contains(&v.as_str()) {
                    format!("不要经费{v}的")
                } else if app::vocabulary::PERSONALITIES.contains(&v.as_str())
                    || app::vocabulary::STYLES.contains(&v.as_str())
                {
                    format!("不要{v}的导师")
                } else {
                    format!("不做{v}方向")
                }
            })
            .collect();
        let next = match crate::agent::form::phase(input.form, input.memory) {
            Phase::AskSchool => "next_school",
            Phase::AskMajor => "next_major",
            Phase::OfferDirection => "next_direction",
            Phase::OfferPersonality => "next_personality",
            Phase::OfferDegree => "next_degree",
            Phase::OfferYear => "next_year",
            Phase::Done => "next_done",
        };
        let next = self.say(next, input.turn, &[]);
        self.say(
            "rejected_only",
            input.turn,
            &[("what", &said.join("，")), ("next", &next)],
        )
    }

    /// A reply about the form after preferences arrived without school/major.
    pub(super) fn pending_form_voice(
        &self,
        fields: &Map<String, Value>,
        input: &PlanInput<'_>,
    ) -> Option<String> {
        let has_pair = fields.contains_key("school") || fields.contains_key("major");
        let complete_after = (fields.contains_key("school") || input.form.school.is_some())
            && (fields.contains_key("major") || input.form.major.is_some());
        if has_pair || complete_after {
            return None;
        }
        let mut what: Vec<String> = Vec::new();
        if let Some(d) = fields.get("research_direction").and_then(Value::as_str) {
            what.push(d.to_string());
        }
        if let Some(p) = fields.get("preferences").and_then(Value::as_object) {
            what.extend(p.values().filter_map(Value::as_str).map(|v| {
                if v == "充足" || v == "一般" || v == "紧张" {
                    format!("经费{v}")
                } else {
                    v.to_string()
                }
            }));
        }
        (!what.is_empty())
            .then(|| self.say("pref_needs_form", input.turn, &[("what", &what.join("、"))]))
    }
}
