//! The school + major search: a plain GET form to `/ranking` that works with
//! JavaScript off, enhanced once hydrated with debounced suggestions that
//! understand the names students use (北大, 上交, 成电 …).

use leptos::prelude::*;
use leptos_router::components::Form;

use crate::model::School;

/// How long typing must pause before suggestions are recomputed.
const DEBOUNCE_MS: u64 = 120;
const MAX_SUGGESTIONS: usize = 6;

/// One suggestion: the text that matched and the canonical school name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub matched: String,
    pub canonical: String,
}

/// Schools whose name or alias matches what was typed: exact alias first, then
/// prefixes, then names that merely contain the text. Case-insensitive for
/// Latin aliases (pku, SJTU).
pub fn suggest(schools: &[School], query: &str) -> Vec<Suggestion> {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(u8, usize, Suggestion)> = Vec::new();
    for (order, school) in schools.iter().enumerate() {
        let names = std::iter::once(&school.name).chain(school.aliases.iter());
        let best = names
            .filter_map(|n| {
                let lower = n.to_lowercase();
                let score = if lower == q {
                    0
                } else if lower.starts_with(&q) {
                    1
                } else if lower.contains(&q) {
                    2
                } else {
                    return None;
                };
                Some((score, n))
            })
            .min_by_key(|(score, _)| *score);
        if let Some((score, matched)) = best {
            scored.push((
                score,
                order,
                Suggestion {
                    matched: matched.clone(),
                    canonical: school.name.clone(),
                },
            ));
        }
    }
    scored.sort_by_key(|(score, order, _)| (*score, *order));
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, s)| s)
        .collect()
}

#[component]
pub fn SearchForm(
    schools: Vec<School>,
    #[prop(optional, into)] school: String,
    #[prop(optional, into)] major: String,
) -> impl IntoView {
    let school_text = RwSignal::new(school);
    let query = RwSignal::new(String::new());
    // A plain handle (Send + Sync), so the component also renders on the
    // server's worker threads; the timer itself only ever runs in the browser.
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let schools = StoredValue::new(schools);
    let suggestions = Memo::new(move |_| schools.with_value(|s| suggest(s, &query.get())));

    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        school_text.set(text.clone());
        // Debounce: only the last keystroke of a burst recomputes suggestions.
        let timeout = set_timeout_with_handle(
            move || query.set(text),
            std::time::Duration::from_millis(DEBOUNCE_MS),
        );
        pending.update_value(|p| {
            if let Some(old) = p.take() {
                old.clear();
            }
            *p = timeout.ok();
        });
    };
    let choose = move |name: String| {
        school_text.set(name);
        query.set(String::new());
    };

    view! {
        <Form method="GET" action="/ranking" attr:class="search-form">
            <div class="search-field search-school">
                <label for="search-school">"学校"</label>
                <input
                    id="search-school"
                    name="school"
                    list="school-names"
                    autocomplete="off"
                    placeholder="如 北京大学、北大、上交"
                    required
                    prop:value=move || school_text.get()
                    on:input=on_input
                />
                <ul class="suggestions" data-testid="school-suggestions" role="listbox">
                    {move || {
                        suggestions
                            .get()
                            .into_iter()
                            .map(|s| {
                                let name = s.canonical.clone();
                                let hint = (s.matched != s.canonical).then(|| format!("（{}）", s.matched));
                                view! {
                                    <li role="option">
                                        <button type="button" on:click=move |_| choose(name.clone())>
                                            {s.canonical.clone()}
                                            <span class="suggestion-hint">{hint}</span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
            <div class="search-field search-major">
                <label for="search-major">"专业"</label>
                <input
                    id="search-major"
                    name="major"
                    autocomplete="off"
                    placeholder="如 计算机、软工、金融"
                    value=major
                />
            </div>
            <button type="submit" class="button primary">"查看导师排行"</button>
            <datalist id="school-names">
                {schools
                    .get_value()
                    .into_iter()
                    .map(|s| view! { <option value=s.name.clone()></option> })
                    .collect_view()}
            </datalist>
        </Form>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn school(name: &str, aliases: &[&str]) -> School {
        School {
            id: name.into(),
            name: name.into(),
            city: String::new(),
            tier: String::new(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            advisor_count: 0,
        }
    }

    #[test]
    fn aliases_suggest_the_canonical_name() {
        let schools = vec![
            school("北京大学", &["北大", "PKU"]),
            school("上海交通大学", &["上交", "交大", "SJTU"]),
            school("西安交通大学", &["西交", "交大"]),
        ];
        let s = suggest(&schools, "北大");
        assert_eq!(s[0].canonical, "北京大学");
        assert_eq!(suggest(&schools, "pku")[0].canonical, "北京大学");
        let jiaoda: Vec<_> = suggest(&schools, "交大")
            .into_iter()
            .map(|s| s.canonical)
            .collect();
        assert_eq!(jiaoda, vec!["上海交通大学", "西安交通大学"]);
        assert!(suggest(&schools, "  ").is_empty());
        assert!(suggest(&schools, "哈佛").is_empty());
    }

    #[test]
    fn exact_matches_come_before_partial_ones() {
        let schools = vec![
            school("北京交通大学", &["北交"]),
            school("北京大学", &["北大"]),
        ];
        let s = suggest(&schools, "北京大学");
        assert_eq!(s[0].canonical, "北京大学");
    }
}
