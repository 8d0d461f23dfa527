use leptos::prelude::*;

use crate::sync_hydrate::IntoAnySync;

use crate::api::get_home;
use crate::components::SearchForm;
use crate::meta::PageMeta;
use crate::model::SortKey;
use crate::page_context::PageContextStore;
use crate::pages::ranking_href;

/// How many schools the home page shows as "popular".
const POPULAR: usize = 12;

/// The home page's data from the server. Hydration reads what the server
/// rendered and never calls this; only a client-side navigation to the page
/// does, so the request code (the server-function client, its error
/// decoding) is a chunk of its own instead of part of the page's.
async fn fetch_home() -> Result<crate::model::HomeData, ServerFnError> {
    get_home().await
}

#[component]
pub fn HomePage() -> impl IntoView {
    let store = PageContextStore::expect();
    store.show_home();
    let home = Resource::new(|| (), |_| fetch_home());

    view! {
        <PageMeta title="找导师，先看学生怎么说" description="导师评价与推荐：按学校和专业查看导师排行、学生评价，并让语音助手帮你挑选导师。"/>
        <section class="hero" data-page="home">
            <h1>"找导师，先看学生怎么说"</h1>
            <p class="lead">
                "按学校和专业查看导师排行，读在读生和毕业生的真实评价：学术水平、科研经费、师生关系、学生前途。"
                "也可以直接对语音助手说：“我想考北京大学计算机系，想做机器学习，导师温和一点”。"
            </p>
            <Suspense fallback=|| view! { <p class="loading">"加载中…"</p> }>
                {move || Suspend::new(async move {
                    match home.await {
                        Ok(data) => {
                            let stats = format!(
                                "已收录 {} 所学校、{} 位导师、{} 条学生评价",
                                data.school_count, data.advisor_count, data.review_count,
                            );
                            let popular = data.schools.iter().take(POPULAR).cloned().collect::<Vec<_>>();
                            view! {
                                <SearchForm schools=data.schools/>
                                <p class="site-stats">{stats}</p>
                                <section class="popular">
                                    <h2>"热门学校"</h2>
                                    <ul class="school-grid">
                                        {popular
                                            .into_iter()
                                            .map(|s| {
                                                let alias = s.aliases.first().cloned().unwrap_or_default();
                                                view! {
                                                    <li class="school-card">
                                                        <a href=ranking_href(&s.name, "", SortKey::Overall, 1)>
                                                            <strong>{s.name.clone()}</strong>
                                                            <span class="school-meta">
                                                                {format!("{} · {} · {} 位导师", s.city, s.tier, s.advisor_count)}
                                                            </span>
                                                            <span class="school-alias">{alias}</span>
                                                        </a>
                                                    </li>
                                                }
                                            })
                                            .collect_view()}
                                    </ul>
                                </section>
                            }
                                .into_any_sync()
                        }
                        Err(e) => view! { <p class="error">{format!("数据加载失败：{e}")}</p> }.into_any_sync(),
                    }
                })}
            </Suspense>
        </section>
        <section class="how-it-works">
            <h2>"怎么用"</h2>
            <ol class="steps">
                <li><strong>"说出目标"</strong>"：学校和专业，比如“北大计算机”或“浙大软工”。"</li>
                <li><strong>"看排行"</strong>"：按综合评分或某一维度排序，评价少的导师不会靠两条好评排到前面。"</li>
                <li><strong>"读评价"</strong>"：每位导师的四维评分、评分分布、标签和学生原话。"</li>
                <li><strong>"问助手"</strong>"：“第一个导师怎么样？”“他的学生评价呢？”助手看得到你正在看的页面。"</li>
            </ol>
        </section>
    }
}
