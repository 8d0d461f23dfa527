//! Everything a planner proposes is checked here before anything runs, the
//! same way for the embedded planner and for a language model: unknown tools
//! are dropped, school and major become canonical names from the database (an
//! ambiguous one becomes a question with chips), preference values must be
//! known ones, an advisor id must exist, and chips must be well formed. A
//! tool the registry marks `consequential` is kept only when code's
//! speech-act verdict authorised its action this turn (issue 16): no
//! planner performs one on its own.

use serde_json::{json, Map, Value};

use app::protocol::{PageContext, ToolCall, UserForm};

use super::tools::{
    chip_call, param, ToolRegistry, COMPARE_ADVISORS, GET_ADVISOR_DETAIL, GET_ADVISOR_REVIEWS,
    GET_PLACE_FACTS, GET_STATISTICS, PRESENT_OPTIONS, RECOMMEND_ADVISORS, UPDATE_FORM,
    UPDATE_RANKING,
};
use crate::agent::nlu::enrollment::current_year;
use crate::catalog::{Catalog, Resolution};
use crate::site::Site;
use crate::speech_act::Action;
use app::vocabulary::{preference_values, DEGREES, FORM_FIELDS, MAX_DIRECTION_CHARS};

/// Whether chips may target this field: a form field, or `general` (a chip
/// sent on as if typed).
pub fn is_chip_field(field: &str) -> bool {
    field == "general" || FORM_FIELDS.contains(&field)
}

/// A form field of `update_form` parameters, at the top level or (for the
/// preferences) under `preferences`, as the protocol nests them.
pub fn form_param<'a>(params: &'a Value, field: &str) -> Option<&'a str> {
    params
        .get(field)
        .or_else(|| params.get("preferences").and_then(|p| p.get(field)))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Why a proposed call was changed or dropped (logged, and counted by the eval).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    pub tool: String,
    pub what: String,
}

/// Normalises one preference value to the form's vocabulary.
pub fn preference_value(field: &str, value: &str) -> Option<String> {
    let v = value.trim().trim_end_matches(['的', '些']);
    let allowed = preference_values(field)?;
    if let Some(hit) = allowed.iter().find(|a| **a == v) {
        return Some(hit.to_string());
    }
    // "理论" for "理论型", "经费充足" for "充足".
    allowed
        .iter()
        .find(|a| v.contains(**a) || (v.chars().count() >= 2 && a.starts_with(v)))
        .map(|a| a.to_string())
}

/// A research direction as the form stores it: trimmed, bounded, not empty.
pub fn direction_value(value: &str) -> Option<String> {
    let v: String = value.trim().chars().take(MAX_DIRECTION_CHARS).collect();
    (!v.is_empty()).then_some(v)
}

pub struct Validator<'a> {
    pub site: &'a Site,
    pub registry: &'a ToolRegistry,
    /// The consequential actions code's verdict allows this turn.
    pub authorised: &'a [Action],
}

impl Validator<'_> {
    fn catalog(&self) -> &Catalog {
        self.site.catalog()
    }

    /// Validates the proposed calls against the form as it stands before
    /// this turn and the page the student sees. Returns the calls to keep
    /// and what was corrected.
    pub async fn validate(
        &self,
        proposed: Vec<ToolCall>,
        form: &UserForm,
        page: &PageContext,
    ) -> (Vec<ToolCall>, Vec<Correction>) {
        let mut kept = Vec::new();
        let mut corrections = Vec::new();
        let mut fix = |tool: &str, what: String| {
            corrections.push(Correction {
                tool: tool.to_string(),
                what,
            })
        };
        // The school a later call in this turn refers to, once update_form set it.
        let mut school_now = form.school.clone();
        for call in proposed {
            let Some(spec) = self.registry.get(&call.tool) else {
                fix(&call.tool, "未注册的工具，已忽略".into());
                continue;
            };
            if spec.consequential && !spec.action().is_some_and(|a| self.authorised.contains(&a)) {
                fix(&call.tool, "有后果的操作，学生没有明确要求，已忽略".into());
                continue;
            }
            match call.tool.as_str() {
                UPDATE_FORM => {
                    let (params, chips, notes) =
                        self.form_params(&call.params, school_now.as_deref());
                    for n in notes {
                        fix(UPDATE_FORM, n);
                    }
                    if let Some(s) = params.get("school").and_then(Value::as_str) {
                        school_now = Some(s.to_string());
                    }
                    if !params.is_empty() {
                        kept.push(ToolCall {
                            tool: UPDATE_FORM.into(),
                            params: Value::Object(params),
                            result: None,
                        });
                    }
                    if let Some(c) = chips {
                        kept.push(c);
                    }
                }
                UPDATE_RANKING | RECOMMEND_ADVISORS | GET_STATISTICS => {
                    let school = param(&call, "school")
                        .map(str::to_string)
                        .or_else(|| school_now.clone());
                    let major = param(&call, "major")
                        .map(str::to_string)
                        .or_else(|| form.major.clone());
                    let resolved = school
                        .as_deref()
                        .and_then(|s| self.catalog().resolve_school(s).found())
                        .and_then(|s| {
                            let m = major.as_deref()?;
                            match self.catalog().resolve_major_at(s.id, m) {
                                Resolution::Found(m)
                                    if self.catalog().advisor_count(s.id, m.id) > 0 =>
                                {
                                    Some((s.name.clone(), m.name.clone()))
                                }
                                _ => None,
                            }
                        });
                    let Some((school, major)) = resolved else {
                        fix(&call.tool, "学校或专业无法确定，已忽略".into());
                        continue;
                    };
                    let mut params = call.params.as_object().cloned().unwrap_or_default();
                    params.insert("school".into(), json!(school));
                    params.insert("major".into(), json!(major));
                    kept.push(ToolCall {
                        tool: call.tool,
                        params: Value::Object(params),
                        result: None,
                    });
                }
                // A school or a major in general: canonical names, at least
                // one; nothing of the form is read or written.
                GET_PLACE_FACTS => {
                    let catalog = self.catalog();
                    let school = param(&call, "school")
                        .and_then(|s| catalog.resolve_school(s).found())
                        .map(|s| s.name.clone());
                    let major = param(&call, "major")
                        .and_then(|m| catalog.resolve_major(m).found())
                        .map(|m| m.name.clone());
                    if school.is_none() && major.is_none() {
                        fix(&call.tool, "学校和专业都无法确定，已忽略".into());
                        continue;
                    }
                    let topic = match param(&call, "topic") {
                        Some("jobs") => "jobs",
                        _ => "general",
                    };
                    kept.push(ToolCall {
                        tool: call.tool,
                        params: json!({"school": school, "major": major, "topic": topic}),
                        result: None,
                    });
                }
                GET_ADVISOR_DETAIL | GET_ADVISOR_REVIEWS => {
                    match self.advisor_ref(&call, page).await {
                        Some((id, name)) => {
                            let mut params = Map::new();
                            params.insert("advisor_id".into(), json!(id));
                            params.insert("advisor_name".into(), json!(name));
                            kept.push(ToolCall {
                                tool: call.tool,
                                params: Value::Object(params),
                                result: None,
                            });
                        }
                        None => fix(&call.tool, "导师 id 不存在，已忽略".into()),
                    }
                }
                COMPARE_ADVISORS => {
                    let advisors = self.compared(&call.params, page).await;
                    if (2..=4).contains(&advisors.len()) {
                        let (ids, names): (Vec<String>, Vec<String>) = advisors.into_iter().unzip();
                        kept.push(ToolCall {
                            tool: call.tool,
                            params: json!({"advisor_ids": ids, "advisor_names": names}),
                            result: None,
                        });
                    } else {
                        fix(
                            COMPARE_ADVISORS,
                            "可对比的导师不足 2 位或超过 4 位，已忽略".into(),
                        );
                    }
                }
                PRESENT_OPTIONS => match present_options(&call.params) {
                    Some(params) => kept.push(ToolCall {
                        tool: call.tool,
                        params,
                        result: None,
                    }),
                    None => fix(PRESENT_OPTIONS, "选项格式不正确，已忽略".into()),
                },
                _ => kept.push(call),
            }
        }
        (kept, corrections)
    }

    /// The fields of an `update_form` call that survive validation, chips for
    /// an ambiguous school or major, and notes on what was dropped.
    fn form_params(
        &self,
        raw: &Value,
        school_before: Option<&str>,
    ) -> (Map<String, Value>, Option<ToolCall>, Vec<String>) {
        let mut out = Map::new();
        let mut notes = Vec::new();
        let mut chips = None;
        let get = |k: &str| form_param(raw, k);
        let mut school_id = school_before
            .and_then(|s| self.catalog().resolve_school(s).found())
            .map(|s| s.id);
        if let Some(s) = get("school") {
            match self.catalog().resolve_school(s) {
                Resolution::Found(school) => {
                    out.insert("school".into(), json!(school.name));
                    school_id = Some(school.id);
                }
                Resolution::Ambiguous(list) => {
                    chips = Some(chip_call(
                        &format!("你说的是哪所{}？", s),
                        list.iter().take(6).map(|x| x.name.clone()).collect(),
                        "school",
                    ));
                    notes.push(format!("学校“{s}”有歧义，改为提问"));
                }
                Resolution::Unknown => notes.push(format!("未收录的学校“{s}”，已忽略")),
            }
        }
        if let Some(m) = get("major") {
            let resolution = match school_id {
                Some(id) => self.catalog().resolve_major_at(id, m),
                None => self.catalog().resolve_major(m),
            };
            match resolution {
                Resolution::Found(major) => {
                    let offered =
                        school_id.is_none_or(|id| self.catalog().advisor_count(id, major.id) > 0);
                    if offered {
                        out.insert("major".into(), json!(major.name));
                    } else {
                        notes.push(format!("该校没有“{}”专业，已忽略", major.name));
                    }
                }
                Resolution::Ambiguous(list) if chips.is_none() => {
                    chips = Some(chip_call(
                        "你说的是哪个专业？",
                        list.iter().take(6).map(|x| x.name.clone()).collect(),
                        "major",
                    ));
                    notes.push(format!("专业“{m}”有歧义，改为提问"));
                }
                _ => notes.push(format!("未收录的专业“{m}”，已忽略")),
            }
        }
        if let Some(d) = get("research_direction").and_then(direction_value) {
            out.insert("research_direction".into(), json!(d));
        }
        let mut prefs = Map::new();
        for field in ["personality", "research_style", "funding"] {
            if let Some(v) = get(field) {
                match preference_value(field, v) {
                    Some(v) => {
                        prefs.insert(field.into(), json!(v));
                    }
                    None => notes.push(format!("{field} 的取值“{v}”不在可选范围内，已忽略")),
                }
            }
        }
        if !prefs.is_empty() {
            out.insert("preferences".into(), Value::Object(prefs));
        }
        if let Some(v) = get("degree_type") {
            match degree_value(v) {
                Some(v) => {
                    out.insert("degree_type".into(), json!(v));
                }
                None => notes.push(format!("学位类型“{v}”不在可选范围内，已忽略")),
            }
        }
        if let Some(v) = get("enrollment_year") {
            match year_value(v, current_year()) {
                Some(v) => {
                    out.insert("enrollment_year".into(), json!(v));
                }
                None => notes.push(format!("入学年份“{v}”不合理，已忽略")),
            }
        }
        (out, chips, notes)
    }

    /// The (id, name) an advisor call refers to: a known id, or else a name
    /// that is on the page or unique in the database.
    async fn advisor_ref(&self, call: &ToolCall, page: &PageContext) -> Option<(String, String)> {
        self.advisor(param(call, "advisor_id"), param(call, "advisor_name"), page)
            .await
    }

    /// The advisors of a comparison: its ids that exist, then its names
    /// (resolved like [`Self::advisor_ref`]), each once, in order.
    async fn compared(&self, params: &Value, page: &PageContext) -> Vec<(String, String)> {
        let list = |key: &str| -> Vec<String> {
            params
                .get(key)
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .filter_map(|v| match v {
                            Value::String(s) => Some(s.trim().to_string()),
                            Value::Number(n) => Some(n.to_string()),
                            _ => None,
                        })
                        .filter(|s| !s.is_empty())
                        .take(8)
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut out: Vec<(String, String)> = Vec::new();
        for id in list("advisor_ids") {
            if let Some(a) = self.advisor(Some(&id), None, page).await {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        for name in list("advisor_names") {
            if out.iter().any(|(_, n)| n == &name) {
                continue;
            }
            if let Some(a) = self.advisor(None, Some(&name), page).await {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out
    }

    async fn advisor(
        &self,
        id: Option<&str>,
        name: Option<&str>,
        page: &PageContext,
    ) -> Option<(String, String)> {
        if let Some(id) = id {
            if let Ok(Some(row)) = self.site.advisor_row(id).await {
                return Some((row.id.to_string(), row.name));
            }
        }
        let name = name?;
        if let Some(a) = page.visible_advisors.iter().find(|a| a.name == name) {
            return Some((a.id.clone(), a.name.clone()));
        }
        match self
            .site
            .advisors_named(name, None, None)
            .await
            .ok()?
            .as_slice()
        {
            [only] => Some((only.id.to_string(), only.name.clone())),
            _ => None,
        }
    }
}

/// 学硕 / 专硕 / 直博, from the value or a longer name of it ("专业硕士").
pub fn degree_value(value: &str) -> Option<String> {
    let v = value.trim();
    if let Some(d) = DEGREES.iter().find(|d| **d == v) {
        return Some(d.to_string());
    }
    crate::agent::nlu::enrollment::degree_of(v)
}

/// A four-digit enrollment year from this year up to four years ahead
/// ("2027", "2027年", "27").
pub fn year_value(value: &str, this_year: i32) -> Option<String> {
    let digits: String = value
        .trim()
        .trim_end_matches(['年', '级', '届'])
        .chars()
        .collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let year = match digits.len() {
        4 => digits.parse::<i32>().ok()?,
        2 => 2000 + digits.parse::<i32>().ok()?,
        _ => return None,
    };
    (this_year..=this_year + 4)
        .contains(&year)
        .then(|| year.to_string())
}

/// Seed 004's `present_options` schema: 2–4 options, a question of 5–10
/// characters — few enough to be read aloud and taken in at a glance.
pub const MIN_CHIPS: usize = 2;
pub const MAX_CHIPS: usize = 4;
pub const QUESTION_CHARS: std::ops::RangeInclusive<usize> = 5..=10;

/// The question of chips for `field` when a proposed one does not fit
/// [`QUESTION_CHARS`] (each is 5–10 characters; the tests hold them to it).
pub fn chip_question(field: &str) -> &'static str {
    match field {
        "school" => "想考哪所学校？",
        "major" => "想考哪个专业？",
        "research_direction" => "感兴趣的方向？",
        "personality" => "希望导师怎样？",
        "research_style" => "偏好哪种风格？",
        "funding" => "经费要求如何？",
        "degree_type" => "想读哪种学位？",
        "enrollment_year" => "打算哪年入学？",
        _ => "你想选哪个？",
    }
}

/// `question` if it fits seed 004's 5–10 characters, else `field`'s own.
pub fn fitted_question(question: &str, field: &str) -> String {
    let question = question.trim();
    if QUESTION_CHARS.contains(&question.chars().count()) {
        question.to_string()
    } else {
        chip_question(field).to_string()
    }
}

/// Well-formed chip parameters (seed 004): 2–4 distinct non-empty options of
/// at most 20 characters — where more are proposed, the first four, which a
/// proposer lists most likely first (a typed answer is still understood) —
/// a known target field, a question of 5–10 characters.
fn present_options(raw: &Value) -> Option<Value> {
    let mut options: Vec<String> = Vec::new();
    for o in raw.get("options")?.as_array()? {
        let o: String = o.as_str()?.trim().chars().take(20).collect();
        if !o.is_empty() && !options.contains(&o) {
            options.push(o);
        }
    }
    options.truncate(MAX_CHIPS);
    if options.len() < MIN_CHIPS {
        return None;
    }
    let target = raw
        .get("target_field")
        .and_then(Value::as_str)
        .unwrap_or("general");
    let target = if is_chip_field(target) {
        target
    } else {
        "general"
    };
    let question = fitted_question(
        raw.get("question")
            .and_then(Value::as_str)
            .unwrap_or_default(),
        target,
    );
    Some(json!({
        "question": question,
        "options": options,
        "target_field": target,
        "allow_skip": raw.get("allow_skip").and_then(Value::as_bool).unwrap_or(false),
        "multi_select": raw.get("multi_select").and_then(Value::as_bool).unwrap_or(false),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_values_are_normalised_or_refused() {
        assert_eq!(preference_value("personality", "温和"), Some("温和".into()));
        assert_eq!(
            preference_value("research_style", "理论"),
            Some("理论型".into())
        );
        assert_eq!(preference_value("funding", "经费充足"), Some("充足".into()));
        assert_eq!(preference_value("personality", "凶"), None);
        assert_eq!(preference_value("color", "红"), None);
    }

    #[test]
    fn chips_are_bounded_and_deduplicated() {
        let ok = present_options(&json!({
            "question": "选学校", "options": ["北大", "北大", "清华", "", "复旦", "上交", "浙大", "南大", "中科大"],
            "target_field": "school"
        }))
        .unwrap();
        assert_eq!(ok["options"].as_array().unwrap().len(), MAX_CHIPS);
        assert_eq!(ok["options"][1], "清华");
        assert_eq!(
            ok["question"], "想考哪所学校？",
            "3 characters: the field's own"
        );
        assert_eq!(ok["allow_skip"], false);
        assert!(present_options(
            &json!({"question": "x", "options": ["只有一个"], "target_field": "school"})
        )
        .is_none());
        let general =
            present_options(&json!({"options": ["a", "b"], "target_field": "password"})).unwrap();
        assert_eq!(general["target_field"], "general");
        assert_eq!(general["question"], "你想选哪个？");
        let long = present_options(&json!({
            "question": "请问你比较希望导师是哪一种性格呢？", "options": ["温和", "严格"],
            "target_field": "personality"
        }))
        .unwrap();
        assert_eq!(long["question"], "希望导师怎样？");
        let fits = present_options(&json!({
            "question": "喜欢哪类导师？", "options": ["温和", "严格"], "target_field": "personality"
        }))
        .unwrap();
        assert_eq!(fits["question"], "喜欢哪类导师？");
    }

    #[test]
    fn every_fallback_question_fits_seed_004() {
        for field in FORM_FIELDS.iter().copied().chain(["general"]) {
            let n = chip_question(field).chars().count();
            assert!(QUESTION_CHARS.contains(&n), "{field}: {n}");
        }
    }

    #[test]
    fn directions_are_trimmed_and_bounded() {
        assert_eq!(direction_value("  机器学习 "), Some("机器学习".into()));
        assert_eq!(direction_value(""), None);
        assert_eq!(
            direction_value(&"长".repeat(100)).unwrap().chars().count(),
            MAX_DIRECTION_CHARS
        );
    }
}
