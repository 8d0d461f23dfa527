//! A name aligned to the stretch of a text closest to it: an edit distance
//! with the name matched whole and the stretch free to start and end
//! anywhere.

use super::syllable::{substitution, Syllable};

/// The stretch of `heard` closest to `want`: (start, end, distance,
/// characters the same), with `want` matched whole and the stretch free
/// to start and end anywhere (a semi-global edit distance). `distinct`
/// holds a bit per syllable of `want`, set for its distinctive ones. Ties go to the
/// stretch with more of the name's own characters, then the shorter.
/// `None` when no stretch comes within `limit`: the best distance in a row
/// of the table never falls in the rows below it, so a name already out of
/// reach is left as soon as a row shows it.
pub(super) fn align(
    want: &[Syllable],
    distinct: u16,
    heard: &[Syllable],
    limit: f32,
) -> Option<Aligned> {
    let (n, m) = (want.len(), heard.len());
    if n == 0 || m == 0 {
        return None;
    }
    let better = |a: &Aligned, b: &Aligned| {
        a.distance
            .partial_cmp(&b.distance)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(b.same.cmp(&a.same))
    };
    let fresh = |start: usize, distance: f32| Aligned {
        start,
        end: start,
        distance,
        same: 0,
        heard_distinct: 0,
        distinct_cost: 0.0,
    };
    let mut prev: Vec<Aligned> = (0..=m).map(|j| fresh(j, 0.0)).collect();
    let mut cur = prev.clone();
    for i in 1..=n {
        let own = distinct >> (i - 1) & 1 == 1;
        cur[0] = fresh(0, i as f32);
        for j in 1..=m {
            let sub = substitution(&want[i - 1], &heard[j - 1]);
            let p = &prev[j - 1];
            let diag = Aligned {
                distance: p.distance + sub,
                same: p.same + usize::from(sub == 0.0),
                heard_distinct: p.heard_distinct + usize::from(sub < 1.0 && own),
                distinct_cost: p.distinct_cost + if own { sub } else { 0.0 },
                ..*p
            };
            let up = Aligned {
                distance: prev[j].distance + 1.0,
                distinct_cost: prev[j].distinct_cost + if own { 1.0 } else { 0.0 },
                ..prev[j]
            };
            let left = Aligned {
                distance: cur[j - 1].distance + 1.0,
                ..cur[j - 1]
            };
            let mut best = diag;
            for other in [up, left] {
                if better(&other, &best).is_lt() {
                    best = other;
                }
            }
            cur[j] = best;
        }
        if cur.iter().all(|a| a.distance > limit) {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.into_iter()
        .enumerate()
        .skip(1)
        .map(|(end, a)| Aligned { end, ..a })
        .filter(|a| a.end > a.start)
        .min_by(|a, b| better(a, b).then((a.end - a.start).cmp(&(b.end - b.start))))
}

/// The closest stretch `align` found.
#[derive(Clone, Copy, Debug)]
pub(super) struct Aligned {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) distance: f32,
    /// Characters of the stretch that are the name's own.
    pub(super) same: usize,
    /// The name's distinctive syllables (not 大, 学 and the like) heard.
    pub(super) heard_distinct: usize,
    /// The part of `distance` spent on distinctive syllables.
    pub(super) distinct_cost: f32,
}
