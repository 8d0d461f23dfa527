//! Server functions: the pages' only way to the data. Their bodies run on the
//! server and read through [`SiteData`], which the `server` crate implements
//! over SQLite and provides as context; the WASM client calls them over HTTP.

use leptos::prelude::*;

use leptos::server_fn::codec::{GetUrl, Json};

use crate::error::ApiError;
use crate::model::{
    AdvisorDetail, ChatHistory, Comparison, HomeData, RankingStats, RankingView, ReviewPage,
    ReviewQuery, SearchResults, SortKey,
};
use crate::protocol::{SwitchAgentData, SwitchAgentRequest};

#[cfg(feature = "ssr")]
pub use ssr::{agent, site_data, viewer, AgentApi, SharedAgent, SharedSiteData, SiteData, Viewer};

#[cfg(feature = "ssr")]
mod ssr {
    use std::sync::Arc;

    use leptos::prelude::*;

    use crate::error::ApiError;
    use crate::model::{
        AdvisorDetail, Comparison, HomeData, RankingStats, RankingView, ReviewPage, ReviewQuery,
        SearchResults, SortKey,
    };

    /// Everything the pages read. One implementation lives in the `server`
    /// crate (SQLite or PostgreSQL, as `DATABASE_URL` says); tests may provide another.
    #[async_trait::async_trait]
    pub trait SiteData: Send + Sync + 'static {
        async fn home(&self) -> Result<HomeData, ApiError>;
        async fn ranking(
            &self,
            school: &str,
            major: &str,
            sort: SortKey,
            page: u32,
        ) -> Result<RankingView, ApiError>;
        async fn advisor(&self, id: &str) -> Result<Option<AdvisorDetail>, ApiError>;
        /// Reviews as `query` asks; `viewer` is the reading client's key
        /// (each review says whether it voted 有用).
        async fn reviews(
            &self,
            id: &str,
            query: ReviewQuery,
            viewer: Option<String>,
        ) -> Result<Option<ReviewPage>, ApiError>;
        /// Advisors by name or pinyin, schools and majors by name or alias.
        async fn search(&self, query: &str) -> Result<SearchResults, ApiError>;
        /// Advisors side by side. The ids as given (2–4 advisor ids); a
        /// wrong request is a 4xx `ApiError` with a Chinese message.
        async fn compare(&self, ids: &[String]) -> Result<Comparison, ApiError>;
        /// The review form of an advisor, with a refused submission's values
        /// and errors when `draft` names one; `None` for an unknown advisor.
        async fn review_form(
            &self,
            advisor_id: &str,
            draft: Option<&str>,
            edit: Option<&str>,
        ) -> Result<Option<crate::model::ReviewForm>, ApiError>;
        /// The statistics of a ranking by what the student typed; `None` when
        /// the names do not resolve to a (school, major) with advisors (the
        /// ranking itself then says why).
        async fn ranking_stats(
            &self,
            school: &str,
            major: &str,
        ) -> Result<Option<RankingStats>, ApiError>;
        /// The admin page's lists (`after`: the `next` of the page before),
        /// for `request` only when it carries the admin token (the cookie
        /// `/admin?token=` set, or `Authorization: Bearer`): the server checks
        /// it as on every admin request, and a refusal is that request's
        /// 4xx `ApiError` (404 admin off, 429, 401, 403) with no data.
        async fn admin(
            &self,
            request: &http::request::Parts,
            after: Option<String>,
        ) -> Result<crate::model::admin::AdminLists, ApiError>;
        /// The correction form: empty, or a refused submission's values and
        /// errors when `draft` names one that is still kept.
        async fn correction_form(
            &self,
            draft: Option<&str>,
        ) -> Result<crate::model::correction::CorrectionForm, ApiError>;
    }

    pub type SharedSiteData = Arc<dyn SiteData>;

    /// The voice agent's stored conversation and persona switch, for the
    /// panel's server functions. Implemented in the `server` crate. A turn
    /// itself goes through `POST /api/v1/chat` (or `/chat/stream`), the
    /// protocol's endpoints, never a server function: one door, rate-limited
    /// in one place.
    #[async_trait::async_trait]
    pub trait AgentApi: Send + Sync + 'static {
        async fn history(
            &self,
            session_id: &str,
        ) -> Result<Option<crate::model::ChatHistory>, ApiError>;
        /// The persona chosen by hand (`POST /api/v1/chat/switch_agent`);
        /// opens a session when there is none yet.
        async fn switch_agent(
            &self,
            request: crate::protocol::SwitchAgentRequest,
        ) -> Result<crate::protocol::SwitchAgentData, ApiError>;
    }

    pub type SharedAgent = Arc<dyn AgentApi>;

    /// The agent the server put in context for this request.
    pub fn agent() -> Result<SharedAgent, ServerFnError> {
        use_context::<SharedAgent>().ok_or_else(|| ServerFnError::new("服务器未配置语音助手"))
    }

    /// The client a request came from, as the server identified it (its
    /// rate limits, reports and votes key on it); the server's middleware
    /// puts it in the request's extensions.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Viewer(pub String);

    /// The client of the request being served, if the server identified it.
    pub fn viewer() -> Option<String> {
        use_context::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Viewer>().map(|v| v.0.clone()))
    }

    /// The data source the server put in context for this request.
    pub fn site_data() -> Result<SharedSiteData, ServerFnError> {
        use_context::<SharedSiteData>().ok_or_else(|| ServerFnError::new("服务器未配置数据源"))
    }
}

#[cfg(feature = "ssr")]
fn to_server_error(e: crate::error::ApiError) -> ServerFnError {
    ServerFnError::new(e.info.message)
}

#[server]
pub async fn get_home() -> Result<HomeData, ServerFnError> {
    site_data()?.home().await.map_err(to_server_error)
}

#[server]
pub async fn get_ranking(
    school: String,
    major: String,
    sort: SortKey,
    page: u32,
) -> Result<RankingView, ServerFnError> {
    site_data()?
        .ranking(&school, &major, sort, page)
        .await
        .map_err(to_server_error)
}

#[server]
pub async fn get_advisor(id: String) -> Result<Option<AdvisorDetail>, ServerFnError> {
    site_data()?.advisor(&id).await.map_err(to_server_error)
}

/// Reviews of an advisor as the detail page's links ask (order, filter,
/// page). A filter the site does not have reads as no filter: the page's
/// links never make one, and a hand-edited URL still shows the reviews.
#[server(input = Json, output = Json)]
pub async fn get_reviews(
    id: String,
    query: ReviewQuery,
) -> Result<Option<ReviewPage>, ServerFnError> {
    let data = site_data()?;
    match data.reviews(&id, query.clone(), viewer()).await {
        Err(e) if e.status == 400 => data
            .reviews(
                &id,
                ReviewQuery {
                    relation: None,
                    tag: None,
                    ..query
                },
                viewer(),
            )
            .await
            .map_err(to_server_error),
        answer => answer.map_err(to_server_error),
    }
}

/// The name search of `/search?q=` and the header's box. An empty query is
/// no results, not an error (the page shows the box); a query the student
/// got wrong (too long) is an answer with its 4xx message, as
/// [`get_comparison`]'s; only an unavailable database fails the call.
#[server]
pub async fn search(q: String) -> Result<Result<SearchResults, ApiError>, ServerFnError> {
    if q.trim().is_empty() {
        return Ok(Ok(SearchResults::default()));
    }
    match site_data()?.search(&q).await {
        Err(e) if e.status >= 500 => Err(to_server_error(e)),
        answer => Ok(answer),
    }
}

/// The advisors of `/compare?ids=…`. A request the student got wrong (too
/// few or too many ids, a malformed or unknown one) is an answer, not a
/// failure: it comes back as `Ok(Err(…))` with its 4xx status and message so
/// the page can answer with them. Only an unavailable database is an error
/// of the call itself.
#[server]
pub async fn get_comparison(ids: String) -> Result<Result<Comparison, ApiError>, ServerFnError> {
    match site_data()?.compare(&Comparison::split_ids(&ids)).await {
        Err(e) if e.status >= 500 => Err(to_server_error(e)),
        answer => Ok(answer),
    }
}

/// The 数据概览 of a ranking: by school and major only, so sorting or paging
/// the ranking does not fetch it again.
#[server]
pub async fn get_ranking_stats(
    school: String,
    major: String,
) -> Result<Option<RankingStats>, ServerFnError> {
    site_data()?
        .ranking_stats(&school, &major)
        .await
        .map_err(to_server_error)
}

/// The stored conversation of a session, for the panel after a reload.
#[server(input = Json, output = Json)]
pub async fn load_chat_history(session_id: String) -> Result<Option<ChatHistory>, ServerFnError> {
    agent()?.history(&session_id).await.map_err(to_server_error)
}

/// The panel's persona toggle: the same switch as
/// `POST /api/v1/chat/switch_agent`.
#[server(input = Json, output = Json)]
pub async fn switch_agent(request: SwitchAgentRequest) -> Result<SwitchAgentData, ServerFnError> {
    agent()?
        .switch_agent(request)
        .await
        .map_err(to_server_error)
}

/// The review form of `/advisor/:id/review`.
#[server]
pub async fn get_review_form(
    id: String,
    draft: Option<String>,
    edit: Option<String>,
) -> Result<Option<crate::model::ReviewForm>, ServerFnError> {
    site_data()?
        .review_form(&id, draft.as_deref(), edit.as_deref())
        .await
        .map_err(to_server_error)
}

/// The form of `/correction` (a refused submission's values and errors
/// when `draft` names one).
#[server]
pub async fn get_correction_form(
    draft: Option<String>,
) -> Result<crate::model::correction::CorrectionForm, ServerFnError> {
    site_data()?
        .correction_form(draft.as_deref())
        .await
        .map_err(to_server_error)
}

/// The lists of `/admin`. Under `/admin/` so that the browser sends the
/// admin cookie (`Path=/admin`) on a client-side navigation too, and a GET
/// (it changes nothing). The token is checked by the server for this very
/// request (`SiteData::admin`); a refusal is an answer, `Ok(Err(…))` with
/// its status and message, and carries no review. Never stored by a cache.
#[server(prefix = "/admin", endpoint = "lists", input = GetUrl)]
pub async fn get_admin(
    after: Option<String>,
) -> Result<Result<crate::model::admin::AdminLists, ApiError>, ServerFnError> {
    if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
        res.insert_header(
            http::header::CACHE_CONTROL,
            http::HeaderValue::from_static("no-store"),
        );
    }
    let request = use_context::<http::request::Parts>()
        .ok_or_else(|| ServerFnError::new("服务器未提供请求信息"))?;
    match site_data()?.admin(&request, after).await {
        Err(e) if e.status >= 500 => Err(to_server_error(e)),
        answer => Ok(answer),
    }
}
