//! The posting rules, as the best-known Chinese advisor-review site has
//! them: no private data (phone numbers, ID-card numbers, e-mail
//! addresses, private-life details), no insults, no other students named.
//! Each violation says which rule and where. The words are in
//! `server/lexicons/review_rules.txt`; the patterns (numbers, addresses)
//! are here, written so that years, amounts, room numbers and counts are
//! not mistaken for phone or ID numbers.

use std::sync::OnceLock;

use crate::agent::nlu::lexfile;

const LEXICON: &str = include_str!("../../lexicons/review_rules.txt");
const SURNAMES: &str = include_str!("../../lexicons/surnames.txt");

/// A broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// `contains_phone`, `contains_id_number`, `contains_email`,
    /// `private_life`, `insult`, `names_student`.
    pub code: &'static str,
    pub field: &'static str,
    /// Which rule and where, in Chinese.
    pub message: String,
    /// The offending part of the text.
    pub excerpt: String,
}

/// What the rules need to know besides the text.
#[derive(Clone, Debug, Default)]
pub struct RuleContext {
    /// The reviewed advisor may of course be named.
    pub advisor_name: String,
}

#[derive(Default)]
struct Words {
    insult: Vec<String>,
    insult_not: Vec<String>,
    private_life: Vec<String>,
    student_title: Vec<String>,
    not_name: Vec<String>,
    surnames: Vec<String>,
}

fn words() -> &'static Words {
    static WORDS: OnceLock<Words> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut w = Words::default();
        for e in lexfile::parse("review_rules.txt", LEXICON) {
            let list = match e.key.as_str() {
                "insult" => &mut w.insult,
                "insult_not" => &mut w.insult_not,
                "private_life" => &mut w.private_life,
                "student_title" => &mut w.student_title,
                "not_name" => &mut w.not_name,
                other => panic!("review_rules.txt: unknown key {other}"),
            };
            *list = e.terms;
        }
        w.surnames = SURNAMES
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        // Two-character surnames first (欧阳 before 欧).
        w.surnames
            .sort_by_key(|s| std::cmp::Reverse(s.chars().count()));
        w
    })
}

/// "第 12 个字起" — where a match starts, counted in characters from 1.
fn at(text: &str, byte: usize) -> String {
    format!("第 {} 个字起", text[..byte].chars().count() + 1)
}

fn violation(code: &'static str, text: &str, byte: usize, excerpt: &str, what: &str) -> Violation {
    Violation {
        code,
        field: "text",
        message: format!("{}{}，{}", at(text, byte), describe(excerpt), what),
        excerpt: excerpt.to_string(),
    }
}

/// "（138…）": enough of the excerpt to find it, not enough to repeat it.
fn describe(excerpt: &str) -> String {
    let head: String = excerpt.chars().take(3).collect();
    format!("「{head}…」")
}

/// Every rule `text` breaks, in the order of the text.
pub fn check(text: &str, ctx: &RuleContext) -> Vec<Violation> {
    let mut out = Vec::new();
    numbers(text, &mut out);
    emails(text, &mut out);
    let w = words();
    for term in &w.insult {
        for (i, _) in text.match_indices(term.as_str()) {
            let innocent = w.insult_not.iter().any(|n| {
                text.match_indices(n.as_str())
                    .any(|(j, _)| j <= i && i + term.len() <= j + n.len())
            });
            if !innocent {
                out.push(violation(
                    "insult",
                    text,
                    i,
                    term,
                    "请不要使用侮辱性的词语。",
                ));
            }
        }
    }
    // One notice for private life is enough ("家庭住址" also holds "住址").
    let private = w
        .private_life
        .iter()
        .filter_map(|t| text.find(t.as_str()).map(|i| (i, t)))
        .min_by_key(|(i, t)| (*i, std::cmp::Reverse(t.len())));
    if let Some((i, term)) = private {
        out.push(violation(
            "private_life",
            text,
            i,
            term,
            "涉及导师的私生活，请只评价与读研有关的内容。",
        ));
    }
    students(text, ctx, &mut out);
    out.sort_by_key(|v| text.find(&v.excerpt).unwrap_or(0));
    out.dedup_by(|a, b| a.code == b.code && a.excerpt == b.excerpt);
    out
}

/// Phone and ID-card numbers: runs of digits (spaces and dashes inside a run
/// allowed, an X at the end of an ID), judged by length and shape. Years,
/// amounts and counts are short runs and never match.
fn numbers(text: &str, out: &mut Vec<Violation>) {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let plus = c == '+' && chars.get(i + 1).is_some_and(|n| n.1.is_ascii_digit());
        if !(c.is_ascii_digit() || plus) {
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        let mut separated = false;
        let mut j = i;
        while j < chars.len() {
            let c = chars[j].1;
            if c.is_ascii_digit() {
                digits.push(c);
            } else if (c == ' ' || c == '-')
                && chars.get(j + 1).is_some_and(|n| n.1.is_ascii_digit())
                && !digits.is_empty()
            {
                separated = true;
            } else if (c == 'X' || c == 'x') && digits.len() == 17 {
                digits.push('X');
                j += 1;
                break;
            } else if c == '+' && j == start {
            } else {
                break;
            }
            j += 1;
        }
        let begin = chars[start].0;
        let end = chars.get(j).map_or(text.len(), |c| c.0);
        let excerpt = &text[begin..end];
        let national = digits
            .strip_prefix("86")
            .filter(|_| excerpt.starts_with('+'))
            .unwrap_or(&digits);
        if is_id_number(&digits) {
            out.push(violation(
                "contains_id_number",
                text,
                begin,
                excerpt,
                "像是身份证号码，请删除个人信息。",
            ));
        } else if is_mobile(national) {
            out.push(violation(
                "contains_phone",
                text,
                begin,
                excerpt,
                "像是手机号码，请删除个人联系方式。",
            ));
        } else if is_landline(national, separated) {
            out.push(violation(
                "contains_phone",
                text,
                begin,
                excerpt,
                "像是电话号码，请删除个人联系方式。",
            ));
        }
        i = j.max(i + 1);
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

/// `local@domain.tld`, ASCII only ("邮件回复很快" is no address).
fn emails(text: &str, out: &mut Vec<Violation>) {
    let local_char = |c: char| c.is_ascii_alphanumeric() || "._%+-".contains(c);
    let domain_char = |c: char| c.is_ascii_alphanumeric() || ".-".contains(c);
    for (at_pos, _) in text.match_indices('@') {
        let start = text[..at_pos]
            .char_indices()
            .rev()
            .take_while(|(_, c)| local_char(*c))
            .last()
            .map(|(i, _)| i);
        let end = text[at_pos + 1..]
            .char_indices()
            .take_while(|(_, c)| domain_char(*c))
            .last()
            .map(|(i, c)| at_pos + 1 + i + c.len_utf8());
        let (Some(start), Some(end)) = (start, end) else {
            continue;
        };
        let domain = text[at_pos + 1..end].trim_end_matches('.');
        let tld_ok = domain.rsplit_once('.').is_some_and(|(host, tld)| {
            !host.is_empty() && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())
        });
        if tld_ok {
            out.push(violation(
                "contains_email",
                text,
                start,
                &text[start..end],
                "像是邮箱地址，请删除个人联系方式。",
            ));
        }
    }
}

/// Another student by name: 师兄李明, 同学张伟, 王小红同学. The advisor's own
/// name is allowed; "师兄们", "师兄毕业后" are no names.
fn students(text: &str, ctx: &RuleContext, out: &mut Vec<Violation>) {
    let w = words();
    let name_at = |rest: &str| -> Option<String> {
        if w.not_name.iter().any(|n| rest.starts_with(n.as_str())) {
            return None;
        }
        let surname = w.surnames.iter().find(|s| rest.starts_with(s.as_str()))?;
        let given: String = rest[surname.len()..]
            .chars()
            .take_while(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .take(2)
            .collect();
        if given.is_empty() {
            return None;
        }
        // A one-character given name is common; keep two only when the
        // second is not a word of its own ("李明说" → 李明).
        let mut name = format!("{surname}{given}");
        if given.chars().count() == 2 {
            let second = given.chars().nth(1).unwrap_or_default();
            if "说被跟和也都就在是让把对给又还很".contains(second) {
                name = format!("{surname}{}", given.chars().next().unwrap_or_default());
            }
        }
        (name != ctx.advisor_name && !ctx.advisor_name.starts_with(&name)).then_some(name)
    };
    for title in &w.student_title {
        for (i, _) in text.match_indices(title.as_str()) {
            let after = &text[i + title.len()..];
            if let Some(name) = name_at(after) {
                out.push(violation(
                    "names_student",
                    text,
                    i,
                    &format!("{title}{name}"),
                    "请不要写出其他学生的姓名。",
                ));
                continue;
            }
            // "王小红同学": the name right before the title.
            let before: Vec<(usize, char)> = text[..i].char_indices().collect();
            for len in [3usize, 2] {
                if before.len() >= len {
                    let from = before[before.len() - len].0;
                    if let Some(name) = name_at(&text[from..i]) {
                        if name.chars().count() == len {
                            out.push(violation(
                                "names_student",
                                text,
                                from,
                                &format!("{name}{title}"),
                                "请不要写出其他学生的姓名。",
                            ));
                            break;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<&'static str> {
        let ctx = RuleContext {
            advisor_name: "张三".into(),
        };
        check(text, &ctx).into_iter().map(|v| v.code).collect()
    }

    #[test]
    fn each_rule_finds_what_it_is_for() {
        assert_eq!(codes("有问题打我电话13812345678"), ["contains_phone"]);
        assert_eq!(codes("手机 139 1234 5678"), ["contains_phone"]);
        assert_eq!(codes("联系我：186-1234-5678"), ["contains_phone"]);
        assert_eq!(codes("+8613812345678"), ["contains_phone"]);
        assert_eq!(codes("办公室电话010-62751234"), ["contains_phone"]);
        assert_eq!(
            codes("身份证110105199003071234"),
            Vec::<&str>::new(),
            "a wrong check digit"
        );
        assert_eq!(codes("身份证11010519491231002X"), ["contains_id_number"]);
        assert_eq!(codes("邮箱zhangsan@pku.edu.cn"), ["contains_email"]);
        assert_eq!(codes("老师最近在闹离婚"), ["private_life"]);
        assert_eq!(codes("这个老师就是个傻逼"), ["insult"]);
        assert_eq!(codes("师兄李明被他骂哭了"), ["names_student"]);
        assert_eq!(codes("王小红同学因为他延毕了"), ["names_student"]);
        let v = &check("电话13812345678", &RuleContext::default())[0];
        assert!(v.message.starts_with("第 3 个字起"), "{}", v.message);
        assert!(
            !v.message.contains("13812345678"),
            "the number is not repeated"
        );
    }

    #[test]
    fn years_amounts_counts_and_names_of_the_advisor_are_fine() {
        for ok in [
            "老师2019年评上了教授，学术很强",
            "项目经费有300万元，每月补助2000",
            "每周组会3次",
            "去年组里发了13篇论文，被引用1200次",
            "办公室在1203，2023-09-01入学",
            "张三老师人很好，从不压榨学生",
            "老师用邮件沟通，回复很快",
            "师兄们都说老师人很好",
            "师兄毕业后去了大厂",
            "同学们都很喜欢他",
            "垃圾分类做得很好的实验室",
            "学号2023123456",
            "985高校，GPA 3.8",
        ] {
            assert!(codes(ok).is_empty(), "{ok}: {:?}", codes(ok));
        }
    }
}
