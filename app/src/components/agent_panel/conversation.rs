//! The conversation behind the panel: its messages, chips and form, one turn
//! at a time through the streaming chat endpoint — the reply shown and spoken
//! sentence by sentence as it arrives, then applied to the pages.
//!
//! [`Conversation`] is a `Copy` bundle of signals so every part of the panel
//! (input, chips, microphone, header) can drive the same conversation without
//! `Rc`s; it is created once by `AgentPanel`, inside the router.

use gloo_timers::callback::Timeout;
use leptos::logging::warn;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;

use super::apply::{self, ChipSet, Here};
use super::stream::{self, SwitchNotice, VoicePiece};
use super::{speech, storage};
use crate::agent_state::AgentOverlay;
use crate::api::load_chat_history;
use crate::api::switch_agent;
use crate::model::ChatHistory;
use crate::page_context::PageContextStore;
use crate::protocol::{
    switch_message, ChatRequest, ChatResponse, OptionClick, PageKind, SwitchAgentRequest, UserForm,
    ANALYSIS, CONVERSATION_END,
};

/// How long a turn may take before its first sentence to show the typing
/// indicator: fast replies then never flash it.
const TYPING_DELAY_MS: u32 = 150;

/// Who said a message; `System` is the site itself (a persona switch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    System,
}

impl Role {
    /// The protocol's name, also the `data-role` of the message.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
        }
    }

    /// Reads a stored message's role; anything unknown is shown as a system line.
    pub fn from_wire(role: &str) -> Role {
        match role {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            _ => Role::System,
        }
    }
}

/// One line of the conversation; `id` keys it in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: u64,
    pub role: Role,
    pub text: String,
}

/// The router's `use_navigate`, boxed so the `Copy` conversation can hold it.
/// It is `Send + Sync`, so it lives in ordinary (thread-safe) storage: the
/// server renders the panel on a multi-threaded runtime, where a value in
/// local storage must not be dropped from another thread.
type Navigator = Box<dyn Fn(&str, NavigateOptions) + Send + Sync>;

/// The panel's state and the one way to talk to the agent.
#[derive(Clone, Copy)]
pub struct Conversation {
    pub messages: RwSignal<Vec<Message>>,
    /// The chips waiting for a click (the last `present_options`).
    pub chips: RwSignal<Option<ChipSet>>,
    /// The form as the last reply reported it.
    pub form: RwSignal<Option<UserForm>>,
    /// A turn (or the restore of a stored one) is in flight: input is disabled.
    pub busy: RwSignal<bool>,
    /// The turn has taken long enough to show the typing indicator, and
    /// nothing of the reply has arrived yet.
    pub typing: RwSignal<bool>,
    /// Why the last request failed, shown under the messages.
    pub error: RwSignal<Option<String>>,
    pub muted: RwSignal<bool>,
    /// The last reply said the student is done (`conversation_end`): a
    /// voice call hangs up once it is spoken.
    pub farewell: RwSignal<bool>,
    /// The student talked over this turn's reply (a voice call): nothing
    /// more of it is spoken, though it is still shown and applied.
    hushed: StoredValue<bool>,
    /// Who answers: the `casual` or the `analysis` persona, as the last reply,
    /// the stored conversation or the toggle said.
    pub persona: RwSignal<String>,
    session: StoredValue<Option<String>>,
    next_id: StoredValue<u64>,
    /// Bumped by "新对话": replies to an older conversation are dropped.
    epoch: StoredValue<u64>,
    store: PageContextStore,
    overlay: AgentOverlay,
    pathname: Memo<String>,
    search: Memo<String>,
    navigate: StoredValue<Navigator>,
}

impl Conversation {
    /// Must be called inside the `<Router>`, below the page-context store and
    /// the agent overlay.
    pub fn new() -> Conversation {
        let location = use_location();
        let navigate = use_navigate();
        Conversation {
            messages: RwSignal::new(Vec::new()),
            chips: RwSignal::new(None),
            form: RwSignal::new(None),
            busy: RwSignal::new(false),
            typing: RwSignal::new(false),
            error: RwSignal::new(None),
            muted: RwSignal::new(false),
            farewell: RwSignal::new(false),
            hushed: StoredValue::new(false),
            persona: RwSignal::new(ANALYSIS.to_string()),
            session: StoredValue::new(None),
            next_id: StoredValue::new(0),
            epoch: StoredValue::new(0),
            store: PageContextStore::expect(),
            overlay: AgentOverlay::expect(),
            pathname: location.pathname,
            search: location.search,
            navigate: StoredValue::new(Box::new(navigate) as Navigator),
        }
    }

    /// What the page shows now, as a turn would send it.
    pub fn page_snapshot(&self) -> crate::protocol::PageContext {
        self.store.snapshot()
    }

    /// Stops speaking at once, and this turn says nothing more: the student
    /// is talking. What streams in is still shown, and the reply applied
    /// (the server has stored the turn; the page follows it).
    pub fn hush(self) {
        self.hushed.set_value(true);
        speech::cancel();
    }

    /// Whether the turn's words are to be spoken.
    fn voiced(self) -> bool {
        !self.muted.get_untracked() && !self.hushed.get_value()
    }

    /// Says something of the panel's own, not a turn (a voice call's goodbye
    /// after a silence): shown as the agent's line and spoken.
    pub fn aside(self, text: &str) {
        self.hushed.set_value(false);
        self.push(Role::Assistant, text.to_string());
        if !self.muted.get_untracked() {
            speech::speak(text, speech::voice_of(&self.persona.get_untracked()));
        }
    }

    /// Sends typed or spoken text. Returns `false` (and sends nothing) when the
    /// text is blank or a turn is already running.
    pub fn send_text(self, text: &str) -> bool {
        let text = text.trim();
        if text.is_empty() {
            return false;
        }
        self.start_turn(text.to_string(), Some(text.to_string()), None)
    }

    /// Sends a chip click: `values` empty means "跳过". The chip text (or the
    /// selected texts) is shown as the student's message.
    pub fn send_option(self, target_field: String, values: Vec<String>) -> bool {
        let shown = if values.is_empty() {
            "跳过".to_string()
        } else {
            values.join("、")
        };
        self.start_turn(
            shown,
            None,
            Some(OptionClick {
                target_field,
                values,
            }),
        )
    }

    /// "新对话": forgets the session, the messages and the chips; the next
    /// message opens a new session. A reply still on its way is dropped.
    pub fn reset(self) {
        self.epoch.update_value(|e| *e += 1);
        storage::clear_session();
        self.session.set_value(None);
        self.messages.set(Vec::new());
        self.chips.set(None);
        self.form.set(None);
        self.error.set(None);
        self.busy.set(false);
        self.typing.set(false);
        self.persona.set(ANALYSIS.to_string());
        speech::cancel();
    }

    /// The persona toggle: switches by hand (it then holds until the student
    /// switches again or asks for data), shows the system line and keeps the
    /// session, opening one if there is none yet. Returns `false` (and does
    /// nothing) while a turn runs or when that persona already answers.
    pub fn switch_persona(self, to: &'static str) -> bool {
        let from = self.persona.get_untracked();
        if self.busy.get_untracked() || from == to {
            return false;
        }
        self.busy.set(true);
        self.error.set(None);
        let epoch = self.epoch.get_value();
        let request = SwitchAgentRequest {
            session_id: self.session.get_value(),
            agent_type: to.to_string(),
        };
        spawn_local(switch_turn(self, request, from, epoch));
        true
    }

    /// Mutes or unmutes the voice, remembered across visits. Muting stops the
    /// reply being spoken; unmuting does not replay it.
    pub fn set_muted(self, muted: bool) {
        self.muted.set(muted);
        storage::save_muted(muted);
        if muted {
            speech::cancel();
        }
    }

    /// After mount: takes the mute switch from `localStorage` and, when this
    /// tab has a session, restores its messages and pending chips. An unknown
    /// or expired session is forgotten silently.
    ///
    /// A turn the page's script sent before hydration (`early`) is taken
    /// over first: its reply stored, the conversation is restored with it.
    pub fn restore(self) {
        self.muted.set(storage::load_muted());
        #[cfg(feature = "hydrate")]
        if let Some(turn) = super::early::take() {
            let epoch = self.epoch.get_value();
            self.busy.set(true);
            spawn_local(early_turn(self, turn, epoch));
            return;
        }
        let Some(id) = storage::load_session() else {
            return;
        };
        self.session.set_value(Some(id.clone()));
        let epoch = self.epoch.get_value();
        self.busy.set(true);
        spawn_local(restore_turn(self, id, epoch));
    }

    fn show_history(self, history: ChatHistory) {
        let messages = history
            .messages
            .into_iter()
            .filter(|m| !m.content.trim().is_empty())
            .map(|m| self.message(Role::from_wire(&m.role), m.content))
            .collect();
        self.messages.set(messages);
        self.chips
            .set(history.options.as_ref().and_then(ChipSet::from_call));
        self.form.set(Some(history.form));
        self.persona.set(history.agent);
        self.session.set_value(Some(history.session_id));
    }

    fn message(self, role: Role, text: String) -> Message {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        Message { id, role, text }
    }

    /// Adds a message at the end; its id lets a streamed reply grow it later.
    fn push(self, role: Role, text: String) -> u64 {
        let message = self.message(role, text);
        let id = message.id;
        self.messages.update(|list| list.push(message));
        id
    }

    fn start_turn(
        self,
        shown: String,
        message: Option<String>,
        option: Option<OptionClick>,
    ) -> bool {
        if self.busy.get_untracked() {
            return false;
        }
        self.error.set(None);
        self.push(Role::User, shown);
        self.chips.set(None);
        self.busy.set(true);
        self.farewell.set(false);
        self.hushed.set_value(false);
        let request = ChatRequest {
            session_id: self.session.get_value(),
            message,
            option,
            page_context: self.store.snapshot(),
        };
        let epoch = self.epoch.get_value();
        spawn_local(run_turn(self, request, epoch));
        true
    }

    /// `event: switch`: the new persona from now on, its notice shown as the
    /// conversation stores it and said first (without the "[系统]" mark).
    fn hear_switch(self, notice: SwitchNotice) {
        self.persona.set(notice.agent_type.clone());
        self.push(Role::System, notice.message.clone());
        if self.voiced() {
            speech::enqueue(
                &apply::spoken_notice(&notice.message),
                speech::voice_of(&notice.agent_type),
            );
        }
    }

    /// Shows and speaks one `voice` event: the first opens the assistant
    /// message, later ones grow it (queued behind what is being spoken), a
    /// restart replaces it (cutting off what is being spoken). Returns the id
    /// of the message the turn's text is in, if any yet.
    fn hear(self, shown: Option<u64>, piece: VoicePiece) -> Option<u64> {
        if let Some(agent) = &piece.agent {
            if self.persona.with_untracked(|p| p != agent) {
                self.persona.set(agent.clone());
            }
        }
        if self.voiced() {
            let voice = speech::voice_of(&self.persona.get_untracked());
            if piece.restart {
                speech::speak(&piece.text, voice);
            } else {
                speech::enqueue(&piece.text, voice);
            }
        }
        match shown {
            Some(id) => {
                self.messages.update(|list| {
                    if let Some(message) = list.iter_mut().find(|m| m.id == id) {
                        if piece.restart {
                            message.text = piece.text;
                        } else {
                            message.text.push_str(&piece.text);
                        }
                    }
                });
                Some(id)
            }
            None if piece.text.trim().is_empty() => None,
            None => Some(self.push(Role::Assistant, piece.text)),
        }
    }

    /// Applies the turn's reply: the session, the event lines, the final text
    /// of the assistant message, the form, the chips and the page steps (a
    /// degraded reply with `error` is shown the same way: its voice_response
    /// is the apology).
    ///
    /// `shown` is the message the streamed sentences went into. They were
    /// spoken already, so the reply is spoken only when nothing was streamed;
    /// its voice_response is still the message's final text, in case the
    /// pieces did not add up to it. The event lines go before the message, the
    /// order they have in the stored conversation.
    fn receive(self, reply: ChatResponse, shown: Option<u64>, switched: bool) {
        storage::save_session(&reply.session_id);
        self.session.set_value(Some(reply.session_id.clone()));
        self.persona.set(reply.agent.clone());
        // A switch heard from the stream is on screen already.
        let events: Vec<_> = reply
            .events
            .iter()
            .filter(|e| !(switched && e.kind == "agent_switched"))
            .cloned()
            .collect();
        let lines: Vec<Message> = apply::event_messages(&events)
            .into_iter()
            .map(|line| self.message(Role::System, line))
            .collect();
        let text = reply.voice_response.clone();
        let has_text = !text.trim().is_empty();
        let at = shown.and_then(|id| {
            self.messages
                .with_untracked(|list| list.iter().position(|m| m.id == id))
        });
        let fresh = (at.is_none() && has_text).then(|| self.message(Role::Assistant, text.clone()));
        self.messages.update(|list| match at {
            Some(at) => {
                if has_text {
                    list[at].text = text;
                } else {
                    list.remove(at);
                }
                list.splice(at..at, lines);
            }
            None => {
                list.extend(lines);
                list.extend(fresh);
            }
        });
        if let Some(error) = &reply.error {
            warn!("助手降级回复：{} {}", error.code, error.message);
        }
        self.form.set(Some(reply.form.clone()));
        let plan = apply::plan(&reply.tool_calls, &self.here());
        self.chips.set(plan.chips);
        if shown.is_none() && self.voiced() {
            speech::speak(&reply.voice_response, speech::voice_of(&reply.agent));
        }
        self.farewell
            .set(reply.events.iter().any(|e| e.kind == CONVERSATION_END));
        self.run_steps(plan.steps);
    }

    /// Runs a reply's page steps (navigation, highlights) with the router.
    fn run_steps(self, steps: Vec<apply::Step>) {
        let navigate = self.navigate;
        apply::run(steps, self.overlay, self.store, move |href| {
            navigate.with_value(|go| go(href, NavigateOptions::default()))
        });
    }

    /// Where the student is now, from the router (immediate) and the page
    /// context (the canonical names of the ranking on screen).
    fn here(self) -> Here {
        let path = self.pathname.get_untracked();
        let search = self.search.get_untracked();
        let url = if search.is_empty() {
            path.clone()
        } else {
            format!("{path}?{search}")
        };
        let ranking = (path == "/ranking"
            && self.store.current_page.get_untracked() == PageKind::Ranking)
            .then(|| self.store.ranking_filters.get_untracked())
            .flatten();
        Here { path, url, ranking }
    }
}

/// One chat turn: streams the reply (shown and spoken sentence by sentence),
/// then applies it. Dropped if "新对话" started another conversation meanwhile.
async fn run_turn(this: Conversation, request: ChatRequest, epoch: u64) -> () {
    let mut typing = Some(Timeout::new(TYPING_DELAY_MS, move || {
        if this.epoch.get_value() == epoch {
            this.typing.set(true);
        }
    }));
    // The assistant message this turn's sentences go into, once shown.
    let mut shown: Option<u64> = None;
    // The persona's switch notice, shown and spoken before its words.
    let mut switched = false;
    let outcome = stream::chat_stream(
        &request,
        |notice| {
            if this.epoch.get_value() == epoch {
                switched = true;
                this.hear_switch(notice);
            }
        },
        |piece| {
            if this.epoch.get_value() != epoch {
                return;
            }
            shown = this.hear(shown, piece);
            if shown.is_some() {
                // Dropping the timer cancels it if the words beat it.
                if let Some(timer) = typing.take() {
                    drop(timer);
                    this.typing.set(false);
                }
            }
        },
    )
    .await;
    drop(typing);
    if this.epoch.get_value() != epoch {
        return;
    }
    this.typing.set(false);
    this.busy.set(false);
    match outcome {
        Ok(reply) => this.receive(reply, shown, switched),
        Err(e) => {
            warn!("对话请求失败：{e:?}");
            // The server no longer knows this session (expired, or a
            // new database): the next message opens a fresh one.
            if e.is_unknown_session() {
                storage::clear_session();
                this.session.set_value(None);
            }
            this.error.set(Some(e.student_text()));
        }
    }
}

/// Takes over the turn the page's script sent before hydration: once its
/// reply is there, the stored conversation (which holds the turn) replaces
/// the script's lines, and the reply is applied to the page as any reply is
/// (it was shown and spoken already).
#[cfg(feature = "hydrate")]
async fn early_turn(this: Conversation, turn: super::early::EarlyTurn, epoch: u64) {
    let text = turn.text.clone();
    let Some(reply) = super::early::reply(turn).await else {
        super::early::clear_log();
        this.busy.set(false);
        this.push(Role::User, text);
        this.error.set(Some(
            stream::StreamError::Network(String::new()).student_text(),
        ));
        return;
    };
    if this.epoch.get_value() != epoch {
        return;
    }
    storage::save_session(&reply.session_id);
    this.session.set_value(Some(reply.session_id.clone()));
    restore_turn(this, reply.session_id.clone(), epoch).await;
    super::early::clear_log();
    this.run_steps(apply::plan(&reply.tool_calls, &this.here()).steps);
}

/// Reads the stored conversation of this tab's session and shows it.
async fn restore_turn(this: Conversation, id: String, epoch: u64) -> () {
    let loaded = load_chat_history(id).await;
    if this.epoch.get_value() != epoch {
        return;
    }
    this.busy.set(false);
    match loaded {
        Ok(Some(history)) => this.show_history(history),
        Ok(None) => {
            storage::clear_session();
            this.session.set_value(None);
        }
        // Keep the id: the server may be back for the next message.
        Err(e) => warn!("无法恢复对话：{e}"),
    }
}

/// The persona toggle's request, then its system line.
async fn switch_turn(
    this: Conversation,
    request: SwitchAgentRequest,
    from: String,
    epoch: u64,
) -> () {
    let result = switch_agent(request).await;
    if this.epoch.get_value() != epoch {
        return;
    }
    this.busy.set(false);
    match result {
        Ok(data) => {
            storage::save_session(&data.session_id);
            this.session.set_value(Some(data.session_id));
            this.push(Role::System, switch_message(&from, &data.agent_type));
            this.persona.set(data.agent_type);
        }
        Err(e) => {
            warn!("切换助手模式失败：{e}");
            this.error
                .set(Some("切换模式失败，请稍后再试。".to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_and_unknown_roles_are_system_lines() {
        for role in [Role::User, Role::Assistant, Role::System] {
            assert_eq!(Role::from_wire(role.as_str()), role);
        }
        assert_eq!(Role::from_wire("tool"), Role::System);
    }
}
