use crate::text::fixed;
use leptos::prelude::*;

/// A 0–5 rating as five stars (filled to the nearest half) plus the number.
#[component]
pub fn Stars(rating: f64, #[prop(optional)] count: Option<i64>) -> impl IntoView {
    let full = (rating + 0.25).floor().clamp(0.0, 5.0) as usize;
    let half = rating - full as f64 >= 0.25 && full < 5;
    let empty = 5 - full - usize::from(half);
    let label = match count {
        Some(n) => format!("评分 {}，{n} 条评价", fixed(rating, 1)),
        None => format!("评分 {}", fixed(rating, 1)),
    };
    view! {
        <span class="stars" title=label.clone() aria-label=label>
            <span class="stars-full">{"★".repeat(full)}</span>
            {half.then(|| view! { <span class="stars-half">"★"</span> })}
            <span class="stars-empty">{"★".repeat(empty)}</span>
            <span class="stars-number">{fixed(rating, 1)}</span>
        </span>
    }
}

/// Review tags as small chips.
#[component]
pub fn TagList(tags: Vec<String>) -> impl IntoView {
    view! {
        <ul class="tags">
            {tags.into_iter().map(|t| view! { <li class="tag">{t}</li> }).collect_view()}
        </ul>
    }
}
