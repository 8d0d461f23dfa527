use crate::text::fixed;
use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::use_query_map;

use crate::agent_state::AgentOverlay;
use crate::api::{get_ranking, get_ranking_stats};
use crate::components::{Histogram, Pager, Stars, TagList};
use crate::model::{AdvisorRef, Major, RankingPage, RankingStats, RankingView, SortKey};
use crate::page_context::{PageContextStore, RenderedPageContext};
use crate::pages::{compare_href, ranking_href, NotFound};
use crate::protocol::PageKind;

/// `/ranking?school=…&major=…&sort=…&page=…`
#[component]
pub fn RankingPageView() -> impl IntoView {
    let store = PageContextStore::expect();
    let query = use_query_map();
    let params = move || {
        query.with(|q| {
            let school = q.get("school").unwrap_or_default();
            let major = q.get("major").unwrap_or_default();
            let sort = q.get("sort").unwrap_or_default();
            let page = q
                .get("page")
                .and_then(|p| p.trim().parse::<u32>().ok())
                .unwrap_or(1)
                .max(1);
            (school, major, sort, page)
        })
    };
    let overlay = AgentOverlay::expect();
    let data = Resource::new(params, move |(school, major, sort, page)| async move {
        let Some(sort) = SortKey::from_param(&sort) else {
            return Ok(None);
        };
        // A ranking the agent's reply already carried is shown as it came.
        if let Some(ready) = overlay.take_ranking(&school, &major, sort, page) {
            return Ok(Some(RankingView::Ranking(ready)));
        }
        fetch_ranking(school, major, sort, page).await.map(Some)
    });
    // The 数据概览 depends on the school and major only: sorting and paging
    // keep it.
    let stats = Resource::new(
        move || {
            let (school, major, _, _) = params();
            (school, major)
        },
        |(school, major)| fetch_ranking_stats(school, major),
    );

    // Keep the page context true: what is on screen is what the agent sees.
    Effect::new(move |_| match data.get() {
        Some(Ok(Some(RankingView::Ranking(page)))) => store.show_ranking(&page),
        // A choice of school or major: no ranking is on screen.
        Some(_) => {
            store.show_other(PageKind::Ranking);
            store.ranking_filters.set(None);
        }
        // Still loading: the panel marked the ranking it opened.
        None => {}
    });

    view! {
        <Suspense fallback=|| view! { <p class="loading">"正在加载排行…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Some(RankingView::Ranking(page))) => {
                        store.on_server(|s| s.show_ranking(&page));
                        let stats = stats.await;
                        view! { <Ranking page stats/> <RenderedPageContext/> }.into_any_sync()
                    }
                    Ok(Some(RankingView::ChooseSchool { query, candidates })) => {
                        choose_school(query, candidates, params().1)
                    }
                    Ok(Some(RankingView::ChooseMajor { school, unknown_major, majors })) => {
                        choose_major(school, unknown_major, majors)
                    }
                    Ok(Some(RankingView::UnknownSchool { query })) => {
                        let message = if query.trim().is_empty() {
                            "请先输入要查询的学校。".to_string()
                        } else {
                            format!("没有找到“{query}”这所学校，请检查名称，或换个常用叫法试试。")
                        };
                        view! { <NotFound message/> }.into_any_sync()
                    }
                    Ok(None) => {
                        crate::set_http_status(400);
                        view! {
                            <section class="notice" data-page="ranking">
                                <h1>"排序方式无效"</h1>
                                <p>"可选的排序：综合评分、学术水平、科研经费、师生关系、学生前途、评价数量。"</p>
                            </section>
                        }
                            .into_any_sync()
                    }
                    Err(e) => {
                        crate::set_http_status(503);
                        view! { <p class="error">{format!("排行加载失败，请稍后再试（{e}）")}</p> }.into_any_sync()
                    }
                }
            })}
        </Suspense>
    }
}

/// The ranking's data from the server, for a client-side navigation only
/// (hydration reads what the server rendered): a chunk of its own, like
/// `home::fetch_home`.
async fn fetch_ranking(
    school: String,
    major: String,
    sort: SortKey,
    page: u32,
) -> Result<RankingView, ServerFnError> {
    get_ranking(school, major, sort, page).await
}

/// The 数据概览's data, the same way.
async fn fetch_ranking_stats(
    school: String,
    major: String,
) -> Result<Option<RankingStats>, ServerFnError> {
    get_ranking_stats(school, major).await
}

#[component]
fn Ranking(page: RankingPage, stats: Result<Option<RankingStats>, ServerFnError>) -> impl IntoView {
    let overlay = AgentOverlay::expect();
    let title = format!("{} · {} 导师排行", page.school, page.major);
    let offset = (page.page - 1) * page.per_page;
    let sort_tabs = SortKey::ALL
        .into_iter()
        .map(|key| {
            let href = ranking_href(&page.school, &page.major, key, 1);
            let class = if key == page.sort {
                "sort-tab active"
            } else {
                "sort-tab"
            };
            view! { <a href=href class=class data-sort=key.as_param()>{key.label()}</a> }
        })
        .collect_view();
    let rows = page
        .advisors
        .iter()
        .map(|a| {
            let href = format!("/advisor/{}", a.id);
            let id = a.id.clone();
            let recommended = move || overlay.recommendation(&id);
            let is_recommended = {
                let recommended = recommended.clone();
                move || recommended().is_some()
            };
            view! {
                <li
                    class="advisor-row"
                    class:recommended=is_recommended
                    data-advisor-id=a.id.clone()
                    data-rank=a.rank
                >
                    <span class="advisor-rank">{a.rank}</span>
                    <div class="advisor-main">
                        <a href=href class="advisor-name">{a.name.clone()}</a>
                        <span class="advisor-title">{a.title.clone()}</span>
                        <p class="advisor-directions">{a.directions.join(" · ")}</p>
                        <TagList tags=a.top_tags.clone()/>
                        {move || {
                            recommended()
                                .map(|r| {
                                    view! {
                                        <p class="recommend-reasons">
                                            <strong>"推荐理由："</strong>
                                            {r.reasons.join("；")}
                                        </p>
                                    }
                                })
                        }}
                    </div>
                    <div class="advisor-score">
                        <Stars rating=a.rating count=a.review_count/>
                        <span class="advisor-reviews">{format!("{} 条评价", a.review_count)}</span>
                    </div>
                </li>
            }
        })
        .collect_view();
    let (school, major, sort) = (page.school.clone(), page.major.clone(), page.sort);
    let empty = page.advisors.is_empty();
    // The first few on this page side by side, the way students shortlist.
    let shortlist = page
        .advisors
        .iter()
        .take(COMPARE_SHORTLIST)
        .map(|a| a.id.as_str())
        .collect::<Vec<_>>();
    let compare = (shortlist.len() >= 2).then(|| {
        let label = format!("对比本页前 {} 位导师", shortlist.len());
        view! { <a href=compare_href(shortlist) class="compare-link">{label}</a> }
    });
    view! {
        <PageMeta title=title.clone() description=format!(
            "{title}：共 {} 位导师，按{}排序（贝叶斯平均，评价少的导师不会靠几条好评排到前面），附学术水平、科研经费、师生关系、学生前途四维评分和学生评价。",
            page.total,
            page.sort.label(),
        )/>
        <section class="ranking" data-page="ranking">
            <h1>{title}</h1>
            <p class="ranking-summary">
                {format!("共 {} 位导师，按{}排序。", page.total, page.sort.label())}
                <span class="hint">"排名采用贝叶斯平均：评价越少，越向全站平均分收缩。"</span>
            </p>
            <Overview stats/>
            {compare}
            <nav class="sort-tabs" aria-label="排序">{sort_tabs}</nav>
            {empty.then(|| view! { <p class="notice">"这一页没有导师。"</p> })}
            <ol class="advisor-list" start=offset + 1>{rows}</ol>
            <Pager
                page=page.page
                page_count=page.page_count()
                href=move |p| ranking_href(&school, &major, sort, p)
            />
        </section>
    }
}

/// One entry of a "which did you mean" page: where it leads, what it says and
/// a note beside it.
struct Choice {
    href: String,
    label: String,
    meta: Option<String>,
}

/// The school words name several schools: the student chooses one.
fn choose_school(query: String, candidates: Vec<String>, major: String) -> AnyView {
    let choices = candidates
        .into_iter()
        .map(|name| Choice {
            href: ranking_href(&name, &major, SortKey::Overall, 1),
            label: name,
            meta: None,
        })
        .collect();
    view! {
        <Choices title="请选择学校".to_string() heading=format!("“{query}”可能指以下学校") choices/>
    }
    .into_any_sync()
}

/// The school is known and the major is missing or not offered there (a 404
/// then): the student chooses one of its majors.
fn choose_major(school: String, unknown_major: Option<String>, majors: Vec<Major>) -> AnyView {
    let heading = match &unknown_major {
        Some(m) => {
            crate::set_http_status(404);
            format!("{school}暂无“{m}”专业的导师，可以看看这些专业")
        }
        None => format!("{school}：请选择专业"),
    };
    let choices = majors
        .into_iter()
        .map(|m| Choice {
            href: ranking_href(&school, &m.name, SortKey::Overall, 1),
            meta: Some(format!("{} 位导师", m.advisor_count)),
            label: m.name,
        })
        .collect();
    view! {
        <Choices title=format!("{school} · 选择专业") heading choices/>
    }
    .into_any_sync()
}

/// Both choice pages are this one view, so the page's chunk carries one view
/// type for them rather than two.
#[component]
fn Choices(title: String, heading: String, choices: Vec<Choice>) -> impl IntoView {
    view! {
        <PageMeta title=title description=format!("{heading}：选好后查看这所学校、这个专业的导师排行和学生评价。")/>
        <section class="choose" data-page="ranking">
            <h1>{heading}</h1>
            <ul class="choice-list">
                {choices
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li>
                                <a href=c.href class="choice">{c.label}</a>
                                {c.meta.map(|m| view! { <span class="choice-meta">{m}</span> })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

/// How many advisors the ranking's "对比" link puts side by side.
const COMPARE_SHORTLIST: usize = 3;

/// A link to an advisor named in the overview, with the number that put
/// them there (so its text is never the bare name of a ranking row).
fn advisor_link(advisor: &AdvisorRef, value: String) -> impl IntoView {
    let href = format!("/advisor/{}", advisor.id);
    let text = format!("{} · {value}", advisor.name);
    view! { <a href=href>{text}</a> }
}

/// 数据概览: what the reviews of this school and major add up to.
#[component]
fn Overview(stats: Result<Option<RankingStats>, ServerFnError>) -> impl IntoView {
    let stats = match stats {
        Ok(Some(stats)) => stats,
        Ok(None) => return ().into_any_sync(),
        Err(e) => {
            return view! { <p class="error">{format!("数据概览加载失败（{e}）")}</p> }
                .into_any_sync()
        }
    };
    let average = stats
        .average
        .map_or_else(|| "暂无评价".to_string(), |a| format!("{} 分", fixed(a, 1)));
    let most_reviewed = match &stats.most_reviewed {
        Some(a) => advisor_link(a, format!("{} 条评价", a.value as i64)).into_any_sync(),
        None => "暂无评价".into_any_sync(),
    };
    let best = if stats.best.is_empty() {
        view! {
            <p class="stats-none">
                {format!("还没有导师收到 {} 条以上评价，暂不评选各维度最高。", RankingStats::MIN_REVIEWS)}
            </p>
        }
        .into_any_sync()
    } else {
        view! {
            <dl class="stats-best">
                {stats
                    .best
                    .iter()
                    .map(|b| {
                        view! {
                            <div data-dimension=b.dimension.clone()>
                                <dt>{b.label.clone()}</dt>
                                <dd>{advisor_link(&b.advisor, fixed(b.advisor.value, 1))}</dd>
                            </div>
                        }
                    })
                    .collect_view()}
            </dl>
        }
        .into_any_sync()
    };
    view! {
        <section class="ranking-stats" data-testid="ranking-stats" aria-labelledby="ranking-stats-title">
            <h2 id="ranking-stats-title">"数据概览"</h2>
            <div class="stats-grid">
                <dl class="stats-numbers">
                    <div>
                        <dt>"评价总数"</dt>
                        <dd class="stats-reviews">{format!("{} 条", stats.reviews)}</dd>
                    </div>
                    <div>
                        <dt>"平均综合评分"</dt>
                        <dd class="stats-average">{average}</dd>
                    </div>
                    <div>
                        <dt>"评价最多"</dt>
                        <dd class="stats-most">{most_reviewed}</dd>
                    </div>
                </dl>
                <div class="stats-histogram">
                    <h3>"评分分布"</h3>
                    <Histogram counts=stats.histogram/>
                </div>
                <div class="stats-dimensions">
                    <h3>{format!("各维度最高（至少 {} 条评价）", RankingStats::MIN_REVIEWS)}</h3>
                    {best}
                </div>
            </div>
        </section>
    }
    .into_any_sync()
}
