//! Numbers as students say and type them: Arabic digits ("第1个", "3.5"),
//! Chinese numerals ("第十一个", "前两个", "三千", "两万"), and the words a
//! score is given in ("5分", "两分", "四星", "五颗星", "满分", "及格").
//! The agent reads ordinals and counts here, the coach reads scores here;
//! nothing else parses a number out of text.

/// The ordinal marker 第 ("第一个"): normalisation writes the numeral after
/// it in Arabic digits, and the reference reader starts there.
pub(crate) const ORDINAL_MARK: char = '第';

/// The Chinese numeral an Arabic digit is said as ('2' → 二).
pub(crate) fn numeral_of_digit(c: char) -> Option<char> {
    const NUMERALS: [char; 10] = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
    let digit = c.to_digit(10).filter(|_| c.is_ascii_digit())?;
    NUMERALS.get(digit as usize).copied()
}

/// The value of a single Chinese digit character (两 counts as 2).
pub(crate) fn cn_digit(c: char) -> Option<u32> {
    Some(match c {
        '零' | '〇' => 0,
        '一' | '壹' => 1,
        '二' | '两' | '贰' => 2,
        '三' | '叁' => 3,
        '四' | '肆' => 4,
        '五' | '伍' => 5,
        '六' | '陆' => 6,
        '七' | '柒' => 7,
        '八' | '捌' => 8,
        '九' | '玖' => 9,
        _ => return None,
    })
}

fn cn_unit(c: char) -> Option<u32> {
    Some(match c {
        '十' | '拾' => 10,
        '百' | '佰' => 100,
        '千' | '仟' => 1000,
        _ => return None,
    })
}

/// Whether `c` can start a Chinese numeral.
pub(crate) fn is_cn_numeral(c: char) -> bool {
    cn_digit(c).is_some() || cn_unit(c).is_some()
}

/// Reads a Chinese numeral at `chars[i..]`: (value, length in chars).
/// "十" → 10, "十一" → 11, "二十" → 20, "一百零五" → 105, "三千" → 3000,
/// "三千五" → 3500, "两万" → 20000, "一万二" → 12000.
pub(crate) fn parse_cn(chars: &[char], i: usize) -> Option<(u32, usize)> {
    let mut total = 0u32;
    let mut digit: Option<u32> = None;
    let mut last_unit = 0u32;
    let mut j = i;
    while let Some(&c) = chars.get(j) {
        if let Some(d) = cn_digit(c) {
            match digit {
                Some(0) | None => digit = Some(d),
                Some(_) => break,
            }
        } else if let Some(unit) = cn_unit(c) {
            total = total.saturating_add(digit.unwrap_or(1).saturating_mul(unit));
            digit = None;
            last_unit = unit;
        } else if c == '万' && (digit.is_some() || total > 0) {
            total = total
                .saturating_add(digit.unwrap_or(0))
                .saturating_mul(10_000);
            digit = None;
            last_unit = 10_000;
        } else {
            break;
        }
        j += 1;
    }
    // "三千五" is 3500, "一万二" is 12000: a bare digit after a unit is the
    // next place down.
    let tail = match digit {
        Some(d) if last_unit >= 100 && j >= i + 2 && cn_unit(chars[j - 2]).is_some() => {
            d * (last_unit / 10)
        }
        Some(d) if last_unit == 10_000 && j >= i + 2 && chars[j - 2] == '万' => d * 1000,
        Some(d) => d,
        None => 0,
    };
    (j > i).then(|| (total.saturating_add(tail), j - i))
}

/// Reads Arabic digits (at most four) or a Chinese numeral at `chars[i..]`.
pub(crate) fn parse_number(chars: &[char], i: usize) -> Option<(u32, usize)> {
    let digits = chars[i.min(chars.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits > 0 {
        if digits > 4 {
            return None;
        }
        let value = chars[i..i + digits]
            .iter()
            .fold(0u32, |v, c| v * 10 + c.to_digit(10).unwrap_or(0));
        return Some((value, digits));
    }
    parse_cn(chars, i)
}

/// Whether `chars` (a clause, folded) says a monthly sum in the hundreds
/// as little by itself ("一个月只有三百", "每月就发六百", "才八百"): 才, 只,
/// 就 or 仅 right before the amount.
pub fn meagre_monthly(chars: &[char]) -> bool {
    monthly_hundreds(chars).iter().any(|(start, _)| {
        let before = &chars[start.saturating_sub(3)..*start];
        before
            .iter()
            .any(|c| matches!(c, '才' | '只' | '就' | '仅'))
    })
}

/// What follows a number that counts things or parts, not money ("三个",
/// "八百次", "50%"): such a number is no sum.
const COUNTS: [char; 8] = ['%', '个', '次', '人', '篇', '天', '小', '分'];

/// Amounts in the hundreds said per month ("补助每月800", "一个月七八百块"):
/// (start, end) in chars. Such a sum is little, as "几百" is; a sum of
/// thousands ("每月三千") needs a norm. The month must come before the
/// amount, in the same clause ("每个月…", "一个月…", "月补…").
pub fn monthly_hundreds(chars: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts = (c.is_ascii_digit() || cn_digit(c).is_some_and(|d| d > 0))
            && (i == 0
                || !(chars[i - 1].is_ascii_digit()
                    || chars[i - 1] == '.'
                    || is_cn_numeral(chars[i - 1])));
        if !starts {
            i += 1;
            continue;
        }
        // "七八百": two digits before 百 are a range of hundreds.
        let range = cn_digit(c).is_some()
            && chars.get(i + 1).and_then(|n| cn_digit(*n)).is_some()
            && chars.get(i + 2) == Some(&'百');
        let (value, len) = if range {
            (cn_digit(c).unwrap_or(1) * 100, 3)
        } else {
            match parse_number(chars, i) {
                Some(v) => v,
                None => {
                    i += 1;
                    continue;
                }
            }
        };
        let end = i + len;
        let after = chars.get(end).copied();
        let larger = (after == Some('多')
            && chars.get(end + 1).is_some_and(|n| matches!(n, '万' | '千')))
            || after.is_some_and(|a| {
                a.is_ascii_digit()
                    || matches!(a, '.' | '万' | '千' | 'k' | 'w')
                    || COUNTS.contains(&a)
            });
        let month = chars[i.saturating_sub(8)..i].contains(&'月');
        if (100..1000).contains(&value) && !larger && month {
            out.push((i, end));
        }
        i = end;
    }
    out
}

/// Whether `chars` (a clause, folded) says a sum of money per month ("一个月
/// 八百", "每个月两千块", "月补3k"): an amount of a hundred or more after
/// the month, not a count (个, 次, 人, 篇, 天…).
pub fn monthly_sum(chars: &[char]) -> bool {
    (0..chars.len()).any(|i| {
        let c = chars[i];
        let starts = (c.is_ascii_digit() || cn_digit(c).is_some_and(|d| d > 0))
            && (i == 0 || !(chars[i - 1].is_ascii_digit() || is_cn_numeral(chars[i - 1])));
        if !starts || !chars[i.saturating_sub(8)..i].contains(&'月') {
            return false;
        }
        let Some((value, len)) = parse_number(chars, i) else {
            return false;
        };
        let after = chars.get(i + len).copied();
        let thousands = after.is_some_and(|a| matches!(a, '千' | 'k' | '万' | 'w'));
        let count = after
            .is_some_and(|a| COUNTS.contains(&a) || matches!(a, '号' | '点' | '周' | '年' | '遍'));
        (value >= 100 || thousands) && !count
    })
}

/// A score said in words: where it is in the text and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreWord {
    /// 1–5.
    pub value: u8,
    /// Char offsets of the whole expression.
    pub start: usize,
    pub end: usize,
}

/// Words that are a score by themselves, and the score.
const SCORE_WORDS: [(&[char], u8); 10] = [
    (&['满', '星'], 5),
    // "出路那个，打满": the score given full.
    (&['打', '满'], 5),
    (&['给', '满'], 5),
    (&['不', '及', '格'], 2),
    (&['满', '分'], 5),
    (&['及', '格'], 3),
    (&['最', '低', '分'], 1),
    (&['最', '高', '分'], 5),
    (&['零', '分'], 1),
    (&['0', '分'], 1),
];

/// The filled stars of a rating ("★★★★☆", "⭐⭐⭐"), and the empty ones.
const STARS: [char; 2] = ['★', '⭐'];
const EMPTY_STARS: [char; 1] = ['☆'];

/// Whether "一分" ending before `chars[at]` is an amount, not a score:
/// "一分不少", "一分钱", "一分都没有", "一分也没见着".
pub fn a_cent_at(chars: &[char], at: usize) -> bool {
    matches!(chars.get(at), Some('不' | '都' | '也' | '没' | '钱'))
}

/// Every score said in `chars`, in order ("5分", "两分", "4.5分" → 5,
/// "四星", "五颗星", "3/5", "★★★★☆", "满分", "及格"): a number of points on the site's
/// 1–5 scale. "8分" or "3000" are no score (out of range, or not points),
/// and "三个", "两周", "5分钟", "一分钱" are not either.
pub fn scores(chars: &[char]) -> Vec<ScoreWord> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // "★★★★☆", "⭐⭐⭐": the filled stars of a rating are its points.
        if STARS.contains(&chars[i]) && (i == 0 || !STARS.contains(&chars[i - 1])) {
            let filled = chars[i..].iter().take_while(|c| STARS.contains(c)).count();
            let empty = chars[i + filled..]
                .iter()
                .take_while(|c| EMPTY_STARS.contains(c))
                .count();
            if (1..=5).contains(&filled) && filled + empty <= 5 {
                out.push(ScoreWord {
                    value: filled as u8,
                    start: i,
                    end: i + filled + empty,
                });
            }
            i += filled + empty;
            continue;
        }
        if let Some((word, value)) = SCORE_WORDS.iter().find(|(w, _)| chars[i..].starts_with(w)) {
            let len = word.len();
            out.push(ScoreWord {
                value: *value,
                start: i,
                end: i + len,
            });
            i += len;
            continue;
        }
        // A number right after another digit is part of it ("15分").
        let glued = i > 0 && (chars[i - 1].is_ascii_digit() || is_cn_numeral(chars[i - 1]));
        let Some((n, len)) = (!glued).then(|| parse_number(chars, i)).flatten() else {
            i += 1;
            continue;
        };
        let mut j = i + len;
        // "4.5分": rounded half up.
        let mut half = false;
        if chars.get(j) == Some(&'.') && chars.get(j + 1).is_some_and(|c| c.is_ascii_digit()) {
            half = chars[j + 1].to_digit(10).unwrap_or(0) >= 5;
            j += 2;
            while chars.get(j).is_some_and(|c| c.is_ascii_digit()) {
                j += 1;
            }
        }
        let value = n + u32::from(half);
        // The unit after the number: 分, 星, 颗星 / 个星, or "/5".
        let rest = &chars[j.min(chars.len())..];
        let out_of_five =
            rest.starts_with(&['/', '5']) && !rest.get(2).is_some_and(|c| c.is_ascii_digit());
        let unit_len = if rest.starts_with(&['分']) || rest.starts_with(&['星']) {
            Some(1)
        } else if rest.starts_with(&['颗', '星']) || rest.starts_with(&['个', '星']) || out_of_five
        {
            Some(2)
        } else {
            None
        };
        match unit_len {
            Some(u) if (1..=5).contains(&value) => {
                // "5分钟" is time, "一分钱" money, "三分之一" a fraction,
                // "一分不少" / "一分都没有" not a cent.
                let after = j + u;
                // "自己掏过一分", "没花一分": a cent paid, not a point.
                let mut b = i;
                while b > 0 && matches!(chars[b - 1], '过' | '了') {
                    b -= 1;
                }
                let paid = b > 0 && matches!(chars[b - 1], '掏' | '花' | '赚' | '付' | '垫' | '报');
                let not_a_cent = value == 1 && (paid || a_cent_at(chars, after));
                // "一星半点" is "the least bit".
                let least_bit = chars[j] == '星' && chars.get(after) == Some(&'半');
                if matches!(chars.get(after), Some('钟' | '钱' | '之')) || not_a_cent || least_bit
                {
                    i = after;
                    continue;
                }
                // "三分半", "四星半": a half, rounded up as "3.5分" is.
                let (value, after) = if chars.get(after) == Some(&'半') && value < 5 {
                    (value + 1, after + 1)
                } else {
                    (value, after)
                };
                out.push(ScoreWord {
                    value: value as u8,
                    start: i,
                    end: after,
                });
                i = after;
            }
            // "零分" is the lowest score, "零星" is "scattered".
            Some(u) if value == 0 && chars.get(j) == Some(&'分') => {
                out.push(ScoreWord {
                    value: 1,
                    start: i,
                    end: j + u,
                });
                i = j + u;
            }
            _ => i = j.max(i + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_per_month_is_money_and_a_count_per_month_is_not() {
        let said = |s: &str| monthly_sum(&s.chars().collect::<Vec<_>>());
        for s in [
            "一个月八百",
            "每个月两千块",
            "月补3k",
            "一个月1500",
            "一个月三千多",
        ] {
            assert!(said(s), "{s}");
        }
        for s in [
            "一个月见一次",
            "三个月",
            "一个月开两次组会",
            "每月100个样本",
            "八百",
        ] {
            assert!(!said(s), "{s}");
        }
    }

    #[test]
    fn monthly_hundreds_are_found() {
        let at = |s: &str| monthly_hundreds(&s.chars().collect::<Vec<_>>());
        assert_eq!(at("补助每月800"), [(4, 7)]);
        assert_eq!(at("一个月七八百块"), [(3, 6)]);
        assert_eq!(at("每个月补助六百"), [(5, 7)]);
        assert!(at("补助每月3500").is_empty());
        assert!(at("每月800多万").is_empty());
        assert!(at("版面费800").is_empty());
        assert!(at("一个月2.5k").is_empty());
    }

    fn cn(s: &str) -> Option<(u32, usize)> {
        parse_cn(&s.chars().collect::<Vec<_>>(), 0)
    }

    fn sc(s: &str) -> Vec<u8> {
        scores(&s.chars().collect::<Vec<_>>())
            .into_iter()
            .map(|w| w.value)
            .collect()
    }

    #[test]
    fn chinese_numerals() {
        assert_eq!(cn("一个"), Some((1, 1)));
        assert_eq!(cn("十个"), Some((10, 1)));
        assert_eq!(cn("十一"), Some((11, 2)));
        assert_eq!(cn("二十三"), Some((23, 3)));
        assert_eq!(cn("两"), Some((2, 1)));
        assert_eq!(cn("一百零五"), Some((105, 4)));
        assert_eq!(cn("一二"), Some((1, 1)));
        assert_eq!(cn("个"), None);
        assert_eq!(cn("三千"), Some((3000, 2)));
        assert_eq!(cn("三千五"), Some((3500, 3)));
        assert_eq!(cn("两万"), Some((20000, 2)));
        assert_eq!(cn("一万二"), Some((12000, 3)));
        assert_eq!(cn("叁仟"), Some((3000, 2)));
    }

    #[test]
    fn arabic_or_chinese() {
        let v: Vec<char> = "第12个".chars().collect();
        assert_eq!(parse_number(&v, 1), Some((12, 2)));
        let v: Vec<char> = "前三个".chars().collect();
        assert_eq!(parse_number(&v, 1), Some((3, 1)));
        let v: Vec<char> = "123456".chars().collect();
        assert_eq!(parse_number(&v, 0), None);
    }

    #[test]
    fn scores_in_the_words_students_use() {
        assert_eq!(sc("经费改成2分，学术给5分"), vec![2, 5]);
        assert_eq!(sc("学术五分经费两分"), vec![5, 2]);
        assert_eq!(sc("关系四星"), vec![4]);
        assert_eq!(sc("前途五颗星"), vec![5]);
        assert_eq!(sc("给个满分"), vec![5]);
        assert_eq!(sc("打满"), vec![5]);
        assert_eq!(sc("及格吧"), vec![3]);
        assert_eq!(sc("不及格"), vec![2]);
        assert_eq!(sc("4.5分"), vec![5]);
        assert_eq!(sc("3/5"), vec![3]);
        assert_eq!(sc("打0分"), vec![1]);
        assert!(sc("劳务费按时发，一分不少").is_empty());
        assert!(sc("补助一分都没有").is_empty());
        assert!(sc("8分").is_empty());
        assert!(sc("15分").is_empty());
        assert!(sc("等了5分钟").is_empty());
        assert!(sc("补助三千").is_empty());
        assert!(sc("三个学生").is_empty());
        assert!(sc("一分钱都没有").is_empty());
        assert!(sc("从来没让我们自己掏过一分").is_empty());
        assert_eq!(sc("学术给一分"), [1]);
        assert!(sc("只有零星几篇论文").is_empty());
        assert!(sc("一星半点的指导都没有").is_empty());
        assert_eq!(sc("给个五颗星"), [5]);
        assert_eq!(sc("关系给满星"), [5]);
        assert_eq!(sc("学术★★★★★，经费★★★★☆，关系★★☆☆☆"), [5, 4, 2]);
        assert_eq!(sc("前途⭐⭐⭐"), [3]);
    }
}
