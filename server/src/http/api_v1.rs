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
use serde_json::{json, Value};

use app::error::ApiError;
use app::model::{
    AdvisorDetail, Comparison, RankingPage, RankingStats, RankingView, ReviewPage, ReviewQuery,
    ReviewSort, SearchResults, SortKey,
};

use super::client::ClientId;
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

async fn schools(State(site): State<Arc<Site>>) -> Json<Value> {
    Json(json!({ "schools": site.schools() }))
}

async fn majors(State(site): State<Arc<Site>>, q: Params) -> Result<Json<Value>, JsonError> {
    let q = params(q)?;
    let (school, majors) = site.majors(q.get("school").map(String::as_str))?;
    Ok(Json(json!({ "school": school, "majors": majors })))
}

/// A ranking page as JSON: the page itself, plus the statistics of its
/// whole (school, major) under `stats` (the same on every page and sort).
#[derive(Serialize)]
struct RankingAnswer {
    #[serde(flatten)]
    page: RankingPage,
    stats: Option<RankingStats>,
}

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

/// `?page=&sort=newest|helpful&relation=在读|已毕业|了解&tag=…`.
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
async fn post_review(
    State(site): State<Arc<Site>>,
    Path(id): Path<String>,
    client: ClientId,
    body: Result<Json<app::model::NewReview>, axum::extract::rejection::JsonRejection>,
) -> Result<(axum::http::StatusCode, Json<app::model::PostedReview>), JsonError> {
    let id = advisor_id(&id)?;
    let review = super::json_body(
        body,
        "应为 {ratings, tags, text, relation}，评分为 1 到 5 的整数。",
    )?;
    let posted = crate::reviews::submit(&site, &id, review, &client.key).await?;
    Ok((axum::http::StatusCode::CREATED, Json(posted)))
}

/// `?ids=12,34`: two to four advisors side by side, in the order given.
async fn compare(State(site): State<Arc<Site>>, q: Params) -> ApiResult<Comparison> {
    let q = params(q)?;
    let ids = Comparison::split_ids(q.get("ids").map(String::as_str).unwrap_or_default());
    Ok(Json(site.compare(&ids).await?))
}

async fn unknown_endpoint() -> JsonError {
    JsonError(ApiError::not_found("unknown_endpoint", "没有这个接口。"))
}
