//! Where a score is said as a number: after a verb of setting ("改成3",
//! "给个4", "来个五"), alone as its clause's whole say ("还是2吧"), and
//! whether a number stands alone ("改成3，") rather than in a range, a
//! decimal or a fraction ("3-4千", "3.5"). `mod.rs` binds each to its
//! dimension; `moves` reads the relative ones.

use crate::text::numbers::parse_number;
use crate::text::utterance::WordList;

/// Verbs a bare number may follow ("改成3", "给个4", "来个5", "降到2"),
/// and whether the verb needs a link (成 / 为 / 到 / 个) before the number.
const SET_VERBS: [(&[char], bool); 20] = [
    (&['改'], false),
    (&['换'], true),
    (&['调'], true),
    (&['打'], false),
    (&['给'], false),
    (&['评'], false),
    (&['写'], false),
    (&['填'], false),
    (&['设'], true),
    (&['算'], true),
    (&['变'], true),
    (&['弄'], true),
    (&['来'], true),
    (&['整'], true),
    (&['降'], true),
    (&['提'], true),
    (&['升'], true),
    (&['加'], true),
    (&['减'], true),
    (&['='], false),
];
/// What joins a verb of setting to its number: "改成", "改为", "调到",
/// "给个", "来个", "打一个", "改成个".
const LINKS: [&[char]; 3] = [&['成'], &['为'], &['到']];
const MEASURES: [&[char]; 2] = [&['一', '个'], &['个']];
/// Particles a bare number may end on ("改成3吧", "给个4就行").
pub(super) const AFTER_BARE: &str = "吧了啊呀哈嘛呗哦吗就左得算嗯呃额唔";

/// A score that is its clause's whole say ("3吧", "还是2吧", "那就四分"):
/// (where the number starts, its value). Lead words of `settle` before it,
/// a unit and particles after it; a bare number only `after_colon`, after
/// a dimension's name and a colon.
pub(super) fn score_alone(
    chars: &[char],
    settle: &WordList,
    after_colon: bool,
) -> Option<(usize, u32)> {
    let at = settle.skip_run(chars, 0);
    let (n, len) = parse_number(chars, at)?;
    let mut end = at + len;
    if matches!(chars.get(end), Some('分' | '星')) {
        end += 1;
    }
    let rest_is_particles = chars[end..].iter().all(|c| AFTER_BARE.contains(*c));
    // Said as a score: after a settling word, or with a unit or a
    // particle; a number alone is more likely a list's ("2." of a post).
    let as_a_score = at > 0 || end < chars.len() || after_colon;
    ((1..=5).contains(&n) && rest_is_particles && as_a_score).then_some((at, n))
}

/// Whether the number that ends before `chars[at]` stands alone: the text
/// ends, or punctuation or a particle follows ("改成3，", "给个4吧").
/// Not a range, a decimal or a fraction ("3-4千", "3.5", "3/4").
pub(super) fn bare(chars: &[char], at: usize) -> bool {
    let range = "-~～–—./".contains(chars.get(at).copied().unwrap_or(' '))
        && chars.get(at + 1).is_some_and(|c| c.is_ascii_digit());
    !range
        && chars
            .get(at)
            .is_none_or(|c| !c.is_alphanumeric() || AFTER_BARE.contains(*c))
}

/// A number after a verb of setting at `chars[p..]`: "改成3", "给个4",
/// "来个五", "降到2" → (where the number starts, its value). `names` are
/// where a dimension's name starts: a number right before one is bare too
/// ("学术给5经费给2", the space folded away).
pub(super) fn set_by_verb(chars: &[char], p: usize, names: &[usize]) -> Option<(usize, u32)> {
    let rest = &chars[p..];
    let (verb, needs_link) = SET_VERBS.iter().find(|(v, _)| rest.starts_with(v))?;
    let mut at = p + verb.len();
    let mut linked = false;
    if let Some(l) = LINKS.iter().find(|l| chars[at..].starts_with(l)) {
        at += l.len();
        linked = true;
    }
    // Try with a measure first ("给个4", "打一个3"), then without.
    let measured = MEASURES
        .iter()
        .find(|m| chars[at..].starts_with(m))
        .map(|m| at + m.len());
    for (start, needs) in [(measured, false), (Some(at), true)] {
        let Some(start) = start else { continue };
        if needs && *needs_link && !linked {
            continue;
        }
        if let Some((n, len)) = parse_number(chars, start) {
            if (1..=5).contains(&n) && (bare(chars, start + len) || names.contains(&(start + len)))
            {
                return Some((start, n));
            }
        }
    }
    None
}
