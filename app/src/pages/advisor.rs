use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::agent_state::AgentOverlay;
use crate::api::{get_advisor, get_reviews};
use crate::components::{
    DeleteMine, DimensionBars, HelpfulButton, Histogram, Pager, Stars, TagList,
};
use crate::model::{AdvisorDetail, ReviewPage, ReviewQuery, ReviewSort, SortKey};
use crate::page_context::{PageContextStore, RenderedPageContext};
use crate::pages::{ranking_href, NotFound};
use crate::vocabulary::RELATIONS;

/// `/advisor/:id?page=&sort=&relation=&tag=` — profile, dimension averages,
/// histogram, tags, 推荐报考 share, and the reviews in the order and with
/// the filter the links chose (links, so they work without JavaScript).
/// The advisor from the server, for a client-side navigation only (hydration
/// reads what the server rendered): a chunk of its own, like
/// `home::fetch_home`.
async fn fetch_advisor(id: String) -> Result<Option<AdvisorDetail>, ServerFnError> {
    get_advisor(id).await
}

/// A page of reviews, the same way.
async fn fetch_reviews(
    id: String,
    query: ReviewQuery,
) -> Result<Option<ReviewPage>, ServerFnError> {
    get_reviews(id, query).await
}

#[component]
pub fn AdvisorPage() -> impl IntoView {
    let store = PageContextStore::expect();
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.with(|p| p.get("id").unwrap_or_default());
    let review_query = move || {
        query.with(|q| ReviewQuery {
            page: q
                .get("page")
                .and_then(|p| p.trim().parse::<u32>().ok())
                .unwrap_or(1)
                .max(1),
            sort: q
                .get("sort")
                .and_then(|s| ReviewSort::from_param(&s))
                .unwrap_or_default(),
            relation: q
                .get("relation")
                .filter(|r| RELATIONS.contains(&r.as_str())),
            tag: q.get("tag").filter(|t| !t.trim().is_empty()),
        })
    };

    // `?posted=<review id>`: a review was just written here; the profile and
    // the reviews are read again so it shows (and its scores count).
    let posted = move || query.with(|q| q.get("posted").or_else(|| q.get("edited")));

    // Data the agent's reply already carried is shown as it came.
    let overlay = AgentOverlay::expect();
    let detail = Resource::new(
        move || (id(), posted()),
        move |(id, _)| async move {
            match overlay.take_detail(&id) {
                Some(ready) => Ok(Some(ready)),
                None => fetch_advisor(id).await,
            }
        },
    );
    let reviews = Resource::new(
        move || (id(), review_query(), posted()),
        move |(id, query, _)| async move {
            // The agent's prefetch is of the plain newest-first pages.
            let plain = query == ReviewQuery::first(query.page);
            match plain
                .then(|| overlay.take_reviews(&id, query.page))
                .flatten()
            {
                Some(ready) => Ok(Some(ready)),
                None => fetch_reviews(id, query).await,
            }
        },
    );

    Effect::new(move |_| {
        if let Some(Ok(Some(d))) = detail.get() {
            store.show_detail(&d);
        }
    });

    view! {
        <Suspense fallback=|| view! { <p class="loading">"正在加载导师信息…"</p> }>
            {move || Suspend::new(async move {
                match detail.await {
                    Ok(Some(d)) => {
                        store.on_server(|s| s.show_detail(&d));
                        let tags = d.tags.iter().take(MAX_TAG_FILTERS).map(|t| t.tag.clone()).collect();
                        view! { <Profile detail=d/> <Reviews reviews tags/> <RenderedPageContext/> }.into_any_sync()
                    }
                    Ok(None) => view! { <NotFound message="没有找到这位导师，可能链接有误。"/> }.into_any_sync(),
                    Err(e) => {
                        crate::set_http_status(503);
                        view! { <p class="error">{format!("导师信息加载失败，请稍后再试（{e}）")}</p> }.into_any_sync()
                    }
                }
            })}
        </Suspense>
    }
}

/// What the page says about the advisor to search engines and previews.
fn advisor_description(d: &AdvisorDetail) -> String {
    let score = match &d.averages {
        Some(a) => format!(
            "{} 条学生评价，平均综合评分 {} 分（满分 5 分）",
            d.review_count,
            crate::text::fixed(a.overall, 1)
        ),
        None => "暂无学生评价".to_string(),
    };
    let directions = if d.directions.is_empty() {
        String::new()
    } else {
        format!("研究方向：{}。", d.directions.join("、"))
    };
    format!(
        "{}，{} {} {}。{score}，附学术水平、科研经费、师生关系、学生前途四维评分和学生原话。{directions}",
        d.name, d.school, d.major, d.title
    )
}

/// Tags offered as filters: the advisor's most frequent.
const MAX_TAG_FILTERS: usize = 8;

#[component]
fn Profile(detail: AdvisorDetail) -> impl IntoView {
    let d = detail;
    let back = ranking_href(&d.school, &d.major, SortKey::Overall, 1);
    let rank = (d.rank > 0).then(|| {
        format!(
            "{} {} 排名第 {} / {}",
            d.school, d.major, d.rank, d.rank_total
        )
    });
    let tags = d
        .tags
        .iter()
        .map(|t| format!("{} ×{}", t.tag, t.count))
        .collect::<Vec<_>>();
    let description = advisor_description(&d);
    view! {
        <PageMeta title=format!("{}（{}）", d.name, d.school) description=description og_type="profile"/>
        <article class="advisor-detail" data-page="detail" data-advisor-id=d.id.clone()>
            <p class="breadcrumb">
                <a href=back>{format!("← {} · {} 导师排行", d.school, d.major)}</a>
            </p>
            <header class="profile">
                <div>
                    <h1>{d.name.clone()} <span class="advisor-title">{d.title.clone()}</span></h1>
                    <p class="profile-meta">{format!("{} · {}", d.school, d.major)}</p>
                    <p class="profile-directions">{format!("研究方向：{}", d.directions.join("、"))}</p>
                </div>
                <div class="profile-score">
                    {d.averages.as_ref().map(|a| view! { <Stars rating=a.overall count=d.review_count/> })}
                    <span class="advisor-reviews">{format!("{} 条评价", d.review_count)}</span>
                    {rank.map(|r| view! { <span class="profile-rank">{r}</span> })}
                    {d.recommend.percent().map(|p| view! {
                        <span class="profile-recommend" data-testid="recommend-share">
                            {format!("{p}% 推荐报考（{} 人回答）", d.recommend.answered)}
                        </span>
                    })}
                </div>
            </header>
            <p class="bio">{d.bio.clone()}</p>
            <p class="write-review">
                <a class="button" href=format!("/advisor/{}/review", d.id) data-testid="write-review">"写评价"</a>
                " "
                <a class="correction-link" href=format!("/correction?about={}", crate::pages::encode(&format!("/advisor/{}", d.id)))>
                    "信息有误？申请更正"
                </a>
            </p>
            <div class="profile-stats">
                <section>
                    <h2>"四维评分"</h2>
                    {match d.averages.clone() {
                        Some(a) => view! { <DimensionBars averages=a/> }.into_any_sync(),
                        None => view! { <p class="notice">"还没有学生评价这位导师。"</p> }.into_any_sync(),
                    }}
                </section>
                <section>
                    <h2>"评分分布"</h2>
                    <Histogram counts=d.histogram/>
                </section>
            </div>
            {(!tags.is_empty()).then(|| view! {
                <section>
                    <h2>"学生标签"</h2>
                    <TagList tags/>
                </section>
            })}
        </article>
    }
}

#[component]
fn Reviews(
    reviews: Resource<Result<Option<ReviewPage>, ServerFnError>>,
    tags: Vec<String>,
) -> impl IntoView {
    view! {
        <section class="reviews" id="reviews">
            <h2>"学生评价"</h2>
            <Transition fallback=|| view! { <p class="loading">"正在加载评价…"</p> }>
                {move || {
                    let tags = tags.clone();
                    Suspend::new(async move {
                        match reviews.await {
                            Ok(Some(p)) => view! { <ReviewControls page=p.clone() tags/> <ReviewList page=p/> }.into_any_sync(),
                            Ok(None) => ().into_any_sync(),
                            Err(e) => view! { <p class="error">{format!("评价加载失败（{e}）")}</p> }.into_any_sync(),
                        }
                    })
                }}
            </Transition>
        </section>
    }
}

/// The detail page's URL of the reviews under `query`.
fn reviews_href(advisor_id: &str, query: &ReviewQuery) -> String {
    let q = query.to_query_string();
    if q.is_empty() {
        format!("/advisor/{advisor_id}#reviews")
    } else {
        format!("/advisor/{advisor_id}?{q}#reviews")
    }
}

/// 排序 and 筛选 as links (each resets to the first page).
#[component]
fn ReviewControls(page: ReviewPage, tags: Vec<String>) -> impl IntoView {
    let id = page.advisor_id.clone();
    let current = page.query.clone();
    let link = {
        let id = id.clone();
        move |q: ReviewQuery, label: String, on: bool| {
            let href = reviews_href(&id, &ReviewQuery { page: 1, ..q });
            view! {
                <a href=href class="chip-link" class:active=on aria-current=on.then_some("true")>{label}</a>
            }
        }
    };
    let sorts = ReviewSort::ALL
        .iter()
        .map(|s| {
            link(
                ReviewQuery {
                    sort: *s,
                    ..current.clone()
                },
                s.label().to_string(),
                current.sort == *s,
            )
        })
        .collect_view();
    let relations = std::iter::once(None)
        .chain(RELATIONS.iter().map(|r| Some(r.to_string())))
        .map(|r| {
            let label = r.clone().unwrap_or_else(|| "全部".to_string());
            let on = current.relation == r;
            link(
                ReviewQuery {
                    relation: r,
                    ..current.clone()
                },
                label,
                on,
            )
        })
        .collect_view();
    let mut tag_options: Vec<Option<String>> = std::iter::once(None)
        .chain(tags.into_iter().map(Some))
        .collect();
    if current.tag.is_some() && !tag_options.contains(&current.tag) {
        tag_options.push(current.tag.clone());
    }
    let tag_links = tag_options
        .into_iter()
        .map(|t| {
            let label = t.clone().unwrap_or_else(|| "全部".to_string());
            let on = current.tag == t;
            link(
                ReviewQuery {
                    tag: t,
                    ..current.clone()
                },
                label,
                on,
            )
        })
        .collect_view();
    view! {
        <nav class="review-controls" aria-label="评价排序与筛选" data-testid="review-controls">
            <p><span class="control-label">"排序"</span>{sorts}</p>
            <p><span class="control-label">"关系"</span>{relations}</p>
            <p><span class="control-label">"标签"</span>{tag_links}</p>
        </nav>
    }
}

#[component]
fn ReviewList(page: ReviewPage) -> impl IntoView {
    let filtered = page.query.relation.is_some() || page.query.tag.is_some();
    if page.reviews.is_empty() {
        let text = if filtered {
            "没有符合筛选条件的评价。"
        } else {
            "暂无评价。"
        };
        return view! { <p class="notice">{text}</p> }.into_any_sync();
    }
    let id = page.advisor_id.clone();
    let base = page.query.clone();
    let page_href = move |p: u32| {
        reviews_href(
            &id,
            &ReviewQuery {
                page: p,
                ..base.clone()
            },
        )
    };
    let (total, current, page_count) = (page.total, page.page, page.page_count());
    let back = page.query.to_query_string();
    let items = page
        .reviews
        .into_iter()
        .map(|r| {
            let recommend = r.recommend.map(|yes| {
                view! {
                    <span class="review-recommend" class:no=!yes>{if yes { "推荐报考" } else { "不推荐报考" }}</span>
                }
            });
            view! {
                // `#review-<id>`: a link (the coach's, after publishing) can point at it.
                <li class="review" id=format!("review-{}", r.id) data-review-id=r.id.clone()>
                    <header class="review-head">
                        <Stars rating=r.overall as f64/>
                        <span class="review-relation">{r.relation.clone()}</span>
                        {recommend}
                        <time class="review-date">{r.created_at.clone()}</time>
                    </header>
                    <p class="review-scores">
                        {format!(
                            "学术 {} · 经费 {} · 师生 {} · 前途 {}",
                            r.academic, r.funding, r.relationship, r.prospects,
                        )}
                    </p>
                    <p class="review-text">{r.text.clone()}</p>
                    <TagList tags=r.tags.clone()/>
                    <div class="review-actions">
                        <HelpfulButton
                            review_id=r.id.clone()
                            advisor_id=r.advisor_id.clone()
                            count=r.helpful
                            voted=r.voted
                            back=back.clone()
                        />
                        // 举报: a plain form, so it works without JavaScript; it
                        // flags the review for the admin and hides nothing.
                        <form class="report-form" method="post" action=format!("/reviews/{}/report", r.id)>
                            <input type="hidden" name="advisor_id" value=r.advisor_id.clone()/>
                            <button type="submit" class="link-button" data-testid="report-button">"举报"</button>
                        </form>
                        <DeleteMine review_id=r.id.clone() advisor_id=r.advisor_id.clone()/>
                    </div>
                </li>
            }
            // One erased type per review: the page's view type stays shallow.
            .into_any_sync()
        })
        .collect_view();
    let query = use_query_map();
    let notice = move || {
        query.with(|q| {
            if q.get("reported").is_some() {
                Some("已举报，管理员会尽快处理。")
            } else if q.get("edited").is_some() {
                Some("评价已修改。")
            } else if q.get("posted").is_some() {
                Some("你的评价已发布。修改码已保存在这个浏览器里，24 小时内可以修改或删除。")
            } else {
                None
            }
        })
    };
    let mut described = vec![format!("共 {total} 条评价")];
    if let Some(r) = &page.query.relation {
        described.push(format!("关系：{r}"));
    }
    if let Some(t) = &page.query.tag {
        described.push(format!("标签：{t}"));
    }
    let order = match page.query.sort {
        ReviewSort::Newest => "最新的在前",
        ReviewSort::Helpful => "觉得有用的人最多的在前",
    };
    view! {
        {move || notice().map(|n| view! { <p class="notice" role="status" data-testid="review-notice">{n}</p> })}
        <p class="reviews-summary" data-testid="reviews-summary">{format!("{}，{order}。", described.join("，"))}</p>
        <ol class="review-list">{items}</ol>
        <Pager
            page=current
            page_count=page_count
            href=page_href
        />
    }
    .into_any_sync()
}
