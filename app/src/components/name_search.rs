//! The header's search box, on every page: a plain GET form to `/search`
//! (works with JavaScript off), enhanced once hydrated with debounced
//! suggestions from the same search (advisors by name, pinyin or
//! initials; schools by name or alias), reachable by keyboard (↓/↑ move,
//! Enter opens, Escape closes).

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::api::search;
use crate::model::SearchResults;
use crate::pages::encode;

/// How long typing must pause before suggestions are fetched.
const DEBOUNCE_MS: u64 = 200;
const MAX_ADVISOR_SUGGESTIONS: usize = 6;
const MAX_SCHOOL_SUGGESTIONS: usize = 3;

/// One suggestion: where it leads and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub href: String,
    pub label: String,
    pub detail: String,
}

/// The suggestions of some results: advisors first, then schools.
pub fn suggestions(results: &SearchResults) -> Vec<Suggestion> {
    let advisors = results
        .advisors
        .iter()
        .take(MAX_ADVISOR_SUGGESTIONS)
        .map(|a| Suggestion {
            href: format!("/advisor/{}", encode(&a.id)),
            label: format!("{} {}", a.name, a.title),
            detail: format!("{} · {} · {} 条评价", a.school, a.major, a.review_count),
        });
    let schools = results
        .schools
        .iter()
        .take(MAX_SCHOOL_SUGGESTIONS)
        .map(|s| Suggestion {
            href: format!("/ranking?school={}", encode(&s.name)),
            label: s.name.clone(),
            detail: format!("学校 · {} 位导师", s.advisor_count),
        });
    advisors.chain(schools).collect()
}

/// The suggestions for what was typed (none when the search fails). In
/// the pages' data chunk (`crate::split`): the search's request and its
/// results' deserializer arrive when the student first types here.
async fn suggest(q: String) -> Vec<Suggestion> {
    match search(q).await {
        Ok(Ok(r)) => suggestions(&r),
        _ => Vec::new(),
    }
}

#[component]
pub fn NameSearch() -> impl IntoView {
    let text = RwSignal::new(String::new());
    let found = RwSignal::new(Vec::<Suggestion>::new());
    let active = RwSignal::new(None::<usize>);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    // Answers may arrive out of order: only the latest request's counts.
    let generation = StoredValue::new(0u64);

    let on_input = move |ev: leptos::ev::Event| {
        let q = event_target_value(&ev);
        text.set(q.clone());
        let timeout = set_timeout_with_handle(
            move || {
                generation.update_value(|g| *g += 1);
                let mine = generation.get_value();
                if q.trim().is_empty() {
                    found.set(Vec::new());
                    return;
                }
                spawn_local(async move {
                    let list = suggest(q).await;
                    if generation.get_value() == mine {
                        active.set(None);
                        found.set(list);
                    }
                });
            },
            std::time::Duration::from_millis(DEBOUNCE_MS),
        );
        pending.update_value(|p| {
            if let Some(old) = p.take() {
                old.clear();
            }
            *p = timeout.ok();
        });
    };
    let navigate = leptos_router::hooks::use_navigate();
    let close = move || {
        found.set(Vec::new());
        active.set(None);
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let n = found.with_untracked(Vec::len);
        match ev.key().as_str() {
            "ArrowDown" if n > 0 => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(0, |i| (i + 1) % n)));
            }
            "ArrowUp" if n > 0 => {
                ev.prevent_default();
                active.update(|a| *a = Some(a.map_or(n - 1, |i| (i + n - 1) % n)));
            }
            "Enter" => {
                if let Some(s) = active
                    .get_untracked()
                    .and_then(|i| found.with_untracked(|f| f.get(i).cloned()))
                {
                    ev.prevent_default();
                    close();
                    navigate(&s.href, Default::default());
                }
            }
            "Escape" => close(),
            _ => {}
        }
    };

    view! {
        <form class="name-search" method="get" action="/search" role="search" data-testid="name-search">
            <label for="name-search-q" class="visually-hidden">"搜索导师、学校或专业"</label>
            <input
                id="name-search-q"
                name="q"
                type="search"
                autocomplete="off"
                placeholder="搜导师姓名 / 拼音 / 学校"
                maxlength="50"
                role="combobox"
                aria-autocomplete="list"
                aria-controls="name-search-list"
                aria-expanded=move || if found.with(Vec::is_empty) { "false" } else { "true" }
                aria-activedescendant=move || active.get().map(|i| format!("name-search-option-{i}"))
                prop:value=move || text.get()
                on:input=on_input
                on:keydown=on_keydown
            />
            <button type="submit" class="name-search-button" aria-label="搜索">
                {crate::components::icons::search()}
            </button>
            <ul
                id="name-search-list"
                class="name-suggestions"
                role="listbox"
                aria-label="搜索建议"
                data-testid="name-suggestions"
                hidden=move || found.with(Vec::is_empty)
            >
                {move || {
                    found
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, s)| {
                            view! {
                                <li
                                    role="option"
                                    id=format!("name-search-option-{i}")
                                    aria-selected=move || if active.get() == Some(i) { "true" } else { "false" }
                                >
                                    <a href=s.href.clone() on:click=move |_| close()>
                                        <span class="suggestion-label">{s.label.clone()}</span>
                                        <span class="suggestion-hint">{s.detail.clone()}</span>
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AdvisorHit, SchoolHit};

    #[test]
    fn advisors_come_first_then_schools_each_with_its_link() {
        let results = SearchResults {
            query: "北".into(),
            advisors: vec![AdvisorHit {
                id: "7".into(),
                name: "北辰".into(),
                title: "教授".into(),
                school: "北京大学".into(),
                major: "计算机科学与技术".into(),
                score: 4.2,
                review_count: 3,
                matched: "start".into(),
            }],
            schools: vec![SchoolHit {
                name: "北京大学".into(),
                matched: "北大".into(),
                advisor_count: 120,
            }],
            majors: vec![],
        };
        let s = suggestions(&results);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].href, "/advisor/7");
        assert!(s[0].detail.contains("3 条评价"));
        assert_eq!(
            s[1].href,
            "/ranking?school=%E5%8C%97%E4%BA%AC%E5%A4%A7%E5%AD%A6"
        );
    }
}
