//! Numbers as students say them: Arabic digits ("第1个") or Chinese numerals
//! ("第十一个", "前两个"). Normalisation uses this to turn "第一" into "第1",
//! and the reference reader to read "前三个" and "2号".

/// The ordinal marker 第 ("第一个"): normalisation writes the numeral after
/// it in Arabic digits, and the reference reader starts there.
pub(crate) const ORDINAL_MARK: char = '第';

/// The value of a single Chinese digit character (两 counts as 2).
pub(crate) fn cn_digit(c: char) -> Option<u32> {
    Some(match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn cn_unit(c: char) -> Option<u32> {
    Some(match c {
        '十' => 10,
        '百' => 100,
        '千' => 1000,
        _ => return None,
    })
}

/// Whether `c` can start a Chinese numeral.
pub(crate) fn is_cn_numeral(c: char) -> bool {
    cn_digit(c).is_some() || cn_unit(c).is_some()
}

/// Reads a Chinese numeral at `chars[i..]`: (value, length in chars).
/// "十" → 10, "十一" → 11, "二十" → 20, "一百零五" → 105.
pub(crate) fn parse_cn(chars: &[char], i: usize) -> Option<(u32, usize)> {
    let mut total = 0u32;
    let mut digit: Option<u32> = None;
    let mut j = i;
    while let Some(&c) = chars.get(j) {
        if let Some(d) = cn_digit(c) {
            match digit {
                Some(0) | None => digit = Some(d),
                Some(_) => break,
            }
        } else if let Some(unit) = cn_unit(c) {
            total += digit.unwrap_or(1) * unit;
            digit = None;
        } else {
            break;
        }
        j += 1;
    }
    (j > i).then(|| (total + digit.unwrap_or(0), j - i))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cn(s: &str) -> Option<(u32, usize)> {
        parse_cn(&s.chars().collect::<Vec<_>>(), 0)
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
}
