//! Checks a chat request before anything happens: exactly one of `message`
//! and `option`, bounded sizes, a sane page context. A rejected request gets a
//! Chinese 4xx and changes nothing stored.

use app::error::ApiError;
use app::protocol::{ChatRequest, OptionClick};

use super::form::chips::is_chip_field;

/// The longest message accepted, in characters.
pub const MAX_MESSAGE_CHARS: usize = 500;
const MAX_OPTION_VALUES: usize = 6;
const MAX_OPTION_CHARS: usize = 50;
const MAX_VISIBLE_ADVISORS: usize = 200;
const MAX_NAME_CHARS: usize = 64;

/// What the student sent this turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Message(String),
    Option(OptionClick),
}

fn bad(code: &str, message: &str, field: &str) -> ApiError {
    ApiError::bad_request(code, message).with_field(field)
}

pub fn check(req: &ChatRequest) -> Result<Input, ApiError> {
    let ctx = &req.page_context;
    if ctx.visible_advisors.len() > MAX_VISIBLE_ADVISORS {
        return Err(bad(
            "invalid_page_context",
            "页面上下文中的导师过多。",
            "page_context",
        ));
    }
    let too_long = |s: &str| s.chars().count() > MAX_NAME_CHARS;
    if ctx
        .visible_advisors
        .iter()
        .any(|a| too_long(&a.id) || too_long(&a.name) || too_long(&a.title))
        || ctx
            .selected_advisor
            .as_ref()
            .is_some_and(|a| too_long(&a.id) || too_long(&a.name))
        || ctx
            .ranking_filters
            .as_ref()
            .is_some_and(|f| too_long(&f.school) || too_long(&f.major))
    {
        return Err(bad(
            "invalid_page_context",
            "页面上下文格式不正确。",
            "page_context",
        ));
    }
    match (&req.message, &req.option) {
        (Some(_), Some(_)) => Err(bad(
            "ambiguous_input",
            "message 和 option 只能提供一个。",
            "message",
        )),
        (None, None) => Err(bad(
            "missing_input",
            "请提供 message 或 option。",
            "message",
        )),
        (Some(m), None) => {
            let text = m.trim();
            if text.is_empty() {
                return Err(bad("empty_message", "消息不能为空。", "message"));
            }
            if text.chars().count() > MAX_MESSAGE_CHARS {
                return Err(bad(
                    "message_too_long",
                    &format!("消息太长了，请控制在 {MAX_MESSAGE_CHARS} 字以内。"),
                    "message",
                ));
            }
            Ok(Input::Message(text.to_string()))
        }
        (None, Some(o)) => {
            if !is_chip_field(&o.target_field) {
                return Err(bad("invalid_option", "选项对应的字段不存在。", "option"));
            }
            let values: Vec<String> = o.values.iter().map(|v| v.trim().to_string()).collect();
            if values.len() > MAX_OPTION_VALUES
                || values
                    .iter()
                    .any(|v| v.is_empty() || v.chars().count() > MAX_OPTION_CHARS)
            {
                return Err(bad("invalid_option", "选项内容不正确。", "option"));
            }
            if o.target_field == "general" && values.is_empty() {
                return Err(bad("invalid_option", "选项内容不正确。", "option"));
            }
            Ok(Input::Option(OptionClick {
                target_field: o.target_field.clone(),
                values,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::{PageContext, VisibleAdvisor};

    fn msg(m: &str) -> ChatRequest {
        ChatRequest {
            message: Some(m.into()),
            ..ChatRequest::default()
        }
    }

    fn code(r: Result<Input, ApiError>) -> String {
        r.unwrap_err().info.code
    }

    #[test]
    fn exactly_one_of_message_and_option() {
        assert_eq!(
            check(&msg(" 你好 ")).unwrap(),
            Input::Message("你好".into())
        );
        assert_eq!(code(check(&ChatRequest::default())), "missing_input");
        let both = ChatRequest {
            option: Some(OptionClick {
                target_field: "school".into(),
                values: vec!["北京大学".into()],
            }),
            ..msg("你好")
        };
        assert_eq!(code(check(&both)), "ambiguous_input");
    }

    #[test]
    fn empty_and_oversized_messages_are_refused() {
        assert_eq!(code(check(&msg("   "))), "empty_message");
        assert_eq!(code(check(&msg(&"长".repeat(501)))), "message_too_long");
        assert!(check(&msg(&"长".repeat(500))).is_ok());
    }

    #[test]
    fn options_are_checked() {
        let opt = |field: &str, values: &[&str]| ChatRequest {
            option: Some(OptionClick {
                target_field: field.into(),
                values: values.iter().map(|v| v.to_string()).collect(),
            }),
            ..ChatRequest::default()
        };
        assert!(check(&opt("school", &["北京大学"])).is_ok());
        assert!(
            check(&opt("personality", &[])).is_ok(),
            "an empty choice is a skip"
        );
        assert_eq!(code(check(&opt("password", &["x"]))), "invalid_option");
        assert_eq!(code(check(&opt("general", &[]))), "invalid_option");
        assert_eq!(code(check(&opt("school", &["  "]))), "invalid_option");
        assert_eq!(
            code(check(&opt("major", &["a", "b", "c", "d", "e", "f", "g"]))),
            "invalid_option"
        );
    }

    #[test]
    fn oversized_page_contexts_are_refused() {
        let mut req = msg("第一个");
        req.page_context = PageContext {
            visible_advisors: (0..201)
                .map(|i| VisibleAdvisor {
                    id: i.to_string(),
                    name: "x".into(),
                    title: String::new(),
                    rating: 0.0,
                    rank: 1,
                })
                .collect(),
            ..PageContext::default()
        };
        assert_eq!(code(check(&req)), "invalid_page_context");
    }
}
