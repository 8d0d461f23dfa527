//! The system lines of a reply: a notice as it is spoken, and the lines a
//! reply's events (a persona switch, say) add to the conversation. Pure; kept
//! apart from [`plan`](mod@crate::reply::plan) because these are lines of the
//! conversation, not steps on the pages.

use serde_json::Value;

use crate::protocol::AgentEvent;

/// A notice as it is spoken: without its leading "[系统]" mark.
pub fn spoken_notice(message: &str) -> String {
    let trimmed = message.trim();
    match trimmed
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
    {
        Some((_, after)) => after.trim().to_string(),
        None => trimmed.to_string(),
    }
}

/// The system lines a reply's events add to the conversation (a persona
/// switch, say): each event's `message`, in order.
pub fn event_messages(events: &[AgentEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| e.data.get("message").and_then(Value::as_str))
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_notice_is_spoken_without_its_mark() {
        assert_eq!(
            spoken_notice("[系统] 已从分析模式切换到闲聊模式"),
            "已从分析模式切换到闲聊模式"
        );
        assert_eq!(spoken_notice("已切换"), "已切换");
    }

    #[test]
    fn events_with_a_message_become_system_lines() {
        let events: Vec<AgentEvent> = serde_json::from_value(json!([
            {"type": "agent_switched", "from": "casual", "to": "analysis", "message": "[系统] 已从闲聊模式切换到分析模式"},
            {"type": "silent"}
        ]))
        .expect("events");
        assert_eq!(
            event_messages(&events),
            vec!["[系统] 已从闲聊模式切换到分析模式"]
        );
    }
}
