//! The agent wire protocol (v1), defined once and shared by the server, the WASM
//! client and every outside client. Field names follow
//! `shared/design/agent-protocol.md` exactly; they must not be renamed, only
//! extended.

use serde::{Deserialize, Serialize};

/// Which page the student is looking at. Serialized in snake_case as the
/// protocol names them (`home`, `ranking`, `detail`); more pages may be added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PageKind {
    #[default]
    Home,
    Ranking,
    Detail,
    Compare,
    Review,
    NotFound,
    /// `/search?q=`: the advisors found are the list "第一个" refers to.
    Search,
}

impl PageKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PageKind::Home => "home",
            PageKind::Ranking => "ranking",
            PageKind::Detail => "detail",
            PageKind::Compare => "compare",
            PageKind::Review => "review",
            PageKind::NotFound => "not_found",
            PageKind::Search => "search",
        }
    }
}

/// One advisor card as the page shows it (`page_context.visible_advisors[]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct VisibleAdvisor {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub rating: f64,
    #[serde(default)]
    pub rank: u32,
}

/// The advisor open on a detail page (`page_context.selected_advisor`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SelectedAdvisor {
    pub id: String,
    pub name: String,
}

/// The filters of the ranking on screen (`page_context.ranking_filters`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct RankingFilters {
    pub school: String,
    pub major: String,
}

/// What the page shows right now. The server trusts it only to resolve
/// references ("第一个", "他"), never for access to data.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct PageContext {
    #[serde(default)]
    pub current_page: PageKind,
    #[serde(default)]
    pub visible_advisors: Vec<VisibleAdvisor>,
    #[serde(default)]
    pub selected_advisor: Option<SelectedAdvisor>,
    #[serde(default)]
    pub ranking_filters: Option<RankingFilters>,
}

/// The optional preferences of the form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Preferences {
    pub personality: Option<String>,
    pub research_style: Option<String>,
    pub funding: Option<String>,
}

/// The form the agent fills: school and major are required.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct UserForm {
    pub school: Option<String>,
    pub major: Option<String>,
    pub research_direction: Option<String>,
    #[serde(default)]
    pub preferences: Preferences,
    /// 学硕 / 专硕 / 直博 (optional, beyond school, major and preferences).
    #[serde(default)]
    pub degree_type: Option<String>,
    /// The year the student would start, e.g. "2027" (optional too).
    #[serde(default)]
    pub enrollment_year: Option<String>,
}

/// Derived completeness of the form (`form_status`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct FormStatus {
    pub is_complete: bool,
    pub missing_required: Vec<String>,
    pub filled_optional: Vec<String>,
}

impl UserForm {
    /// The status is derived, never stored, so it can never disagree with the form.
    pub fn status(&self) -> FormStatus {
        let mut missing_required = Vec::new();
        if self.school.is_none() {
            missing_required.push("school".to_string());
        }
        if self.major.is_none() {
            missing_required.push("major".to_string());
        }
        let filled_optional = [
            ("research_direction", &self.research_direction),
            ("personality", &self.preferences.personality),
            ("research_style", &self.preferences.research_style),
            ("funding", &self.preferences.funding),
            ("degree_type", &self.degree_type),
            ("enrollment_year", &self.enrollment_year),
        ]
        .into_iter()
        .filter(|(_, v)| v.is_some())
        .map(|(k, _)| k.to_string())
        .collect();
        FormStatus {
            is_complete: missing_required.is_empty(),
            missing_required,
            filled_optional,
        }
    }
}

/// Error body of every 4xx answer and the `error` of a degraded 200 answer:
/// a machine code and a Chinese message for the student; `field` names the
/// input that broke a rule where there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ErrorInfo {
    pub code: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// `{"error": {...}}`, the envelope of every 4xx answer of the JSON API.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ErrorEnvelope {
    pub error: ErrorInfo,
}

/// A chip click: updates the form field it names
/// directly, with no planner or model call. `target_field` is a form field or
/// `general` (a chip sent on as if typed); an empty `values` means "跳过".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct OptionClick {
    pub target_field: String,
    #[serde(default)]
    pub values: Vec<String>,
}

/// `POST /api/v1/chat` request. Exactly one of `message` / `option` is given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ChatRequest {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub option: Option<OptionClick>,
    #[serde(default)]
    pub page_context: PageContext,
}

/// The code-level intent of a turn (what code answers before any planner):
/// `greeting`, `reset`, `empty`, or `unknown` (left to the planner), with a
/// confidence and a reason.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct IntentResult {
    pub intent: String,
    pub confidence: f64,
    pub reasoning: String,
}

/// One tool call of a reply. Every executed call carries its `result`, so the
/// client updates its signals from the reply alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ToolCall {
    pub tool: String,
    #[serde(default)]
    pub params: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<serde_json::Value>,
}

/// The tools a reply may call, by the names the protocol gives them: one
/// list for the server that makes the calls and the panel that applies
/// them. `ToolCall::tool` stays a string on the wire (an older page meets
/// newer tools); [`ToolCall::name`] reads it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolName {
    UpdateForm,
    UpdateRanking,
    RecommendAdvisors,
    GetAdvisorDetail,
    GetAdvisorReviews,
    PresentOptions,
    CompareAdvisors,
    GetStatistics,
    GetPlaceFacts,
    ResetForm,
    SubmitReview,
}

impl ToolName {
    pub const ALL: [ToolName; 11] = [
        ToolName::UpdateForm,
        ToolName::UpdateRanking,
        ToolName::RecommendAdvisors,
        ToolName::GetAdvisorDetail,
        ToolName::GetAdvisorReviews,
        ToolName::PresentOptions,
        ToolName::CompareAdvisors,
        ToolName::GetStatistics,
        ToolName::GetPlaceFacts,
        ToolName::ResetForm,
        ToolName::SubmitReview,
    ];

    /// The name on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolName::UpdateForm => "update_form",
            ToolName::UpdateRanking => "update_ranking",
            ToolName::RecommendAdvisors => "recommend_advisors",
            ToolName::GetAdvisorDetail => "get_advisor_detail",
            ToolName::GetAdvisorReviews => "get_advisor_reviews",
            ToolName::PresentOptions => "present_options",
            ToolName::CompareAdvisors => "compare_advisors",
            ToolName::GetStatistics => "get_statistics",
            ToolName::GetPlaceFacts => "get_place_facts",
            ToolName::ResetForm => "reset_form",
            ToolName::SubmitReview => "submit_review",
        }
    }

    /// The tool a wire name names, if it is one of these.
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl ToolCall {
    /// The tool this call names, read once; `None` for a tool this build
    /// does not know.
    pub fn name(&self) -> Option<ToolName> {
        ToolName::parse(&self.tool)
    }
}

/// Something that happened in the session besides the reply, e.g.
/// `{"type": "agent_switched", "from": "casual", "to": "analysis", "message": "…"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct AgentEvent {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(flatten)]
    pub data: serde_json::Map<String, serde_json::Value>,
}

/// The event type of a reply to the student's goodbye ("好了，谢谢"): the
/// conversation may end (a voice call hangs up once the reply is spoken).
pub const CONVERSATION_END: &str = "conversation_end";

/// `POST /api/v1/chat` response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct ChatResponse {
    pub session_id: String,
    pub intent: IntentResult,
    pub agent: String,
    pub voice_response: String,
    pub tool_calls: Vec<ToolCall>,
    pub form: UserForm,
    pub form_status: FormStatus,
    #[serde(default)]
    pub events: Vec<AgentEvent>,
    #[serde(default)]
    pub error: Option<ErrorInfo>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_context_reads_the_protocol_example() {
        let json = r#"{
            "current_page": "ranking",
            "visible_advisors": [ {"id": "12345", "name": "张三", "title": "教授", "rating": 4.5, "rank": 1} ],
            "selected_advisor": null,
            "ranking_filters": {"school": "北京大学", "major": "计算机科学与技术"}
        }"#;
        let ctx: PageContext = serde_json::from_str(json).unwrap();
        assert_eq!(ctx.current_page, PageKind::Ranking);
        assert_eq!(ctx.visible_advisors[0].name, "张三");
        assert_eq!(ctx.ranking_filters.unwrap().major, "计算机科学与技术");
    }

    #[test]
    fn page_kind_serializes_as_the_protocol_names_it() {
        assert_eq!(
            serde_json::to_string(&PageKind::Detail).unwrap(),
            "\"detail\""
        );
        assert_eq!(PageKind::Home.as_str(), "home");
    }

    #[test]
    fn form_status_follows_the_required_fields() {
        let mut form = UserForm::default();
        assert_eq!(form.status().missing_required, vec!["school", "major"]);
        assert!(!form.status().is_complete);
        form.school = Some("北京大学".into());
        form.major = Some("计算机科学与技术".into());
        form.preferences.personality = Some("温和".into());
        let status = form.status();
        assert!(status.is_complete);
        assert!(status.missing_required.is_empty());
        assert_eq!(status.filled_optional, vec!["personality"]);
    }
}

/// `POST /api/v1/chat/switch_agent` request: the persona chosen by hand.
/// Without a `session_id` a new session is opened with the chosen persona.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SwitchAgentRequest {
    #[serde(default)]
    pub session_id: Option<String>,
    pub agent_type: String,
}

/// What a switch answers: `data` on success, `null` with a 4xx `code`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SwitchAgentResponse {
    pub code: u16,
    pub message: String,
    pub data: Option<SwitchAgentData>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct SwitchAgentData {
    pub agent_type: String,
    pub session_id: String,
}

/// The two personas, casual and analysis, as `ChatResponse::agent` names them.
pub const CASUAL: &str = "casual";
pub const ANALYSIS: &str = "analysis";

/// "闲聊" / "分析": the persona as the switch message names its mode.
pub fn mode_name(agent: &str) -> &'static str {
    if agent == CASUAL {
        "闲聊"
    } else {
        "分析"
    }
}

/// Who the student is talking to, as the panel shows it.
pub fn persona_name(agent: &str) -> &'static str {
    if agent == CASUAL {
        "小暖 · 闲聊"
    } else {
        "择导分析师"
    }
}

/// The system line of a persona switch, the same on the
/// server (stored, and the `agent_switched` event's message) and in the panel.
pub fn switch_message(from: &str, to: &str) -> String {
    format!(
        "[系统] 已从{}模式切换到{}模式",
        mode_name(from),
        mode_name(to)
    )
}

/// What `POST /api/v1/transcribe` answers: what the student said, as they
/// would have typed it (empty when nothing was heard).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct TranscribeResponse {
    pub text: String,
    /// How long the recording was, where its container says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}
