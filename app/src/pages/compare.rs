use crate::text::fixed;
use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::use_query_map;

use crate::api::get_comparison;
use crate::components::{series_color, RadarChart, RadarSeries, TagList};
use crate::model::{AdvisorDetail, Comparison, DimensionAverages};
use crate::page_context::{PageContextStore, RenderedPageContext};
use crate::pages::NotFound;
use crate::protocol::PageKind;

/// Tags shown per advisor: the three students chose most often.
const COMPARE_TAGS: usize = 3;

/// `/compare?ids=12,34[,…]` — two to four advisors side by side: a radar of
/// the four dimensions, then a table with the best value of each row marked.
/// The comparison from the server, for a client-side navigation only (hydration
/// reads what the server rendered): a chunk of its own, like
/// `home::fetch_home`.
async fn fetch_comparison(
    ids: String,
) -> Result<Result<Comparison, crate::error::ApiError>, ServerFnError> {
    get_comparison(ids).await
}

#[component]
pub fn ComparePage() -> impl IntoView {
    let store = PageContextStore::expect();
    let query = use_query_map();
    let ids = move || query.with(|q| q.get("ids").unwrap_or_default());
    let data = Resource::new(ids, fetch_comparison);

    // Keep the page context true: the compared advisors are the list that
    // "第一个" and "第二位" refer to.
    Effect::new(move |_| match data.get() {
        Some(Ok(Ok(comparison))) => store.show_compare(&comparison),
        Some(_) => store.show_other(PageKind::Compare),
        None => {}
    });

    view! {
        <Suspense fallback=|| view! { <p class="loading">"正在加载导师对比…"</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok(Ok(comparison)) => {
                        store.on_server(|s| s.show_compare(&comparison));
                        view! { <CompareView comparison/> <RenderedPageContext/> }.into_any_sync()
                    }
                    Ok(Err(e)) if e.status == 404 => {
                        view! { <NotFound message=e.info.message/> }.into_any_sync()
                    }
                    Ok(Err(e)) => {
                        crate::set_http_status(e.status);
                        view! {
                            <PageMeta title="导师对比" description="把几位导师的综合评分、四维评分、推荐比例和标签放在一起比较。"/>
                            <section class="notice" data-page="compare">
                                <h1>"无法对比"</h1>
                                <p class="compare-error">{e.info.message}</p>
                                <p>"在排行页挑选导师后再来对比，例如 /compare?ids=12,34。"</p>
                                <p><a href="/" class="button">"回到首页"</a></p>
                            </section>
                        }
                            .into_any_sync()
                    }
                    Err(e) => {
                        crate::set_http_status(503);
                        view! { <p class="error">{format!("导师对比加载失败，请稍后再试（{e}）")}</p> }.into_any_sync()
                    }
                }
            })}
        </Suspense>
    }
}

/// The marked cells of one row: which values are the best (all of them when
/// tied). Cells without a value (no reviews) are never the best.
fn best_cells(values: &[Option<f64>]) -> Vec<bool> {
    let best = values
        .iter()
        .flatten()
        .copied()
        .fold(None, |acc: Option<f64>, v| {
            Some(acc.map_or(v, |a| a.max(v)))
        });
    values
        .iter()
        .map(|v| matches!((v, best), (Some(v), Some(b)) if (v - b).abs() < 1e-9))
        .collect()
}

/// One numeric row: a label, then each advisor's value (or 暂无评价), the
/// best marked.
fn number_row(label: &'static str, values: Vec<Option<f64>>, shown: Vec<String>) -> impl IntoView {
    let best = best_cells(&values);
    let cells = shown
        .into_iter()
        .zip(best)
        .map(|(text, is_best)| {
            if is_best {
                view! { <td class="compare-best" data-best="true"><strong>{text}</strong></td> }
                    .into_any_sync()
            } else {
                view! { <td>{text}</td> }.into_any_sync()
            }
        })
        .collect_view();
    view! {
        <tr>
            <th scope="row">{label}</th>
            {cells}
        </tr>
    }
}

/// A dimension row: averages are `None` for advisors without reviews.
fn dimension_row(
    label: &'static str,
    advisors: &[AdvisorDetail],
    pick: fn(&DimensionAverages) -> f64,
) -> impl IntoView {
    let values: Vec<Option<f64>> = advisors
        .iter()
        .map(|d| d.averages.as_ref().map(pick))
        .collect();
    let shown = values
        .iter()
        .map(|v| v.map_or_else(|| "暂无评价".to_string(), |v| fixed(v, 1)))
        .collect();
    number_row(label, values, shown)
}

#[component]
fn CompareView(comparison: Comparison) -> impl IntoView {
    let advisors = comparison.advisors;
    let names = advisors.iter().map(|d| d.name.clone()).collect::<Vec<_>>();
    let series = advisors
        .iter()
        .map(|d| RadarSeries {
            name: d.name.clone(),
            averages: d.averages.clone(),
        })
        .collect::<Vec<_>>();
    let heads = advisors
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let swatch = format!("background:{}", series_color(i));
            let name = d.name.clone();
            view! {
                <th scope="col" data-advisor-id=d.id.clone()>
                    <span class="radar-swatch" style=swatch></span>
                    <a href=format!("/advisor/{}", d.id) class="advisor-name">{name}</a>
                    <span class="advisor-title">{d.title.clone()}</span>
                    <span class="compare-meta">{format!("{} · {}", d.school, d.major)}</span>
                </th>
            }
        })
        .collect_view();
    // The Bayesian score exists for everyone, but without reviews it is only
    // the site average: shown as 暂无评价 and never the best.
    let scores: Vec<Option<f64>> = advisors
        .iter()
        .map(|d| (d.review_count > 0).then_some(d.score))
        .collect();
    let score_text = scores
        .iter()
        .map(|v| v.map_or_else(|| "暂无评价".to_string(), |v| fixed(v, 1)))
        .collect();
    let counts: Vec<Option<f64>> = advisors
        .iter()
        .map(|d| (d.review_count > 0).then_some(d.review_count as f64))
        .collect();
    let count_text = advisors
        .iter()
        .map(|d| format!("{} 条", d.review_count))
        .collect();
    let directions = advisors
        .iter()
        .map(|d| {
            let text = if d.directions.is_empty() {
                "—".to_string()
            } else {
                d.directions.join("、")
            };
            view! { <td class="compare-text">{text}</td> }
        })
        .collect_view();
    let tags = advisors
        .iter()
        .map(|d| {
            let top = d
                .tags
                .iter()
                .take(COMPARE_TAGS)
                .map(|t| t.tag.clone())
                .collect::<Vec<_>>();
            view! { <td class="compare-text"><TagList tags=top/></td> }
        })
        .collect_view();
    view! {
        <PageMeta
            title=format!("导师对比：{}", names.join(" · "))
            description=format!("{}：综合评分、四维评分、推荐比例和标签并排比较。", names.join("、"))
        />
        <section class="compare" data-page="compare">
            <h1>"导师对比"</h1>
            <p class="compare-summary">
                {format!("{} 位导师并排比较：{}。", names.len(), names.join("、"))}
                <span class="hint">"综合评分为贝叶斯平均；四维评分为学生打分的平均值，满分 5 分。"</span>
            </p>
            <RadarChart series/>
            <div class="compare-scroll" role="region" aria-label="导师对比表" tabindex="0">
                <table class="compare-table">
                    <thead>
                        <tr>
                            <th scope="col" class="compare-corner">"导师"</th>
                            {heads}
                        </tr>
                    </thead>
                    <tbody>
                        {number_row("综合评分", scores, score_text)}
                        {number_row("评价数量", counts, count_text)}
                        {dimension_row("学术水平", &advisors, |a| a.academic)}
                        {dimension_row("科研经费", &advisors, |a| a.funding)}
                        {dimension_row("师生关系", &advisors, |a| a.relationship)}
                        {dimension_row("学生前途", &advisors, |a| a.prospects)}
                        <tr>
                            <th scope="row">"研究方向"</th>
                            {directions}
                        </tr>
                        <tr>
                            <th scope="row">"学生标签"</th>
                            {tags}
                        </tr>
                    </tbody>
                </table>
            </div>
            <p class="compare-note">"加粗的是该行最高的一项。"</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_value_of_a_row_is_marked_and_ties_share_it() {
        assert_eq!(
            best_cells(&[Some(4.2), Some(4.6), Some(3.9)]),
            vec![false, true, false]
        );
        assert_eq!(
            best_cells(&[Some(4.6), None, Some(4.6)]),
            vec![true, false, true]
        );
        assert_eq!(best_cells(&[None, None]), vec![false, false]);
    }
}
