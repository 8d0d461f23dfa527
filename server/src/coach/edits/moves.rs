//! Relative moves of a score as students say them: "高一分", "打低一点",
//! "再高点", "加一颗星", "少一星", "多给一颗星", "降一档", "+1" — a
//! direction, maybe a verb, an amount and its unit.

use super::said::bare;
use crate::text::numbers::parse_number;

/// Words that move a score up or down: "高一分", "加一颗星", "多给一颗星",
/// "上调一档", "+1".
const UP: [&[char]; 8] = [
    &['上', '调'],
    &['高'],
    &['加'],
    &['提'],
    &['升'],
    &['多'],
    &['涨'],
    &['+'],
];
const DOWN: [&[char]; 8] = [
    &['下', '调'],
    &['低'],
    &['减'],
    &['降'],
    &['扣'],
    &['少'],
    &['掉'],
    &['-'],
];
/// A verb between the direction and the amount: "多给一颗星", "扣掉一分",
/// "加上一分", "少打一星".
const SHIFT_VERBS: [char; 4] = ['给', '打', '掉', '上'];
/// The direction word at `chars[i..]`: (sign, its length).
fn direction(chars: &[char], i: usize) -> Option<(i8, usize)> {
    let rest = &chars[i..];
    if let Some(w) = UP.iter().find(|w| rest.starts_with(w)) {
        return Some((1, w.len()));
    }
    DOWN.iter()
        .find(|w| rest.starts_with(w))
        .map(|w| (-1, w.len()))
}

/// A relative change at `chars[i..]`: "高一分", "打低一点", "再高点",
/// "降两分", "加一颗星", "加颗星", "少一星", "多给一颗星", "降一档",
/// "+1" → (points, length).
pub(super) fn relative(chars: &[char], i: usize) -> Option<(i8, usize)> {
    let (sign, len) = direction(chars, i)?;
    let symbol = matches!(chars[i], '+' | '-');
    // "3-4分" is a range, not minus four.
    if symbol && i > 0 && chars[i - 1].is_ascii_digit() {
        return None;
    }
    let mut j = i + len;
    if !symbol && chars.get(j).is_some_and(|c| SHIFT_VERBS.contains(c)) {
        j += 1;
    }
    let mut points: i8 = 1;
    let mut counted = false;
    if let Some((n, l)) = chars.get(j).and_then(|_| parse_number(chars, j)) {
        if (1..=4).contains(&n) {
            points = n as i8;
            j += l;
            counted = true;
        }
    }
    if symbol {
        // "+1", "-1分": a sign and a digit.
        let unit = usize::from(matches!(chars.get(j), Some('分' | '星' | '档')));
        return (counted && chars[i + 1].is_ascii_digit() && bare(chars, j + unit))
            .then(|| (sign * points, j + unit - i));
    }
    // "一颗星", "颗星", "个星", "一个档".
    let measure = matches!(chars.get(j), Some('颗' | '个'));
    if measure {
        j += 1;
    }
    match chars.get(j) {
        Some('分' | '级') if counted || measure => Some((sign * points, j + 1 - i)),
        // "加星", "降档": one star, one step.
        Some('星' | '档') => Some((sign * points, j + 1 - i)),
        Some('点' | '些') if !measure => Some((sign * points, j + 1 - i)),
        _ => None,
    }
}
