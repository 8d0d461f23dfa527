use leptos::prelude::*;

use crate::meta::PageMeta;
use crate::sync_hydrate::IntoAnySync;
use leptos_router::hooks::use_query_map;

use crate::api::search;
use crate::components::Stars;
use crate::model::{SearchResults, SortKey};
use crate::page_context::{PageContextStore, RenderedPageContext};
use crate::pages::{encode, ranking_href};

/// `/search?q=` — advisors by name, pinyin or initials, schools and majors
/// by name or alias. Rendered on the server (works without JavaScript); the
/// advisors found are the page context's visible advisors, so "第一个" in
/// the panel means the first result.
/// The results from the server, for a client-side navigation only (hydration
/// reads what the server rendered): a chunk of its own, like
/// `home::fetch_home`.
async fn fetch_search(
    q: String,
) -> Result<Result<SearchResults, crate::error::ApiError>, ServerFnError> {
    search(q).await
}

#[component]
pub fn SearchPage() -> impl IntoView {
    let store = PageContextStore::expect();
    let query = use_query_map();
    let q = move || query.with(|q| q.get("q").unwrap_or_default());
    let results = Resource::new(q, fetch_search);
    // Keep the page context true: the advisors found are the list on screen.
    Effect::new(move |_| match results.get() {
        Some(Ok(Ok(r))) => store.show_search(&r),
        Some(_) => store.show_search(&SearchResults::default()),
        None => {}
    });

    view! {
        <Suspense fallback=|| view! { <p class="loading">"正在搜索…"</p> }>
            {move || Suspend::new(async move {
                let text = q();
                match results.await {
                    Ok(Ok(r)) => {
                        store.on_server(|s| s.show_search(&r));
                        view! { <Results text results=r/> <RenderedPageContext/> }.into_any_sync()
                    }
                    Ok(Err(e)) => {
                        crate::set_http_status(e.status);
                        let results = SearchResults { query: text.clone(), ..SearchResults::default() };
                        view! {
                            <p class="error" role="alert" data-testid="search-error">{e.info.message.clone()}</p>
                            <Results text results refused=true/>
                        }
                        .into_any_sync()
                    }
                    Err(e) => {
                        crate::set_http_status(503);
                        view! { <p class="error">{format!("搜索失败，请稍后再试（{e}）")}</p> }.into_any_sync()
                    }
                }
            })}
        </Suspense>
    }
}

/// The results and the box to search again; `refused`: the query itself was
/// refused (its message is shown above), so "nothing found" is not said.
#[component]
fn Results(text: String, results: SearchResults, #[prop(optional)] refused: bool) -> impl IntoView {
    let title = if text.trim().is_empty() {
        "搜索导师".to_string()
    } else {
        format!("搜索：{}", text.trim())
    };
    let heading = title.clone();
    let empty = text.trim().is_empty();
    let nothing = !empty && !refused && results.is_empty();
    let advisors = results.advisors.clone();
    let full = advisors.len() >= 20;
    view! {
        <PageMeta title=title description="在导师评价网按导师姓名、拼音或拼音首字母、学校、专业搜索导师。"/>
        <section class="search-page" data-page="search">
            <h1>{heading}</h1>
            <form class="search-again" method="get" action="/search" role="search">
                <label for="search-page-q">"导师姓名、拼音（如 zhangsan、zs）、学校或专业"</label>
                <input id="search-page-q" name="q" type="search" maxlength="50" value=text.clone()/>
                <button type="submit" class="button primary">"搜索"</button>
            </form>
            {empty.then(|| view! { <p class="notice">"输入导师姓名（汉字或拼音、拼音首字母）、学校或专业。"</p> })}
            {nothing.then(|| view! {
                <p class="notice" data-testid="search-empty">
                    {format!("没有找到与「{}」相关的导师、学校或专业。换个写法试试，比如只输入姓，或输入拼音首字母。", text.trim())}
                </p>
            })}
            {(!advisors.is_empty()).then(|| view! {
                <section class="search-advisors">
                    <h2>{format!("导师（{}{} 位）", if full { "前 " } else { "" }, advisors.len())}</h2>
                    <ol class="search-results" data-testid="search-advisors">
                        {advisors.into_iter().map(|a| view! {
                            <li class="search-result" data-advisor-id=a.id.clone()>
                                <a href=format!("/advisor/{}", encode(&a.id)) class="search-result-name">
                                    {a.name.clone()}
                                </a>
                                <span class="advisor-title">{a.title.clone()}</span>
                                <span class="search-result-meta">{format!("{} · {}", a.school, a.major)}</span>
                                <span class="search-result-score">
                                    {(a.review_count > 0).then(|| view! { <Stars rating=a.score count=a.review_count/> })}
                                    {format!("{} 条评价", a.review_count)}
                                </span>
                            </li>
                        }).collect_view()}
                    </ol>
                    {full.then(|| view! { <p class="muted">"只列出最相关的 20 位，输入更完整的姓名可以缩小范围。"</p> })}
                </section>
            })}
            {(!results.schools.is_empty()).then(|| view! {
                <section class="search-schools">
                    <h2>"学校"</h2>
                    <ul class="search-results" data-testid="search-schools">
                        {results.schools.iter().map(|s| view! {
                            <li class="search-result">
                                <a href=ranking_href(&s.name, "", SortKey::Overall, 1)>{s.name.clone()}</a>
                                {(s.matched != s.name).then(|| view! { <span class="suggestion-hint">{format!("（{}）", s.matched)}</span> })}
                                <span class="search-result-meta">{format!("{} 位导师", s.advisor_count)}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                </section>
            })}
            {(!results.majors.is_empty()).then(|| view! {
                <section class="search-majors">
                    <h2>"专业"</h2>
                    <ul class="search-results" data-testid="search-majors">
                        {results.majors.iter().map(|m| view! {
                            <li class="search-result">
                                <strong>{m.name.clone()}</strong>
                                {(m.matched != m.name).then(|| view! { <span class="suggestion-hint">{format!("（{}）", m.matched)}</span> })}
                                <span class="search-result-meta">
                                    {m.schools.iter().map(|s| view! {
                                        <a href=ranking_href(s, &m.name, SortKey::Overall, 1) class="chip-link">{s.clone()}</a>
                                    }).collect_view()}
                                </span>
                            </li>
                        }).collect_view()}
                    </ul>
                </section>
            })}
        </section>
    }
}
