//! Charts drawn as inline SVG and CSS: no chart library, no JavaScript needed.

use leptos::prelude::*;

use crate::model::DimensionAverages;

/// Distribution of the overall scores, 5★ on top, as horizontal SVG bars.
#[component]
pub fn Histogram(counts: [i64; 5]) -> impl IntoView {
    const BAR_MAX: f64 = 180.0;
    const ROW: f64 = 26.0;
    let max = counts.iter().copied().max().unwrap_or(0).max(1) as f64;
    let total: i64 = counts.iter().sum();
    let rows = (1..=5usize)
        .rev()
        .enumerate()
        .map(|(row, stars)| {
            let n = counts[stars - 1];
            let y = row as f64 * ROW;
            let width = (n as f64 / max * BAR_MAX).max(if n > 0 { 2.0 } else { 0.0 });
            let pct = if total > 0 { n as f64 * 100.0 / total as f64 } else { 0.0 };
            view! {
                <g class="hist-row" data-stars=stars>
                    <text x="0" y=y + 17.0 class="hist-label">{format!("{stars}★")}</text>
                    <rect x="34" y=y + 5.0 width=BAR_MAX height="16" rx="3" class="hist-track"></rect>
                    <rect x="34" y=y + 5.0 width=format!("{width:.1}") height="16" rx="3" class="hist-bar"></rect>
                    <text x=34.0 + BAR_MAX + 8.0 y=y + 17.0 class="hist-count">
                        {format!("{n}（{pct:.0}%）")}
                    </text>
                </g>
            }
        })
        .collect_view();
    view! {
        <svg
            class="histogram"
            viewBox=format!("0 0 300 {}", ROW * 5.0)
            role="img"
            aria-label=format!("评分分布，共 {total} 条评价")
        >
            {rows}
        </svg>
    }
}

/// The four dimensions students rate, plus the overall score, as bars.
#[component]
pub fn DimensionBars(averages: DimensionAverages) -> impl IntoView {
    let dims = [
        ("学术水平", averages.academic),
        ("科研经费", averages.funding),
        ("师生关系", averages.relationship),
        ("学生前途", averages.prospects),
        ("综合评分", averages.overall),
    ];
    view! {
        <dl class="dimensions">
            {dims
                .into_iter()
                .map(|(label, value)| {
                    let pct = (value / 5.0 * 100.0).clamp(0.0, 100.0);
                    view! {
                        <div class="dimension">
                            <dt>{label}</dt>
                            <dd>
                                <span class="dimension-track">
                                    <span class="dimension-bar" style=format!("width:{pct:.0}%")></span>
                                </span>
                                <span class="dimension-value">{format!("{value:.1}")}</span>
                            </dd>
                        </div>
                    }
                })
                .collect_view()}
        </dl>
    }
}
