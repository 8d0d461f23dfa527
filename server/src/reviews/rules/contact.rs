//! Contact details and ID numbers in every form students write them, found
//! in the folded text (so full-width digits, traditional characters and
//! spelled-out numbers are already plain):
//!
//! - numbers ([`numbers`]): runs of digits with separators inside
//!   (`138 1234 5678`, `(010)6275-1234`, `一三九，一二三四，五六七八`) judged by
//!   length and shape — mobile, landline, ID card. Years, amounts, counts,
//!   room numbers are short runs and never match;
//! - after a keyword ([`after_keywords`]): 微信/VX/QQ/扣扣/企鹅/群号 … and a
//!   WeChat id or a 5–12 digit number, 电话/座机/手机 … and a 7–12 digit
//!   number. Only a few joining characters may stand between (`：`, `是`,
//!   `号`, brackets), so "微信群里", "微信回复很快", "QQ 群里发通知" pass;
//! - addresses ([`addresses`]): e-mails with `@`, `#`, `at`, `(at)`, `艾特`
//!   and `.`, `dot`, `点`; links with a scheme; bare domains ending in a
//!   well-known top-level domain (`zhihu.com/…`, `zhangsan点com`). File
//!   names and version numbers (`main.py`, `3.10`) and a few framework
//!   names (`ASP.NET`) are no domains.

use std::sync::OnceLock;

use super::Finding;
use crate::text::fold::{is_digit_separator, Folded};
use crate::text::words::WordSet;
use app::policy::ContentRule;

/// At most this many findings per scanner: the writer sees the first.
const MAX: usize = 20;

const MOBILE: &str = "像是手机号码，请删除个人联系方式。";
const LANDLINE: &str = "像是电话号码，请删除个人联系方式。";
const ID_CARD: &str = "像是身份证号码，请删除个人信息。";
const EMAIL: &str = "像是邮箱地址，请删除个人联系方式。";
const IM: &str = "像是微信号或 QQ 号，请删除个人联系方式。";
const LINK: &str = "像是网址或链接，请删除链接，直接写出你想说的内容。";

/// Top-level domains that make `word.word` a domain. File extensions that
/// are also country codes (py, md, rs, sh, pl) are left out on purpose.
const TLDS: &[&str] = &[
    "com", "cn", "net", "org", "edu", "gov", "io", "me", "cc", "co", "top", "xyz", "info", "tv",
    "ly", "gl", "ai", "app", "dev", "site", "online", "club", "vip", "fun", "link", "biz", "wang",
    "shop", "tech", "hk", "tw", "uk", "jp", "de", "us", "ca", "au", "kr", "sg", "fr", "ru", "eu",
];
/// Mail providers written without their domain ("123456@qq").
const MAIL_PROVIDERS: &[&str] = &[
    "qq", "163", "126", "gmail", "foxmail", "outlook", "hotmail", "sina", "sohu", "yeah", "139",
    "aliyun", "icloud", "yahoo",
];
/// Names that look like domains but are software.
const NOT_DOMAINS: &[&str] = &["asp.net", "ado.net", "vb.net", "socket.io", "node.io"];

fn finding(f: &Folded, rule: ContentRule, start: usize, end: usize, what: &'static str) -> Finding {
    let (start, end) = f.origin(start, end);
    Finding {
        rule,
        start,
        end,
        what,
    }
}

/// Phone and ID-card numbers among the runs of digits of `f.text`.
pub(super) fn numbers(f: &Folded, out: &mut Vec<Finding>) {
    let chars: Vec<(usize, char)> = f.text.char_indices().collect();
    let mut found = 0;
    let mut i = 0;
    while i < chars.len() && found < MAX {
        let c = chars[i].1;
        let plus = c == '+' && chars.get(i + 1).is_some_and(|n| n.1.is_ascii_digit());
        if !(c.is_ascii_digit() || plus) {
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        let mut separated = false;
        let mut end = i + 1;
        let mut j = i + usize::from(plus);
        while j < chars.len() && digits.len() < 24 {
            let c = chars[j].1;
            if c.is_ascii_digit() {
                digits.push(c);
                end = j + 1;
                j += 1;
            } else if c == 'x' && digits.len() == 17 {
                digits.push('X');
                end = j + 1;
                break;
            } else if is_digit_separator(c) && !digits.is_empty() {
                // Up to three separators, then a digit again.
                let gap = chars[j..]
                    .iter()
                    .take(4)
                    .position(|n| !is_digit_separator(n.1));
                match gap {
                    Some(g) if g <= 3 && chars[j + g].1.is_ascii_digit() => {
                        separated = true;
                        j += g;
                    }
                    _ => break,
                }
            } else {
                break;
            }
        }
        let begin = chars[start].0;
        let stop = chars.get(end).map_or(f.text.len(), |c| c.0);
        let national = national(&digits, plus);
        let kind = if is_id_number(&digits) {
            Some((ContentRule::IdNumber, ID_CARD))
        } else if is_mobile(national) {
            Some((ContentRule::Phone, MOBILE))
        } else if is_landline(national, separated) {
            Some((ContentRule::Phone, LANDLINE))
        } else {
            None
        };
        if let Some((code, what)) = kind {
            out.push(finding(f, code, begin, stop, what));
            found += 1;
        }
        i = end.max(i + 1);
    }
}

/// The number without a country code (+86, 0086).
fn national(digits: &str, plus: bool) -> &str {
    if plus {
        return digits.strip_prefix("86").unwrap_or(digits);
    }
    match digits.strip_prefix("0086") {
        Some(rest) if is_mobile(rest) || rest.starts_with('0') => rest,
        _ => digits,
    }
}

fn is_mobile(d: &str) -> bool {
    d.len() == 11 && d.starts_with('1') && matches!(d.as_bytes()[1], b'3'..=b'9')
}

/// An area code (0 + 2–3 digits) and a 7–8 digit number: 010-62751234.
/// Without a separator only the full 11–12 digits starting with 0 count.
fn is_landline(d: &str, separated: bool) -> bool {
    d.starts_with('0') && (10..=12).contains(&d.len()) && (separated || d.len() >= 11)
}

/// 18 characters with a valid GB 11643 check digit, or 15 digits that
/// start like a region code and carry a plausible birth date.
fn is_id_number(d: &str) -> bool {
    if d.len() == 18 {
        const WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
        const CHECK: &[u8; 11] = b"10X98765432";
        let body: Vec<u32> = d[..17].chars().filter_map(|c| c.to_digit(10)).collect();
        if body.len() != 17 {
            return false;
        }
        let sum: u32 = body.iter().zip(WEIGHTS).map(|(a, b)| a * b).sum();
        let check = CHECK[(sum % 11) as usize] as char;
        return d.ends_with(check);
    }
    if d.len() == 15 && d.chars().all(|c| c.is_ascii_digit()) {
        let month: u32 = d[8..10].parse().unwrap_or(0);
        let day: u32 = d[10..12].parse().unwrap_or(0);
        return (1..=12).contains(&month) && (1..=31).contains(&day) && !d.starts_with('0');
    }
    false
}

/// What a keyword announces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Announces {
    /// A WeChat/QQ/… id: letters and digits, or a 5–12 digit number.
    Im,
    /// Only a number (a lone "q").
    ImNumber,
    /// A phone number of 7–12 digits (a landline without its area code).
    Phone,
    /// Either (联系方式, 私聊).
    Any,
}

fn keywords() -> &'static WordSet<Announces> {
    static SET: OnceLock<WordSet<Announces>> = OnceLock::new();
    SET.get_or_init(|| {
        let im = [
            "微信",
            "微信号",
            "微信群号",
            "威信",
            "薇信",
            "徽信",
            "维信",
            "v信",
            "vx",
            "wx",
            "v x",
            "w x",
            "q q",
            "weixin",
            "wechat",
            "加v",
            "v:",
            "加薇",
            "qq",
            "qq号",
            "qq群",
            "qq群号",
            "扣扣",
            "扣扣号",
            "企鹅",
            "企鹅号",
            "q号",
            "群号",
            "钉钉",
            "钉钉号",
            "抖音号",
            "小红书号",
            "微博号",
            "telegram",
        ];
        let phone = [
            "电话",
            "电话号码",
            "手机",
            "手机号",
            "手机号码",
            "座机",
            "联系电话",
            "tel",
            "phone",
            "拨打",
            "号码",
            "call",
        ];
        let any = ["联系方式", "私聊", "私信"];
        let tagged = |words: &[&str], a: Announces| {
            words.iter().map(|w| (w.to_string(), a)).collect::<Vec<_>>()
        };
        let mut all = tagged(&im, Announces::Im);
        all.extend(tagged(&phone, Announces::Phone));
        all.extend(tagged(&any, Announces::Any));
        all.extend(tagged(&["q"], Announces::ImNumber));
        WordSet::new(all)
    })
}

/// What may stand between a keyword and the id: "微信号是：", "QQ（", "VX id:".
fn joins(c: char) -> bool {
    ":=是为号码帐账搜索加同也都我的(){}[]【】「」<>\"',，、#id ".contains(c)
}

/// Ids and numbers announced by a keyword, in the compact text (no
/// separators, so `zhang_san-88` reads `zhangsan88`).
pub(super) fn after_keywords(compact: &Folded, out: &mut Vec<Finding>) {
    let text = compact.text.as_str();
    let mut found = 0;
    for hit in keywords().find(text) {
        if found >= MAX {
            break;
        }
        let rest = &text[hit.end..];
        let gap: usize = rest
            .chars()
            .take(6)
            .take_while(|c| joins(*c))
            .map(char::len_utf8)
            .sum();
        let token_start = hit.end + gap;
        let token = &text[token_start..];
        let first = token.chars().next().unwrap_or(' ');
        let (len, digits) = if first.is_ascii_digit() {
            // Digits, single spaces between groups allowed.
            let mut len = 0;
            let mut digits = 0;
            let b = token.as_bytes();
            while len < b.len() && digits < 20 {
                if b[len].is_ascii_digit() {
                    digits += 1;
                    len += 1;
                } else if b[len] == b' ' && b.get(len + 1).is_some_and(u8::is_ascii_digit) {
                    len += 1;
                } else {
                    break;
                }
            }
            if b.get(len).is_some_and(u8::is_ascii_alphabetic) {
                (0, 0)
            } else {
                (len, digits)
            }
        } else if first.is_ascii_alphabetic() {
            let len = token
                .bytes()
                .take(40)
                .take_while(u8::is_ascii_alphanumeric)
                .count();
            (len, 0)
        } else {
            (0, 0)
        };
        let id = &token[..len];
        let letters_id = digits == 0
            && (5..=30).contains(&len)
            && (len >= 6 || id.bytes().any(|b| b.is_ascii_digit()))
            && id.bytes().any(|b| b.is_ascii_alphabetic());
        let code = match *hit.tag {
            Announces::Im if letters_id || (5..=12).contains(&digits) => {
                Some((ContentRule::Contact, IM))
            }
            Announces::ImNumber if (5..=12).contains(&digits) => Some((ContentRule::Contact, IM)),
            Announces::Phone if (7..=12).contains(&digits) => Some((ContentRule::Phone, LANDLINE)),
            Announces::Any if (7..=12).contains(&digits) => Some((ContentRule::Phone, LANDLINE)),
            Announces::Any if letters_id || (5..=6).contains(&digits) => {
                Some((ContentRule::Contact, IM))
            }
            _ => None,
        };
        if let Some((code, what)) = code {
            // A phone number is shown like any other ("「627…」"); an id
            // from its keyword ("「微信 z…」"), so the id is not repeated.
            let from = if code == ContentRule::Phone {
                token_start
            } else {
                hit.start
            };
            out.push(finding(compact, code, from, token_start + len, what));
            found += 1;
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Word,
    /// `@` (strict) or `#`, `at`, `艾特`.
    At {
        strict: bool,
    },
    /// `.` (strict) or `dot`, `点`, `。`.
    Dot {
        strict: bool,
    },
    Break,
}

/// The text as words, at signs and dots (spaces and brackets skipped).
fn tokens(text: &str) -> Vec<(Tok, usize, usize)> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || "_%+-".contains(c);
    let mut out: Vec<(Tok, usize, usize)> = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let tok = if word_char(c) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, n)) = it.peek() {
                if !word_char(n) {
                    break;
                }
                end = j + n.len_utf8();
                it.next();
            }
            let tok = match &text[i..end] {
                "at" => Tok::At { strict: false },
                "dot" => Tok::Dot { strict: false },
                _ => Tok::Word,
            };
            out.push((tok, i, end));
            continue;
        } else if c.is_whitespace() || "()[]<>{}【】".contains(c) {
            continue;
        } else if c == '@' {
            Tok::At { strict: true }
        } else if c == '#' {
            Tok::At { strict: false }
        } else if c == '艾' && it.peek().is_some_and(|n| n.1 == '特') {
            it.next();
            out.push((Tok::At { strict: false }, i, i + "艾特".len()));
            continue;
        } else if c == '.' {
            Tok::Dot { strict: true }
        } else if c == '点' || c == '。' {
            Tok::Dot { strict: false }
        } else {
            Tok::Break
        };
        // Runs of breaks are one break.
        if !(tok == Tok::Break && out.last().is_some_and(|t| t.0 == Tok::Break)) {
            out.push((tok, i, i + c.len_utf8()));
        }
    }
    out
}

/// `word (dot word)*` from token `i`: the index after it and its labels.
fn dotted(toks: &[(Tok, usize, usize)], text: &str, i: usize) -> (usize, Vec<String>, bool) {
    let mut labels = Vec::new();
    let mut strict = true;
    let mut j = i;
    while j < toks.len() && toks[j].0 == Tok::Word {
        labels.push(text[toks[j].1..toks[j].2].to_string());
        j += 1;
        match toks.get(j) {
            Some((Tok::Dot { strict: s }, ..))
                if toks.get(j + 1).is_some_and(|t| t.0 == Tok::Word) =>
            {
                strict &= *s;
                j += 1;
            }
            _ => break,
        }
    }
    (j, labels, strict)
}

fn is_tld(label: &str) -> bool {
    TLDS.contains(&label)
}

/// E-mail addresses, links and bare domains.
pub(super) fn addresses(f: &Folded, out: &mut Vec<Finding>) {
    let text = f.text.as_str();
    let mut found = 0;
    // Links with a scheme.
    for (i, _) in text.match_indices("://").take(MAX) {
        let scheme_start = text[..i]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphabetic())
            .last()
            .map(|(s, _)| s);
        if let Some(s) = scheme_start {
            if matches!(&text[s..i], "http" | "https" | "ftp") {
                let end = i
                    + 3
                    + text[i + 3..]
                        .bytes()
                        .take_while(|b| b.is_ascii_graphic())
                        .count();
                out.push(finding(f, ContentRule::Link, s, end, LINK));
                found += 1;
            }
        }
    }
    let toks = tokens(text);
    let mut covered_to = 0; // tokens before this index belong to a finding
    let mut i = 0;
    while i < toks.len() && found < MAX {
        if i < covered_to {
            i += 1;
            continue;
        }
        // An e-mail: word (.word)* AT domain.
        if let Tok::At { strict } = toks[i].0 {
            if i > 0 && toks[i - 1].0 == Tok::Word {
                let mut local = i - 1;
                while local >= 2
                    && toks[local - 1].0 == (Tok::Dot { strict: true })
                    && toks[local - 2].0 == Tok::Word
                    && local - 2 >= covered_to
                {
                    local -= 2;
                }
                let (end, labels, dots_strict) = dotted(&toks, text, i + 1);
                let tld = labels.last().map(String::as_str).unwrap_or("");
                let ok = match labels.len() {
                    0 => false,
                    1 => MAIL_PROVIDERS.contains(&tld),
                    _ => {
                        is_tld(tld)
                            || (strict
                                && dots_strict
                                && tld.len() >= 2
                                && tld.bytes().all(|b| b.is_ascii_alphabetic()))
                    }
                };
                if ok {
                    out.push(finding(
                        f,
                        ContentRule::Email,
                        toks[local].1,
                        toks[end - 1].2,
                        EMAIL,
                    ));
                    found += 1;
                    covered_to = end;
                    i = end;
                    continue;
                }
            }
        }
        // A bare domain: word (dot word)+ ending in a known TLD.
        if toks[i].0 == Tok::Word {
            let (end, labels, _) = dotted(&toks, text, i);
            let next_is_at = matches!(toks.get(end), Some((Tok::At { .. }, ..)));
            let name = labels.join(".");
            if labels.len() >= 2
                && labels.last().is_some_and(|t| is_tld(t))
                && !next_is_at
                && !NOT_DOMAINS.contains(&name.as_str())
            {
                out.push(finding(
                    f,
                    ContentRule::Link,
                    toks[i].1,
                    toks[end - 1].2,
                    LINK,
                ));
                found += 1;
                covered_to = end;
                i = end;
                continue;
            }
            if next_is_at {
                // The local part of an e-mail: let the at sign judge it.
                i = end;
                continue;
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
}
