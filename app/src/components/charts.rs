//! Charts drawn as inline SVG and CSS: no chart library, no JavaScript needed.

use leptos::prelude::*;

use crate::model::DimensionAverages;
use crate::text::{fixed, svg_number};

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
                    <text x="0" y=svg_number(y + 17.0) class="hist-label">{format!("{stars}★")}</text>
                    <rect x="34" y=svg_number(y + 5.0) width=svg_number(BAR_MAX) height="16" rx="3" class="hist-track"></rect>
                    <rect x="34" y=svg_number(y + 5.0) width=fixed(width, 1) height="16" rx="3" class="hist-bar"></rect>
                    <text x=svg_number(34.0 + BAR_MAX + 8.0) y=svg_number(y + 17.0) class="hist-count">
                        {format!("{n}（{}%）", fixed(pct, 0))}
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
                                    <span class="dimension-bar" style=format!("width:{}%", fixed(pct, 0))></span>
                                </span>
                                <span class="dimension-value">{fixed(value, 1)}</span>
                            </dd>
                        </div>
                    }
                })
                .collect_view()}
        </dl>
    }
}

/// Colours of the series of a chart, in order: apart in hue and in
/// lightness, so they still differ for colour-blind readers.
pub const SERIES_COLORS: [&str; 4] = ["#1f5f8b", "#e07a1f", "#2e8b57", "#9b3d8f"];

/// The colour of the `i`-th series (colours repeat past the fourth).
pub fn series_color(i: usize) -> &'static str {
    SERIES_COLORS[i % SERIES_COLORS.len()]
}

/// One advisor on the radar chart. `averages` is `None` without reviews:
/// drawn at 0 and labelled 暂无评价.
#[derive(Clone, Debug, PartialEq)]
pub struct RadarSeries {
    pub name: String,
    pub averages: Option<DimensionAverages>,
}

/// The axes, clockwise from the top, and where each one points.
const RADAR_AXES: [(&str, (f64, f64)); 4] = [
    ("学术水平", (0.0, -1.0)),
    ("科研经费", (1.0, 0.0)),
    ("师生关系", (0.0, 1.0)),
    ("学生前途", (-1.0, 0.0)),
];
const RADAR_CENTER: (f64, f64) = (160.0, 125.0);
const RADAR_RADIUS: f64 = 90.0;
const RADAR_MAX: f64 = 5.0;

/// The four values in axis order (0 for an advisor without reviews).
fn radar_values(averages: Option<&DimensionAverages>) -> [f64; 4] {
    averages.map_or([0.0; 4], |a| {
        [a.academic, a.funding, a.relationship, a.prospects]
    })
}

/// The `points` of a polygon through `values` (0–5) on the four axes.
fn radar_points(values: [f64; 4]) -> String {
    let (cx, cy) = RADAR_CENTER;
    RADAR_AXES
        .iter()
        .zip(values)
        .map(|((_, (dx, dy)), v)| {
            let r = v.clamp(0.0, RADAR_MAX) / RADAR_MAX * RADAR_RADIUS;
            format!("{},{}", fixed(cx + dx * r, 1), fixed(cy + dy * r, 1))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a screen reader says instead of the picture.
fn radar_label(series: &[RadarSeries]) -> String {
    let each = series
        .iter()
        .map(|s| match &s.averages {
            Some(a) => format!(
                "{}：学术水平 {}、科研经费 {}、师生关系 {}、学生前途 {}",
                s.name,
                fixed(a.academic, 1),
                fixed(a.funding, 1),
                fixed(a.relationship, 1),
                fixed(a.prospects, 1)
            ),
            None => format!("{}：暂无评价", s.name),
        })
        .collect::<Vec<_>>()
        .join("；");
    format!("四维评分雷达图（满分 5 分）。{each}")
}

/// The four dimension averages of several advisors on one radar: axes 0–5,
/// grid rings at 1 to 5, one translucent polygon per advisor and a legend.
/// Computed here as plain SVG, so it shows without JavaScript.
#[component]
pub fn RadarChart(series: Vec<RadarSeries>) -> impl IntoView {
    let (cx, cy) = RADAR_CENTER;
    let rings = (1..=5)
        .map(|k| {
            let points = radar_points([k as f64; 4]);
            view! { <polygon class="radar-ring" points=points></polygon> }
        })
        .collect_view();
    let ticks = (1..=5)
        .map(|k| {
            let y = cy - k as f64 / RADAR_MAX * RADAR_RADIUS;
            view! { <text x=svg_number(cx + 4.0) y=svg_number(y + 4.0) class="radar-tick">{k}</text> }
        })
        .collect_view();
    let axes = RADAR_AXES
        .iter()
        .map(|&(label, (dx, dy))| {
            let (x2, y2) = (cx + dx * RADAR_RADIUS, cy + dy * RADAR_RADIUS);
            // Labels sit just beyond the end of their axis, facing away from it.
            let (lx, ly) = (cx + dx * (RADAR_RADIUS + 10.0), cy + dy * (RADAR_RADIUS + 10.0));
            let anchor = match dx {
                d if d > 0.0 => "start",
                d if d < 0.0 => "end",
                _ => "middle",
            };
            let baseline_shift = if dy > 0.0 { 10.0 } else if dy < 0.0 { 0.0 } else { 4.0 };
            view! {
                <line class="radar-axis" x1=svg_number(cx) y1=svg_number(cy) x2=svg_number(x2) y2=svg_number(y2)></line>
                <text x=svg_number(lx) y=svg_number(ly + baseline_shift) text-anchor=anchor class="radar-label">{label}</text>
            }
        })
        .collect_view();
    let polygons = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let color = series_color(i);
            let points = radar_points(radar_values(s.averages.as_ref()));
            view! {
                <polygon
                    data-testid="radar-series"
                    class="radar-series"
                    data-name=s.name.clone()
                    points=points
                    fill=color
                    fill-opacity="0.18"
                    stroke=color
                    stroke-width="2"
                    stroke-linejoin="round"
                ></polygon>
            }
        })
        .collect_view();
    let legend = series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let swatch = format!("background:{}", series_color(i));
            let none = s.averages.is_none();
            view! {
                <li class="radar-legend-item">
                    <span class="radar-swatch" style=swatch></span>
                    {s.name.clone()}
                    {none.then(|| view! { <span class="radar-none">"（暂无评价）"</span> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="radar">
            <svg
                class="radar-chart"
                data-testid="radar-chart"
                viewBox="0 0 320 250"
                role="img"
                aria-label=radar_label(&series)
            >
                <g class="radar-grid">{rings}{axes}{ticks}</g>
                {polygons}
            </svg>
            <figcaption>
                <ul class="radar-legend">{legend}</ul>
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn averages(values: [f64; 4]) -> DimensionAverages {
        DimensionAverages {
            academic: values[0],
            funding: values[1],
            relationship: values[2],
            prospects: values[3],
            overall: 4.0,
        }
    }

    #[test]
    fn radar_points_run_clockwise_from_the_top_and_scale_to_five() {
        // Full marks reach the end of every axis: top, right, bottom, left.
        assert_eq!(
            radar_points([5.0; 4]),
            "160.0,35.0 250.0,125.0 160.0,215.0 70.0,125.0"
        );
        assert_eq!(
            radar_points([1.0, 2.5, 0.0, 4.0]),
            "160.0,107.0 205.0,125.0 160.0,125.0 88.0,125.0"
        );
        // Out-of-range values stay on the chart.
        assert_eq!(radar_points([9.0; 4]), radar_points([5.0; 4]));
        assert_eq!(radar_points([-1.0; 4]), radar_points([0.0; 4]));
    }

    #[test]
    fn an_advisor_without_reviews_sits_at_the_centre_and_is_named_so() {
        assert_eq!(radar_values(None), [0.0; 4]);
        assert_eq!(
            radar_values(Some(&averages([4.6, 4.2, 4.8, 4.5]))),
            [4.6, 4.2, 4.8, 4.5]
        );
        let label = radar_label(&[
            RadarSeries {
                name: "张三".into(),
                averages: Some(averages([4.6, 4.2, 4.8, 4.5])),
            },
            RadarSeries {
                name: "王五".into(),
                averages: None,
            },
        ]);
        assert!(label.contains("张三：学术水平 4.6、科研经费 4.2、师生关系 4.8、学生前途 4.5"));
        assert!(label.contains("王五：暂无评价"));
    }

    #[test]
    fn series_colours_are_distinct_and_repeat_past_four() {
        let colors: std::collections::HashSet<_> = SERIES_COLORS.iter().collect();
        assert_eq!(colors.len(), SERIES_COLORS.len());
        assert_eq!(series_color(4), series_color(0));
    }
}
