//! A review's words: an opening, a fragment for each dimension the writer
//! cares about (chosen by score and by the advisor's traits), one for a tag,
//! a closing; fragments that do not suit the field or the writer's relation
//! are skipped, and a text that repeats an earlier review is redrawn.

use std::collections::BTreeSet;

use super::chars;
use super::drafts::Draft;
use super::rng::Rng;
use super::traits::{Group, Traits};
use crate::demo::catalog_data as data;

/// What a review's text may speak of.
pub(super) struct TextCtx<'a> {
    pub(super) traits: &'a Traits,
    pub(super) directions: &'a [String],
    pub(super) careers: &'static [&'static str],
    /// Laboratory field: fragments about experiments and equipment fit.
    pub(super) lab: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dim {
    Academic,
    Funding,
    Relationship,
    Prospects,
}

const DIMS: [Dim; 4] = [
    Dim::Academic,
    Dim::Funding,
    Dim::Relationship,
    Dim::Prospects,
];

fn fragment_pool(dim: Dim, score: u8, t: &Traits, rng: &mut Rng) -> &'static [&'static str] {
    match (dim, score) {
        (Dim::Academic, 4..) => data::ACADEMIC_POS,
        (Dim::Academic, 3) => data::ACADEMIC_NEU,
        (Dim::Academic, _) => data::ACADEMIC_NEG,
        (Dim::Funding, 4..) => data::FUNDING_POS,
        (Dim::Funding, 3) => data::FUNDING_NEU,
        (Dim::Funding, _) => data::FUNDING_NEG,
        (Dim::Relationship, 4..) if t.group == Group::Free && rng.chance(0.5) => data::REL_POS_FREE,
        (Dim::Relationship, 4..) => data::REL_POS,
        (Dim::Relationship, 3) => data::REL_NEU,
        (Dim::Relationship, _) => match t.group {
            Group::Strict => data::REL_NEG_STRICT,
            Group::Free => data::REL_NEG_FREE,
            Group::Warm => data::REL_NEG_OTHER,
        },
        (Dim::Prospects, 4..) => data::PROSPECTS_POS,
        (Dim::Prospects, 3) => data::PROSPECTS_NEU,
        (Dim::Prospects, _) => data::PROSPECTS_NEG,
    }
}

/// The dimension a tag speaks to, if any: a tag fragment is only added when
/// the text does not already cover that dimension.
fn tag_dim(tag: &str) -> Option<Dim> {
    match tag {
        "经费充足" | "经费一般" | "经费紧张" | "补助高" => Some(Dim::Funding),
        "学术大牛" | "理论型" => Some(Dim::Academic),
        "实习自由" | "毕业顺利" | "推荐信给力" => Some(Dim::Prospects),
        "工程型" | "产业型" => None,
        _ => Some(Dim::Relationship),
    }
}

/// Whether a fragment fits this review: no lab talk outside lab fields, no
/// first person from someone who only knows the group second-hand.
fn suits(fragment: &str, ctx: &TextCtx, relation: &str) -> bool {
    (relation != "了解" || !fragment.contains('我'))
        && (ctx.lab || !data::LAB_WORDS.iter().any(|w| fragment.contains(w)))
}

/// A fragment of `pool` that suits the review, if there is one.
fn pick_suited(
    rng: &mut Rng,
    pool: &[&'static str],
    ctx: &TextCtx,
    relation: &str,
) -> Option<&'static str> {
    if pool.is_empty() {
        return None;
    }
    // Most picks suit at the first try; scanning the whole pool is the
    // fallback for pools where few fragments fit.
    for _ in 0..8 {
        let fragment = rng.pick(pool);
        if suits(fragment, ctx, relation) {
            return Some(fragment);
        }
    }
    let suited: Vec<&'static str> = pool
        .iter()
        .copied()
        .filter(|f| suits(f, ctx, relation))
        .collect();
    if suited.is_empty() {
        None
    } else {
        Some(rng.pick(&suited))
    }
}

/// Fills the placeholders of one fragment.
fn fill(rng: &mut Rng, template: &str, ctx: &TextCtx, funding_score: u8) -> String {
    let mut s = template.to_string();
    if s.contains("{dir}") {
        let d = ctx.directions[rng.below(ctx.directions.len())].as_str();
        s = s.replace("{dir}", d);
    }
    if s.contains("{freq}") {
        let pool = if ctx.traits.group == Group::Free {
            data::FREQ_FEW
        } else if ctx.traits.meetings {
            data::FREQ_MANY
        } else {
            data::FREQ_NORMAL
        };
        s = s.replace("{freq}", rng.pick(pool));
    }
    if s.contains("{stipend}") {
        let pool = match funding_score {
            4.. => data::STIPEND_HIGH,
            3 => data::STIPEND_MID,
            _ => data::STIPEND_LOW,
        };
        s = s.replace("{stipend}", rng.pick(pool));
    }
    if s.contains("{career") {
        let first = rng.below(ctx.careers.len());
        let second = (first + 1 + rng.below(ctx.careers.len() - 1)) % ctx.careers.len();
        s = s
            .replace("{career}", ctx.careers[first])
            .replace("{career2}", ctx.careers[second]);
    }
    s
}

fn compose(rng: &mut Rng, ctx: &TextCtx, d: &Draft) -> String {
    let dim_scores = [d.scores[0], d.scores[1], d.scores[2], d.scores[3]];
    let (fu, ov) = (d.scores[1], d.scores[4]);
    let mut parts: Vec<String> = Vec::new();
    let short = rng.chance(0.1);

    if !short && rng.chance(0.65) {
        let pool = match d.relation {
            "在读" => data::OPEN_CURRENT,
            "已毕业" => data::OPEN_GRADUATED,
            _ => data::OPEN_HEARD,
        };
        if let Some(opening) = pick_suited(rng, pool, ctx, d.relation) {
            parts.push(opening.to_string());
        }
    }

    // Dimensions far from neutral are the ones people write about.
    let n_dims = if short {
        1
    } else {
        2 + usize::from(rng.chance(0.45)) + usize::from(rng.chance(0.1))
    };
    let mut weights: Vec<f64> = dim_scores
        .iter()
        .map(|s| 1.0 + 1.5 * (f64::from(*s) - 3.0).abs())
        .collect();
    let mut covered: Vec<Dim> = Vec::new();
    for _ in 0..n_dims {
        let i = rng.weighted(&weights);
        weights[i] = 0.0;
        covered.push(DIMS[i]);
        let pool = fragment_pool(DIMS[i], dim_scores[i], ctx.traits, rng);
        if let Some(template) = pick_suited(rng, pool, ctx, d.relation) {
            parts.push(fill(rng, template, ctx, fu));
        }
    }

    let fresh: Vec<&'static str> = d
        .tags
        .iter()
        .copied()
        .filter(|t| tag_dim(t).is_none_or(|dim| !covered.contains(&dim)))
        .collect();
    if !fresh.is_empty() && rng.chance(if short { 0.4 } else { 0.7 }) {
        let tag = rng.pick(&fresh);
        if let Some((_, pool)) = data::TAG_FRAGMENTS.iter().find(|(t, _)| *t == tag) {
            if let Some(fragment) = pick_suited(rng, pool, ctx, d.relation) {
                parts.push(fragment.to_string());
            }
        }
    }

    let closings = match ov {
        4.. => data::CLOSE_POS,
        3 => data::CLOSE_NEU,
        _ => data::CLOSE_NEG,
    };
    if rng.chance(0.7) {
        if let Some(closing) = pick_suited(rng, closings, ctx, d.relation) {
            parts.push(closing.to_string());
        }
    }
    let mut text = parts.concat();
    while chars(&text) < 20 {
        let unused: Vec<&'static str> = closings
            .iter()
            .copied()
            .filter(|c| !text.contains(c))
            .collect();
        let closing = pick_suited(rng, &unused, ctx, d.relation).unwrap_or("仅供参考。");
        text.push_str(closing);
    }
    text
}

/// Review text, redrawn while it repeats an earlier review word for word.
pub(super) fn review_text(
    rng: &mut Rng,
    ctx: &TextCtx,
    d: &Draft,
    seen: &mut BTreeSet<String>,
) -> String {
    let mut text = compose(rng, ctx, d);
    for _ in 0..12 {
        if !seen.contains(&text) {
            break;
        }
        text = compose(rng, ctx, d);
    }
    seen.insert(text.clone());
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::advisors::fixed_advisor;

    #[test]
    fn every_pool_suits_every_field_and_relation() {
        let t = fixed_advisor(0, 0, 0).1;
        let directions = vec!["机器学习".to_string()];
        let pools: &[&[&str]] = &[
            data::ACADEMIC_POS,
            data::ACADEMIC_NEU,
            data::ACADEMIC_NEG,
            data::FUNDING_POS,
            data::FUNDING_NEU,
            data::FUNDING_NEG,
            data::REL_POS,
            data::REL_POS_FREE,
            data::REL_NEU,
            data::REL_NEG_STRICT,
            data::REL_NEG_FREE,
            data::REL_NEG_OTHER,
            data::PROSPECTS_POS,
            data::PROSPECTS_NEU,
            data::PROSPECTS_NEG,
            data::CLOSE_POS,
            data::CLOSE_NEU,
            data::CLOSE_NEG,
        ];
        for lab in [true, false] {
            let ctx = TextCtx {
                traits: &t,
                directions: &directions,
                careers: data::MAJORS[0].careers,
                lab,
            };
            for relation in ["在读", "已毕业", "了解"] {
                for pool in pools {
                    let n = pool.iter().filter(|f| suits(f, &ctx, relation)).count();
                    assert!(n >= 2, "{pool:?} for lab={lab}, {relation}");
                }
            }
        }
    }
}
