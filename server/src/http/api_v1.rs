//! The read API: `GET /api/v1/schools`, `/majors?school=`,
//! `/advisors?school=&major=&sort=&page=`, `/advisors/{id}`,
//! `/advisors/{id}/reviews?page=&sort=&relation=&tag=`, `/compare?ids=`,
//! `/search?q=`. Parameters are parsed by
//! hand so that every mistake gets a Chinese message and a 4xx, never a 5xx
//! or a plain-text body.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::handler::Handler;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use app::error::ApiError;
use app::model::{
    AdvisorDetail, Comparison, Major, NewReview, PostedReview, RankingPage, RankingStats,
    RankingView, ReviewPage, ReviewQuery, ReviewSort, School, SearchResults, SortKey,
};

use super::client::ClientId;
use super::responses::{Error, RateLimited};
use super::security::{limit, REVIEW_BODY};
use super::JsonError;
use crate::site::{parse_advisor_id, Site, MAX_PAGE};

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;
type ApiResult<T> = Result<Json<T>, JsonError>;

pub fn router(site: Arc<Site>) -> Router {
    Router::new()
        .route("/schools", get(schools))
        .route("/majors", get(majors))
        .route("/advisors", get(advisors))
        .route("/advisors/{id}", get(advisor))
        .route(
            "/advisors/{id}/reviews",
            get(reviews).post(post_review.layer(limit(REVIEW_BODY))),
        )
        .route("/compare", get(compare))
        .route("/search", get(search))
        .fallback(unknown_endpoint)
        .with_state(site)
}

fn params(p: Params) -> Result<HashMap<String, String>, JsonError> {
    let invalid = || {
        JsonError(ApiError::bad_request(
            "invalid_query",
            "查询参数格式不正确。",
        ))
    };
    let Query(q) = p.map_err(|_| invalid())?;
    // Percent-escapes that are not UTF-8 decode to U+FFFD: refuse them rather
    // than search for garbage.
    if q.iter()
        .any(|(k, v)| k.contains('\u{FFFD}') || v.contains('\u{FFFD}'))
    {
        return Err(invalid());
    }
    Ok(q)
}

fn page_param(q: &HashMap<String, String>) -> Result<u32, JsonError> {
    match q.get("page").map(|s| s.trim()) {
        None | Some("") => Ok(1),
        Some(p) => p
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_PAGE).contains(n))
            .ok_or_else(|| {
                JsonError(
                    ApiError::bad_request(
                        "invalid_page",
                        format!("页码必须是 1 到 {MAX_PAGE} 之间的整数。"),
                    )
                    .with_field("page"),
                )
            }),
    }
}

fn advisor_id(id: &str) -> Result<String, JsonError> {
    parse_advisor_id(id).map(|n| n.to_string()).ok_or_else(|| {
        JsonError(ApiError::bad_request("invalid_id", "导师编号必须是正整数。").with_field("id"))
    })
}

fn unknown_advisor() -> JsonError {
    JsonError(ApiError::not_found("unknown_advisor", "没有找到这位导师。"))
}

/// Every school, most advisors first.
#[derive(Serialize, ToSchema)]
pub(super) struct SchoolList {
    schools: Vec<School>,
}

/// Every school with its aliases, most advisors first.
#[utoipa::path(get, path = "/schools", context_path = "/api/v1", tag = "reads",
    responses((status = 200, body = SchoolList, description = "The schools")))]
async fn schools(State(site): State<Arc<Site>>) -> Json<SchoolList> {
    Json(SchoolList {
        schools: site.schools(),
    })
}

/// The majors of one school, or of the whole site.
#[derive(Serialize, ToSchema)]
pub(super) struct MajorList {
    /// The school's full name as `school=` resolved it; `null` site-wide.
    school: Option<String>,
    majors: Vec<Major>,
}

/// The majors of a school (by name or alias), or every major without `school`.
#[utoipa::path(get, path = "/majors", context_path = "/api/v1", tag = "reads",
    params(("school" = Option<String>, Query, description = "学校全称或简称（北大）；省略则列出全站专业")),
    responses(
        (status = 200, body = MajorList, description = "The majors"),
        (status = 400, response = Error),
        (status = 404, response = Error),
    ))]
async fn majors(State(site): State<Arc<Site>>, q: Params) -> Result<Json<MajorList>, JsonError> {
    let q = params(q)?;
    let (school, majors) = site.majors(q.get("school").map(String::as_str))?;
    Ok(Json(MajorList { school, majors }))
}

/// A ranking page as JSON: the page itself, plus the statistics of its
/// whole (school, major) under `stats` (the same on every page and sort).
#[derive(Serialize, ToSchema)]
pub(super) struct RankingAnswer {
    #[serde(flatten)]
    page: RankingPage,
    stats: Option<RankingStats>,
}

/// The ranking of one (school, major), one page of it, with the statistics
/// of the whole ranking.
#[utoipa::path(get, path = "/advisors", context_path = "/api/v1", tag = "reads",
    params(
        ("school" = String, Query, description = "学校全称或简称"),
        ("major" = String, Query, description = "专业名称或简称"),
        ("sort" = Option<SortKey>, Query, description = "排序方式，默认 overall"),
        ("page" = Option<u32>, Query, description = "页码，从 1 开始"),
    ),
    responses(
        (status = 200, body = RankingAnswer, description = "One page of the ranking, and `stats`"),
        (status = 400, response = Error),
        (status = 404, response = Error),
    ))]
async fn advisors(State(site): State<Arc<Site>>, q: Params) -> ApiResult<RankingAnswer> {
    let q = params(q)?;
    let get = |k: &str| q.get(k).map(|s| s.trim()).unwrap_or_default();
    if get("school").is_empty() {
        return Err(JsonError(
            ApiError::bad_request("missing_parameter", "请提供学校名称（school）。")
                .with_field("school"),
        ));
    }
    if get("major").is_empty() {
        return Err(JsonError(
            ApiError::bad_request("missing_parameter", "请提供专业名称（major）。")
                .with_field("major"),
        ));
    }
    let sort = SortKey::from_param(get("sort")).ok_or_else(|| {
        JsonError(
            ApiError::bad_request(
                "invalid_sort",
                "排序方式无效，可选：overall、academic、funding、relationship、prospects、reviews。",
            )
            .with_field("sort"),
        )
    })?;
    let page = page_param(&q)?;
    match site
        .ranking(get("school"), get("major"), sort, page)
        .await?
    {
        RankingView::Ranking(page) => {
            let stats = site
                .ranking_stats_by_name(&page.school, &page.major)
                .await?;
            Ok(Json(RankingAnswer { page, stats }))
        }
        RankingView::ChooseSchool { query, candidates } => Err(JsonError(
            ApiError::bad_request(
                "ambiguous_school",
                format!(
                    "“{query}”可能指：{}。请说出学校全称。",
                    candidates.join("、")
                ),
            )
            .with_field("school"),
        )),
        RankingView::ChooseMajor {
            school,
            unknown_major,
            ..
        } => Err(JsonError(
            ApiError::not_found(
                "unknown_major",
                format!(
                    "{school}没有“{}”专业的导师。",
                    unknown_major.unwrap_or_default()
                ),
            )
            .with_field("major"),
        )),
        RankingView::UnknownSchool { query } => Err(JsonError(
            ApiError::not_found("unknown_school", format!("没有找到“{query}”这所学校。"))
                .with_field("school"),
        )),
    }
}

/// One advisor: averages, histogram, tags, rank and the share who recommend applying.
#[utoipa::path(get, path = "/advisors/{id}", context_path = "/api/v1", tag = "reads",
    params(("id" = String, Path, description = "导师编号（正整数）")),
    responses(
        (status = 200, body = AdvisorDetail, description = "The advisor"),
        (status = 400, response = Error),
        (status = 404, response = Error),
    ))]
async fn advisor(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
) -> ApiResult<AdvisorDetail> {
    let id = advisor_id(&id)?;
    site.advisor_detail(&id)
        .await?
        .map(Json)
        .ok_or_else(unknown_advisor)
}

/// One page of an advisor's published reviews, in the order and with the
/// filter asked for (`?page=&sort=newest|helpful&relation=在读|已毕业|了解&tag=…`).
/// `voted` says whether the client asking said 有用.
#[utoipa::path(get, path = "/advisors/{id}/reviews", context_path = "/api/v1", tag = "reads",
    params(
        ("id" = String, Path, description = "导师编号（正整数）"),
        ("page" = Option<u32>, Query, description = "页码，从 1 开始"),
        ("sort" = Option<ReviewSort>, Query, description = "newest（最新，默认）或 helpful（最有用）"),
        ("relation" = Option<String>, Query, description = "在读、已毕业或了解"),
        ("tag" = Option<String>, Query, description = "只看带这个标签的评价"),
    ),
    responses(
        (status = 200, body = ReviewPage, description = "One page of reviews"),
        (status = 400, response = Error),
        (status = 404, response = Error),
    ))]
async fn reviews(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    q: Params,
) -> ApiResult<ReviewPage> {
    let id = advisor_id(&id)?;
    let q = params(q)?;
    let page = page_param(&q)?;
    let sort_value = q.get("sort").map(String::as_str).unwrap_or_default();
    let sort = ReviewSort::from_param(sort_value).ok_or_else(|| {
        JsonError(
            ApiError::bad_request(
                "invalid_sort",
                "sort 只能是 newest（最新）或 helpful（最有用）。",
            )
            .with_field("sort"),
        )
    })?;
    let query = ReviewQuery {
        page,
        sort,
        relation: q.get("relation").cloned(),
        tag: q.get("tag").cloned(),
    };
    site.reviews(&id, &query, Some(&client.key))
        .await?
        .map(Json)
        .ok_or_else(unknown_advisor)
}

/// `?q=`: advisors by name, pinyin or initials; schools and majors by name
/// or alias. `limit` (1–20) caps the advisors (suggestions ask for a few).
#[utoipa::path(get, path = "/search", context_path = "/api/v1", tag = "reads",
    params(
        ("q" = String, Query, description = "导师姓名、拼音或首字母，学校或专业名称"),
        ("limit" = Option<u32>, Query, description = "最多返回几位导师（1–20，默认 20）"),
    ),
    responses(
        (status = 200, body = SearchResults, description = "What matched (lists may be empty)"),
        (status = 400, response = Error),
    ))]
async fn search(State(site): State<Arc<Site>>, q: Params) -> ApiResult<SearchResults> {
    let q = params(q)?;
    let limit = match q.get("limit").map(|s| s.trim()) {
        None | Some("") => crate::search::MAX_ADVISORS,
        Some(l) => l
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=crate::search::MAX_ADVISORS).contains(n))
            .ok_or_else(|| {
                JsonError(
                    ApiError::bad_request(
                        "invalid_limit",
                        format!(
                            "limit 必须是 1 到 {} 之间的整数。",
                            crate::search::MAX_ADVISORS
                        ),
                    )
                    .with_field("limit"),
                )
            })?,
    };
    let text = q.get("q").map(String::as_str).unwrap_or_default();
    Ok(Json(site.search(text, limit).await?))
}

/// `POST /advisors/{id}/reviews` (protocol "Reviews API"): 201 with the stored
/// review and its edit token, or the broken rule as a 4xx; nothing stored then.
#[utoipa::path(post, path = "/advisors/{id}/reviews", context_path = "/api/v1", tag = "writes",
    params(("id" = String, Path, description = "导师编号（正整数）")),
    request_body = NewReview,
    responses(
        (status = 201, body = PostedReview, description = "The stored review and the token its writer edits or deletes it with (`X-Edit-Token`)"),
        (status = 400, response = Error),
        (status = 403, response = Error),
        (status = 404, response = Error),
        (status = 413, response = Error),
        (status = 429, response = RateLimited),
        (status = 503, response = Error),
    ))]
async fn post_review(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    body: Result<Json<NewReview>, axum::extract::rejection::JsonRejection>,
) -> Result<(axum::http::StatusCode, Json<PostedReview>), JsonError> {
    let id = advisor_id(&id)?;
    let review = super::json_body(
        body,
        "应为 {ratings, tags, text, relation}，评分为 1 到 5 的整数。",
    )?;
    let posted = crate::reviews::submit(&site, &id, review, &client.key).await?;
    Ok((axum::http::StatusCode::CREATED, Json(posted)))
}

/// `?ids=12,34`: two to four advisors side by side, in the order given.
#[utoipa::path(get, path = "/compare", context_path = "/api/v1", tag = "reads",
    params(("ids" = String, Query, description = "2 到 4 个导师编号，逗号分隔（12,34）")),
    responses(
        (status = 200, body = Comparison, description = "The advisors, in the order given"),
        (status = 400, response = Error),
        (status = 404, response = Error),
    ))]
async fn compare(State(site): State<Arc<Site>>, q: Params) -> ApiResult<Comparison> {
    let q = params(q)?;
    let ids = Comparison::split_ids(q.get("ids").map(String::as_str).unwrap_or_default());
    Ok(Json(site.compare(&ids).await?))
}

async fn unknown_endpoint() -> JsonError {
    JsonError(ApiError::not_found("unknown_endpoint", "没有这个接口。"))
}
