//! What the site promises its readers, in one place that the trust pages
//! (`/rules`, `/privacy`, `/about`) show and the server's code obeys: the
//! posting rules every review's text is checked against, the limits on
//! writing, how long what is stored is kept, how scores are weighted.
//!
//! Why here, in `app`: a page that described these in its own words would
//! drift from the code the day a limit changed. The server's rules
//! (`server::reviews::rules`) report their findings as a [`ContentRule`],
//! its write path counts with [`REVIEW_BURST`] and [`REVIEW_DAILY`], the
//! session purge uses [`SESSION_DAYS`], the ranking [`PRIOR_REVIEWS`]; the
//! pages print the same values, so they cannot say something else.

/// A rule about what a review's text may contain. The server's checks
/// report every finding as one of these, so the list the `/rules` page
/// prints ([`ContentRule::ALL`]) is the list the code runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContentRule {
    Phone,
    IdNumber,
    Email,
    Contact,
    Link,
    PrivateLife,
    Hearsay,
    Insult,
    NamesStudent,
}

impl ContentRule {
    /// Every rule, in the order the `/rules` page lists them.
    pub const ALL: [ContentRule; 9] = [
        ContentRule::Phone,
        ContentRule::IdNumber,
        ContentRule::Email,
        ContentRule::Contact,
        ContentRule::Link,
        ContentRule::PrivateLife,
        ContentRule::Hearsay,
        ContentRule::Insult,
        ContentRule::NamesStudent,
    ];

    /// The error code a refusal carries (the API's `error.code`).
    pub const fn code(self) -> &'static str {
        match self {
            ContentRule::Phone => "contains_phone",
            ContentRule::IdNumber => "contains_id_number",
            ContentRule::Email => "contains_email",
            ContentRule::Contact => "contains_contact",
            ContentRule::Link => "contains_link",
            ContentRule::PrivateLife => "private_life",
            ContentRule::Hearsay => "hearsay",
            ContentRule::Insult => "insult",
            ContentRule::NamesStudent => "names_student",
        }
    }

    /// The rule in a few words.
    pub const fn name(self) -> &'static str {
        match self {
            ContentRule::Phone => "不写电话号码",
            ContentRule::IdNumber => "不写身份证号码",
            ContentRule::Email => "不写邮箱地址",
            ContentRule::Contact => "不写微信号、QQ 号",
            ContentRule::Link => "不贴网址和链接",
            ContentRule::PrivateLife => "不写导师的私生活",
            ContentRule::Hearsay => "严重指控不能只凭“听说”",
            ContentRule::Insult => "不用侮辱性的词语",
            ContentRule::NamesStudent => "不写其他学生的姓名",
        }
    }

    /// What the check looks for, as a writer needs to know it.
    pub const fn explanation(self) -> &'static str {
        match self {
            ContentRule::Phone => {
                "手机号和座机号都不能发布，包括用全角数字、汉字数字（一三八……）或空格、横线隔开写的号码。年份、金额、人数、房间号这类短数字不受影响。"
            }
            ContentRule::IdNumber => "18 位身份证号码不能发布。",
            ContentRule::Email => {
                "邮箱地址不能发布，包括把 @ 写成 at、艾特，把 . 写成 dot、点的写法。"
            }
            ContentRule::Contact => {
                "微信、VX、QQ、扣扣、群号等后面紧跟的账号或号码不能发布。只提到“微信群”“QQ 群里发通知”没有问题。"
            }
            ContentRule::Link => {
                "带 http:// 或 https:// 的链接和 zhihu.com/… 这样的网址不能发布，请直接写出你想说的内容。文件名和版本号（main.py、3.10）不算网址。"
            }
            ContentRule::PrivateLife => {
                "导师的婚恋、家庭、住址等与读研无关的私事不能发布，“听说”来的家庭、健康情况也不行。请只评价与读研有关的内容。"
            }
            ContentRule::Hearsay => {
                "造假、抄袭、性骚扰、贪污等严重指控，如果同一句话只凭“听说”“据说”，不能发布。请只写你亲身经历、能够负责的内容。"
            }
            ContentRule::Insult => "辱骂和脏话不能发布，拆开写、用繁体写的也一样。",
            ContentRule::NamesStudent => {
                "“师兄李明”“王小红同学”这样写出其他学生姓名的内容不能发布；被评价导师本人的名字可以写。"
            }
        }
    }

    /// The rule whose [`code`](ContentRule::code) this is.
    pub fn from_code(code: &str) -> Option<ContentRule> {
        ContentRule::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// At most `count` reviews from one client within `minutes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    pub count: i64,
    pub minutes: i64,
}

impl Quota {
    /// The window as SQLite's date modifier (`-10 minutes`), which the
    /// PostgreSQL migrations' `strftime` reads too.
    pub fn modifier(&self) -> String {
        format!("-{} minutes", self.minutes)
    }

    /// The window in words: "10 分钟", "1 天".
    pub fn window_zh(&self) -> String {
        if self.minutes % (24 * 60) == 0 {
            format!("{} 天", self.minutes / (24 * 60))
        } else if self.minutes % 60 == 0 {
            format!("{} 小时", self.minutes / 60)
        } else {
            format!("{} 分钟", self.minutes)
        }
    }
}

/// Reviews one client may publish in the short window…
pub const REVIEW_BURST: Quota = Quota {
    count: 3,
    minutes: 10,
};
/// …and in a day.
pub const REVIEW_DAILY: Quota = Quota {
    count: 10,
    minutes: 24 * 60,
};
/// The same writer, the same advisor, a text this similar (Jaccard
/// similarity of character bigrams), within [`DUPLICATE_DAYS`]: a duplicate,
/// refused. The same similarity on another advisor's page flags both
/// reviews for the admin.
pub const DUPLICATE_SIMILARITY: f64 = 0.8;
pub const DUPLICATE_DAYS: i64 = 30;
/// How long the writer may edit or delete a review with its edit token.
pub const EDIT_HOURS: i64 = 24;
/// A report's reason is kept up to this many characters.
pub const REPORT_REASON_CHARS: usize = 200;

/// Chat sessions (the conversation with the assistant, its form and
/// memory) idle this many days are deleted.
pub const SESSION_DAYS: u32 = 7;
/// How long a refused form submission is kept to be shown again, minutes.
pub const DRAFT_MINUTES: u64 = 10;

/// How many site-average reviews every advisor's scores start with (the
/// Bayesian average of the rankings).
pub const PRIOR_REVIEWS: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_codes_are_unique_and_found_again() {
        for r in ContentRule::ALL {
            assert_eq!(ContentRule::from_code(r.code()), Some(r));
            assert!(!r.name().is_empty() && !r.explanation().is_empty());
        }
        let mut codes: Vec<&str> = ContentRule::ALL.iter().map(|r| r.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), ContentRule::ALL.len());
        assert_eq!(ContentRule::from_code("spam"), None);
    }

    #[test]
    fn windows_read_as_sqlite_modifiers_and_words() {
        assert_eq!(REVIEW_BURST.modifier(), "-10 minutes");
        assert_eq!(REVIEW_DAILY.modifier(), "-1440 minutes");
        assert_eq!(REVIEW_BURST.window_zh(), "10 分钟");
        assert_eq!(REVIEW_DAILY.window_zh(), "1 天");
        assert_eq!(
            Quota {
                count: 1,
                minutes: 120
            }
            .window_zh(),
            "2 小时"
        );
    }
}
