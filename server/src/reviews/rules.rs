//! The posting rules, as the best-known Chinese advisor-review site has
//! them: no private data (phone numbers, WeChat/QQ ids, e-mail addresses,
//! links, ID-card numbers, private-life details), no serious accusation
//! that rests on hearsay, no insults, no other students named. Each
//! violation says which rule and where, without repeating the data.
//!
//! Why it is built this way:
//! - People write around word lists (full-width digits, 繁體, 一三八…,
//!   "傻 逼", "zhangsan at pku dot edu dot cn"), so the text is folded to
//!   one spelling first (`crate::text::fold`) and every rule reads the
//!   folded text; a map back keeps each finding on the writer's own
//!   characters ("第 9 个字起「一三八…」").
//! - A review site lives next to defamation: a leaked phone number or a
//!   published rumour about someone's private life is what gets it shut
//!   down, so contact details are searched in all their forms
//!   ([`contact`]) and private life by pattern, not only by word (和…关系暧昧,
//!   住在…小区, 听说 + family or health).
//! - `hearsay`: a serious accusation (造假, 抄袭, 性骚扰, 贪污 …) that rests on
//!   听说/据说 in the same sentence is refused, not held for review: a
//!   moderator cannot check a rumour either, and the writer can still say
//!   what they saw themselves.
//! - Every check is linear in the length of the text: word lists are one
//!   Aho–Corasick pass (`crate::text::words`), patterns look a bounded
//!   number of characters around a match, and at most a few findings per
//!   rule are kept. Length limits are checked before (`submit.rs`); the
//!   rules themselves refuse nothing for length.
//!
//! Here: [`RuleContext`] and [`check`], which runs every rule and turns
//! findings into [`Violation`]s. Each finding names its rule as an
//! `app::policy::ContentRule`, whose name and explanation the `/rules` page
//! prints: the page lists exactly the rules this module can refuse for. The rules live beside it:
//! [`contact`], [`insult`], [`private_life`] (with hearsay), [`student`];
//! their word lists are read once in [`lexicon`].
//!
//! The words are in `server/lexicons/review_rules.txt`; `server eval-rules
//! server/evals/dev/rules.jsonl` measures the rules on a labelled set.

mod contact;
mod insult;
mod lexicon;
mod private_life;
mod student;

use crate::text::fold::Folded;
use app::policy::ContentRule;

/// A broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The broken rule's `ContentRule::code` (`contains_phone`, `hearsay` …).
    pub code: &'static str,
    pub field: &'static str,
    /// Which rule and where, in Chinese.
    pub message: String,
    /// The offending part of the original text.
    pub excerpt: String,
}

/// What the rules need to know besides the text.
#[derive(Clone, Debug, Default)]
pub struct RuleContext {
    /// The reviewed advisor may of course be named.
    pub advisor_name: String,
}

/// A rule broken at `start..end` (bytes of the original text).
#[derive(Clone, Debug)]
struct Finding {
    rule: ContentRule,
    start: usize,
    end: usize,
    what: &'static str,
}

/// Separators dropped before the word lists are searched ("傻 逼", "人.渣",
/// "zhang_san-88"); sentence punctuation stays.
fn separator(c: char) -> bool {
    c.is_whitespace() || "-_.*·•~/\\|+`'\"^=".contains(c)
}

/// Every rule `text` breaks, in the order of the text.
pub fn check(text: &str, ctx: &RuleContext) -> Vec<Violation> {
    let folded = Folded::new(text);
    let compact = folded.compact(separator);
    let mut contacts = Vec::new();
    contact::numbers(&folded, &mut contacts);
    contact::after_keywords(&compact, &mut contacts);
    contact::addresses(&folded, &mut contacts);
    let mut out = without_overlaps(contacts);
    insult::insults(&compact, &mut out);
    private_life::private_life(&compact, &mut out);
    student::students(&compact, ctx, &mut out);
    out.sort_by_key(|f| (f.start, f.rule.code()));
    let mut violations: Vec<Violation> = Vec::with_capacity(out.len());
    // "第 N 个字起": count characters once, walking the sorted findings.
    let (mut byte, mut chars) = (0, 0);
    for f in out {
        chars += text[byte..f.start].chars().count();
        byte = f.start;
        let excerpt = &text[f.start..f.end];
        if violations
            .iter()
            .any(|v| v.code == f.rule.code() && v.excerpt == excerpt)
        {
            continue;
        }
        violations.push(Violation {
            code: f.rule.code(),
            field: "text",
            message: format!("第 {} 个字起{}，{}", chars + 1, describe(excerpt), f.what),
            excerpt: excerpt.to_string(),
        });
    }
    violations
}

/// "「138…」": enough of the excerpt to find it, not enough to repeat it.
fn describe(excerpt: &str) -> String {
    let head: String = excerpt.chars().take(3).collect();
    format!("「{head}…」")
}

/// One finding per place: an ID number is not also a phone, a phone after
/// "微信" not also a WeChat id, an e-mail's domain not also a link (of two
/// findings of one rule, the first and longest).
fn without_overlaps(mut found: Vec<Finding>) -> Vec<Finding> {
    let rank = |rule: ContentRule| match rule {
        ContentRule::IdNumber => 0,
        ContentRule::Phone => 1,
        ContentRule::Email => 2,
        ContentRule::Contact => 3,
        _ => 4,
    };
    found.sort_by_key(|f| (rank(f.rule), f.start, std::cmp::Reverse(f.end)));
    let mut kept: Vec<Finding> = Vec::new();
    for f in found {
        if !kept.iter().any(|k| k.start < f.end && f.start < k.end) {
            kept.push(f);
        }
        if kept.len() >= 40 {
            break;
        }
    }
    kept
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
    fn the_issue_sentences_are_refused_with_the_right_rule() {
        for (text, code) in [
            ("有问题可以加老师微信 zhang_san88 咨询", "contains_contact"),
            ("老师QQ 123456789，可以直接联系", "contains_contact"),
            ("联系方式：一三八一二三四五六七八", "contains_phone"),
            (
                "具体看这个链接 http://example.com/abc 有详细情况",
                "contains_link",
            ),
            ("老师邮箱 zhangsan at pku dot edu dot cn", "contains_email"),
            ("老师和某个女学生关系暧昧", "private_life"),
            ("听说他学术造假，论文数据都是编的", "hearsay"),
            ("這個老師就是個人渣", "insult"),
            ("他就是个傻 逼", "insult"),
        ] {
            assert_eq!(codes(text), [code], "{text}");
        }
    }

    #[test]
    fn findings_point_at_the_original_characters() {
        let text = "联系方式：一三八一二三四五六七八";
        let v = &check(text, &RuleContext::default())[0];
        assert_eq!(v.excerpt, "一三八一二三四五六七八");
        assert!(
            v.message.starts_with("第 6 个字起「一三八…」"),
            "{}",
            v.message
        );
        let v = &check("ＱＱ：１２３４５６７８９ 找我", &RuleContext::default())[0];
        assert_eq!(v.excerpt, "ＱＱ：１２３４５６７８９");
        assert!(
            v.message.starts_with("第 1 个字起「ＱＱ：…」"),
            "{}",
            v.message
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
            "组里有个微信群，通知都在群里发",
            "课题组网站上有老师的论文列表",
            "老师对延毕的态度很暧昧",
            "听说老师最反对学术造假",
            "用 ASP.NET 和 Python 3.10 做项目",
            "一一对应，三四个人，一五一十地说",
        ] {
            assert!(codes(ok).is_empty(), "{ok}: {:?}", codes(ok));
        }
    }

    /// Odd and random input: no panic, and every excerpt is a slice of the text.
    #[test]
    fn any_input_is_checked_without_panic() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let alphabet: Vec<char> = "0123456789一三八幺壹@#.点 -_（）()ＱＱqvx微信艾特dotat\u{200B}\u{202E}傻逼師兄李明听说造假和关系暧昧住在小区com\n，。😀\u{10FFFF}"
            .chars()
            .collect();
        for _ in 0..3000 {
            let len = (next() % 60) as usize;
            let text: String = (0..len)
                .map(|_| {
                    let r = next();
                    if r % 7 == 0 {
                        char::from_u32((r >> 8) as u32 % 0x11_0000).unwrap_or('?')
                    } else {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    }
                })
                .collect();
            for v in check(&text, &RuleContext::default()) {
                assert!(text.contains(&v.excerpt), "{text:?}: {v:?}");
            }
        }
    }

    #[test]
    fn a_long_text_is_checked_in_linear_time() {
        let unit = "垃圾分类做得好，听说老师和师兄关系好。电话会议 2023 次，";
        let text = unit.repeat(70_000 / unit.chars().count());
        let started = std::time::Instant::now();
        check(&text, &RuleContext::default());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
