//! Everything that can reject a request, before anything is stored or any
//! planner runs: the input checks, the session (404 for an unknown one,
//! 429 for a used-up quota), the page as the database knows it, and what
//! the student did. A stream starts only for a [`Prepared`] turn.

use app::error::ApiError;
use app::protocol::{ChatRequest, PageContext};

use super::option::{self, Chip};
use super::request::{self, Input};
use super::session_store::{Caller, Session, SessionStore};
use super::{Agent, DEFAULT_PERSONA};

/// A request that passed the checks: its session and what the student did.
pub struct Prepared {
    pub(super) session: Session,
    /// The session's review draft as stored, if one is open.
    pub(super) draft: Option<crate::coach::state::CoachState>,
    pub(super) page: PageContext,
    pub(super) act: Action,
}

/// What the student did: said something, or clicked a chip.
pub(super) enum Action {
    Text(String),
    Chip { chip: Chip, shown: String },
}

impl Agent {
    /// The one door into a turn, for the JSON and the streaming handlers,
    /// the evaluation and the benches alike: everything that can reject the
    /// request, before anything is stored or any planner runs (so a stream
    /// starts only for a turn that will answer). Per-client limits (the
    /// coach's posting limits, the turn quota: 429 here when it is used up)
    /// count against `caller`'s key; [`Caller::local`] is a turn from the
    /// server itself. Then [`Agent::run`] or [`Agent::answer`].
    pub async fn prepare(&self, req: ChatRequest, caller: Caller) -> Result<Prepared, ApiError> {
        let input = request::check(&req)?;
        let (mut session, draft) = self
            .start(req.session_id.as_deref(), DEFAULT_PERSONA, caller)
            .await?;
        // The page as the database knows it: a forged advisor id is no advisor.
        let seen = self
            .site
            .checked_page(req.page_context, &session.page_context)
            .await?;
        let page = self.page_meant(seen, &session.page_context).await;
        // From here the turn has one page, this one. The page the last reply
        // led to says one more thing: whether the student opened a detail
        // page by themselves since, whose advisor is now the one "他" means.
        let before = std::mem::take(&mut session.page_context);
        if page.selected_advisor.is_some() && page.selected_advisor != before.selected_advisor {
            session.memory.last_advisor = page.selected_advisor.clone();
        }
        let act = match input {
            Input::Option(click) => {
                let chip = option::interpret(&click, self.site.catalog(), &session.form)?;
                let shown = if click.values.is_empty() {
                    "跳过".to_string()
                } else {
                    click.values.join("、")
                };
                match chip {
                    Chip::Text(text) => Action::Text(text),
                    chip => Action::Chip { chip, shown },
                }
            }
            Input::Message(text) => Action::Text(text),
        };
        Ok(Prepared {
            session,
            draft,
            page,
            act,
        })
    }

    /// The page the student means: what the browser shows, or, while it is
    /// still loading the page the last reply opened ([`app::reply::catching_up`]),
    /// that page, with the first page of its ranking when the reply only
    /// navigated there (as the panel does for a recommendation).
    async fn page_meant(&self, seen: PageContext, led_to: &PageContext) -> PageContext {
        if !app::reply::catching_up(&seen, led_to) {
            return seen;
        }
        let mut page = led_to.clone();
        if let (true, Some(f)) = (page.visible_advisors.is_empty(), &page.ranking_filters) {
            let ranking = self
                .site
                .ranking(&f.school, &f.major, app::model::SortKey::Overall, 1)
                .await;
            if let Ok(app::model::RankingView::Ranking(r)) = ranking {
                page.visible_advisors = r.advisors.iter().map(|a| a.to_visible()).collect();
            }
        }
        tracing::debug!(page = ?page.current_page, "the browser is still opening the last reply's page");
        page
    }

    /// The stored session `id` names (404 when there is none) with its
    /// review draft, or a new one with `persona` when no id is given; 429
    /// when `caller`'s quota is used up. One read.
    pub(super) async fn start(
        &self,
        id: Option<&str>,
        persona: &str,
        caller: Caller,
    ) -> Result<(Session, Option<crate::coach::state::CoachState>), ApiError> {
        let id = id.map(str::trim).filter(|s| !s.is_empty());
        let loaded = self
            .sessions
            .load(id, &caller)
            .await
            .map_err(|_| ApiError::unavailable("会话加载失败，请稍后再试。"))?;
        let now = crate::store::limits::now_ms();
        if let Some(wait) = caller.quota.and_then(|q| q.full(loaded.window, now)) {
            return Err(ApiError::too_many(wait, app::error::TOO_MANY_TURNS_MESSAGE));
        }
        match (id, loaded.session) {
            (Some(_), Some(session)) => Ok((session, loaded.draft)),
            (Some(_), None) => Err(ApiError::not_found(
                "unknown_session",
                app::error::UNKNOWN_SESSION_MESSAGE,
            )
            .with_field("session_id")),
            (None, _) => {
                let mut session = SessionStore::open(persona);
                session.caller = caller;
                Ok((session, None))
            }
        }
    }
}
