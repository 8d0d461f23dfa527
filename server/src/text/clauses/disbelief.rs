//! A judgement the writer denies in the clause that makes it: the topic of
//! a denial put first ("压榨我倒不觉得", "凶我可没觉得"). `refutes` reads a
//! denial that stands alone as rejecting someone else's words; here the
//! writer's own clause names what is denied, so it is read there, turned.

use super::{is_punctuation, list, FINAL_PARTICLES};

/// How many chars of `chars` the writer denies when the clause ends in
/// their own disbelief after a judgement of its own ("压榨我倒不觉得",
/// "凶我可没觉得"): the judgement, put first as the topic of the denial.
/// `None` when the disbelief stands alone ("我倒不觉得") or comes first
/// ("我不觉得他凶" is read as a negation where it stands).
pub fn denied_before_disbelief(chars: &[char]) -> Option<usize> {
    let text: String = chars.iter().collect();
    let text = text.trim_end_matches(|c| FINAL_PARTICLES.contains(&c) || is_punctuation(c));
    let word = list("disbelief")
        .iter()
        .filter(|w| text.ends_with(w.as_str()))
        .max_by_key(|w| w.len())?;
    let mut before = &text[..text.len() - word.len()];
    while let Some(w) = list("refute_lead")
        .iter()
        .filter(|w| before.ends_with(w.as_str()))
        .max_by_key(|w| w.len())
    {
        before = &before[..before.len() - w.len()];
    }
    let n = before.chars().count();
    (n > 0).then_some(n)
}
