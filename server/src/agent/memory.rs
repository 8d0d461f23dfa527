//! What the agent remembers between turns besides the form: the advisors
//! talked about (so "他" and "刚才那个张老师" still point somewhere), the
//! optional questions already asked, the chips waiting for an answer, the
//! persona chosen by hand and a place answer's offer. Stored with the
//! session (`agent::session_store`); read by the planners, the resolving of
//! references, and the steering of the form.

use serde::{Deserialize, Serialize};

use app::protocol::{SelectedAdvisor, ToolCall};

/// Advisors remembered as talked about.
pub const TALKED_ABOUT: usize = 8;

/// What the agent remembers between turns besides the form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// The advisor last talked about, so "他" still means them on the next turn.
    #[serde(default)]
    pub last_advisor: Option<SelectedAdvisor>,
    /// The advisors talked about, most recent first (at most
    /// [`TALKED_ABOUT`]): "刚才那个张老师" is the 张 of this list.
    #[serde(default)]
    pub talked_about: Vec<SelectedAdvisor>,
    /// Optional form fields already offered as chips (answered or skipped):
    /// never asked twice.
    #[serde(default)]
    pub asked: Vec<String>,
    /// The chips still waiting for an answer.
    #[serde(default)]
    pub pending: Option<ToolCall>,
    /// Completed turns, for deterministic variety in replies.
    #[serde(default)]
    pub turns: u32,
    /// The persona was chosen by hand (the panel's toggle, `switch_agent`):
    /// keywords no longer switch it, only strong triggers do.
    #[serde(default)]
    pub persona_manual: bool,
    /// The school or major a place answer offered to search ("看看导师
    /// 排名？"): a yes next turn fills the form with it; any other turn
    /// forgets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<super::about_place::PlaceOffer>,
}

impl Memory {
    /// Remembers `advisor` as the one talked about most recently.
    pub fn remember(&mut self, advisor: &SelectedAdvisor) {
        self.talked_about.retain(|a| a.id != advisor.id);
        self.talked_about.insert(0, advisor.clone());
        self.talked_about.truncate(TALKED_ABOUT);
    }
}
