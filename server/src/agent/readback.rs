//! Reading back what the agent holds ("我是哪个学校的 → 读取已加载的数据"):
//! "我刚才说的是哪个学校？", "你记下了我哪些要求？". The answer is the
//! form itself, read by code — no tool, no model, with or without one — so
//! it can never name a value the student did not give. A question that names
//! a field gets that field; any other gets everything held, in the form's
//! order, fitted to the spoken limit.

use app::protocol::UserForm;
use app::vocabulary::FORM_FIELDS;

use super::form::field_value;
use crate::text::lexfile;
use crate::text::templates::Templates;

const LEXICON: &str = include_str!("../../lexicons/read_back.txt");

/// The words that name each form field, and how the reply names it.
#[derive(Debug)]
pub struct ReadBack {
    /// (field, words), in the form's order.
    fields: Vec<(&'static str, Vec<String>)>,
    labels: Vec<(&'static str, String)>,
}

impl ReadBack {
    pub fn load() -> ReadBack {
        let entries = lexfile::parse("read_back.txt", LEXICON);
        let mut fields = Vec::new();
        let mut labels = Vec::new();
        for field in FORM_FIELDS {
            let words = entries
                .iter()
                .find(|e| e.key == *field)
                .map(|e| {
                    e.terms
                        .iter()
                        .map(|t| crate::catalog::normalize(t))
                        .collect()
                })
                .unwrap_or_default();
            fields.push((*field, words));
            let label = entries
                .iter()
                .find(|e| e.key == format!("label.{field}"))
                .and_then(|e| e.terms.first().cloned())
                .unwrap_or_else(|| panic!("read_back.txt: no label.{field}"));
            labels.push((*field, label));
        }
        ReadBack { fields, labels }
    }

    /// The fields a question names ("哪个学校" → school), in the form's order;
    /// empty when it names none (the whole form is read back).
    pub fn fields_asked(&self, normalized: &str) -> Vec<&'static str> {
        self.fields
            .iter()
            .filter(|(_, words)| words.iter().any(|w| normalized.contains(w.as_str())))
            .map(|(field, _)| *field)
            .collect()
    }

    fn label<'a>(&'a self, field: &'a str) -> &'a str {
        self.labels
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, l)| l.as_str())
            .unwrap_or(field)
    }

    /// The spoken answer: the fields asked for, else everything held.
    pub fn answer(
        &self,
        form: &UserForm,
        normalized: &str,
        templates: &Templates,
        turn: u32,
    ) -> String {
        let asked = self.fields_asked(normalized);
        if !asked.is_empty() {
            let (held, missing): (Vec<&str>, Vec<&str>) =
                asked.iter().partition(|f| field_value(form, f).is_some());
            let mut out = String::new();
            if !held.is_empty() {
                let said: Vec<String> = held
                    .iter()
                    .map(|f| {
                        format!(
                            "{}是{}",
                            self.label(f),
                            spoken_value(f, field_value(form, f).unwrap_or_default())
                        )
                    })
                    .collect();
                out.push_str(&templates.render(
                    "read_back_field",
                    turn,
                    &[("said", &said.join("，"))],
                ));
            }
            if !missing.is_empty() {
                let labels: Vec<&str> = missing.iter().map(|f| self.label(f)).collect();
                out.push_str(&templates.render(
                    "read_back_field_missing",
                    turn,
                    &[("fields", &labels.join("和"))],
                ));
            }
            return crate::voice::fit(&out);
        }
        let held: Vec<String> = FORM_FIELDS
            .iter()
            .filter_map(|f| field_value(form, f).map(|v| spoken_value(f, v)))
            .collect();
        if held.is_empty() {
            return templates.render("read_back_empty", turn, &[]);
        }
        let reply = templates.render("read_back", turn, &[("held", &held.join("，"))]);
        if crate::voice::len(&reply) <= crate::voice::MAX_CHARS {
            return reply;
        }
        // Too long to say whole: the values, cut at a clause.
        crate::voice::fit(&templates.render("read_back_short", turn, &[("held", &held.join("，"))]))
    }
}

/// A form value as it is said: "机器学习方向", "导师温和", "2027年入学".
fn spoken_value(field: &str, value: &str) -> String {
    use app::vocabulary as v;
    match field {
        v::DIRECTION => format!("{value}方向"),
        v::PERSONALITY => format!("导师{value}"),
        v::FUNDING => format!("经费{value}"),
        v::YEAR => format!("{value}年入学"),
        _ => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::Preferences;

    fn templates() -> Templates {
        Templates::parse(include_str!("../../../prompts/embedded/replies.txt"))
    }

    fn form() -> UserForm {
        UserForm {
            school: Some("北京大学".into()),
            major: Some("计算机科学与技术".into()),
            research_direction: Some("机器学习".into()),
            preferences: Preferences {
                personality: Some("温和".into()),
                ..Preferences::default()
            },
            ..UserForm::default()
        }
    }

    fn say(form: &UserForm, text: &str) -> String {
        ReadBack::load().answer(form, &crate::catalog::normalize(text), &templates(), 0)
    }

    #[test]
    fn a_named_field_is_read_back_alone() {
        let r = say(&form(), "我刚才说的是哪个学校？");
        assert!(r.contains("北京大学"), "{r}");
        assert!(!r.contains("计算机"), "{r}");
        let r = say(&form(), "我选的专业是什么");
        assert!(r.contains("计算机科学与技术"), "{r}");
        assert!(!r.contains("北京大学"), "{r}");
    }

    #[test]
    fn everything_held_when_no_field_is_named() {
        let r = say(&form(), "你记下了我哪些要求？");
        for v in ["北京大学", "计算机科学与技术", "机器学习", "温和"] {
            assert!(r.contains(v), "{v} missing: {r}");
        }
        assert!(crate::voice::len(&r) <= crate::voice::MAX_CHARS, "{r}");
    }

    #[test]
    fn a_missing_field_is_said_missing_never_invented() {
        let r = say(&form(), "我说的经费要求是什么");
        assert!(r.contains("经费"), "{r}");
        for v in FUNDINGS_SAID {
            assert!(!r.contains(v), "{r}");
        }
        let r = say(&UserForm::default(), "我刚才说了什么");
        assert!(!r.contains("北京"), "{r}");
        assert!(r.contains("还没"), "{r}");
    }

    const FUNDINGS_SAID: [&str; 3] = ["经费充足", "经费一般", "经费紧张"];

    #[test]
    fn every_field_has_a_label_and_words() {
        let rb = ReadBack::load();
        for f in FORM_FIELDS {
            assert_ne!(rb.label(f), *f);
            assert!(
                rb.fields.iter().any(|(x, w)| x == f && !w.is_empty()),
                "{f}"
            );
        }
    }
}
