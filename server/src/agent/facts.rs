//! Facts only from data (代码掌舵，AI 划桨: code steers, the model rows).
//! A spoken reply may name an advisor or say a figure (a score, a count)
//! only when the turn's data says it: a tool result, the page the student
//! sees, or code's own reply (which code composes from the database). A language model writes fluent
//! sentences about people it knows nothing of ("王五老师毕业于北京大学…"), so
//! its reply is checked here and replaced by code's narration when it claims
//! more than the data holds. The same check counts violations in `server
//! eval`, for either planner.
//!
//! Names are found two ways: the advisor names the turn knows (the page, the
//! form's school + major) wherever they appear, and any "<surname>…老师 /
//! 教授 / 导师" the reply says, known or not. Figures are decimal numbers and
//! whole numbers with a counting word after them (条, 分, 位 …); a spoken
//! figure matches a datum when it is that datum rounded.

use serde_json::Value;

use app::protocol::PageContext;

const SURNAMES: &str = include_str!("../../lexicons/surnames.txt");

/// Words after a name that make it a person ("王五老师").
const TITLES: &[&str] = &["副教授", "教授", "老师", "导师", "讲师", "研究员", "博导"];
/// Characters no name contains after its surname: "方向导师" is not a 方 person.
const NOT_IN_NAMES: &str =
    "的了是在和与及向或且但对把被给让为从到等跟同比更最个位名这那些很都也就还么吗呢吧啊哪谁该每各此其有没不";
/// Counting words that make a whole number a figure ("120条", "4分").
const UNITS: &[char] = &['条', '分', '位', '名', '篇', '人', '项', '次', '%', '％'];

/// What the turn's data says: every string and number in it.
#[derive(Clone, Debug, Default)]
pub struct Grounding {
    text: String,
    numbers: Vec<f64>,
}

impl Grounding {
    /// A tool result, the page or the form: every string and number in it.
    pub fn add_json(&mut self, value: &Value) {
        match value {
            Value::String(s) => self.add_text(s),
            Value::Number(n) => {
                if let Some(f) = n.as_f64() {
                    self.numbers.push(f);
                }
            }
            Value::Array(list) => list.iter().for_each(|v| self.add_json(v)),
            Value::Object(map) => map.values().for_each(|v| self.add_json(v)),
            _ => {}
        }
    }

    /// Text code composed from data, or the student's own words: its names
    /// and the numbers written in it.
    pub fn add_text(&mut self, text: &str) {
        self.numbers
            .extend(numbers(text).into_iter().map(|(n, _)| n));
        self.text.push_str(text);
        self.text.push('\n');
    }

    /// The figures of a text code composed from the database, not its names:
    /// code's "没有找到叫王五的导师" says the name without vouching for it.
    pub fn add_figures(&mut self, text: &str) {
        self.numbers
            .extend(numbers(text).into_iter().map(|(n, _)| n));
    }

    /// The page the student sees: its advisors, their titles, ranks and ratings.
    pub fn add_page(&mut self, page: &PageContext) {
        if let Ok(v) = serde_json::to_value(page) {
            self.add_json(&v);
        }
    }

    fn has_name(&self, name: &str) -> bool {
        self.text.contains(name)
    }

    /// A spoken figure is the datum, rounded the way it was said.
    fn has_figure(&self, spoken: &str, value: f64) -> bool {
        if self.text.contains(spoken) {
            return true;
        }
        let decimals = spoken.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
        let half = 0.5 * 10f64.powi(-decimals) + 1e-9;
        self.numbers.iter().any(|&n| {
            (n - value).abs() <= half
                // A share said as a percentage ("80%" of 0.8).
                || (n * 100.0 - value).abs() <= half
        })
    }
}

/// Surnames, for telling a name before 老师 from any other word.
#[derive(Clone, Debug)]
pub struct Surnames(Vec<String>);

impl Surnames {
    pub fn load() -> Surnames {
        let mut list: Vec<String> = SURNAMES
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        // Two-character surnames first (欧阳 before 欧).
        list.sort_by_key(|s| std::cmp::Reverse(s.chars().count()));
        Surnames(list)
    }

    pub fn list(&self) -> &[String] {
        &self.0
    }

    /// The name that ends right before a title, if what precedes it is one:
    /// the longest run of 2–4 Chinese characters that starts with a surname.
    fn name_before(&self, before: &[char]) -> Option<String> {
        let run: Vec<char> = before
            .iter()
            .rev()
            .take_while(|c| is_cjk(**c))
            .take(4)
            .copied()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        (2..=run.len()).rev().find_map(|n| {
            let candidate: String = run[run.len() - n..].iter().collect();
            let surname = self.0.iter().find(|s| candidate.starts_with(s.as_str()))?;
            let given: String = candidate.chars().skip(surname.chars().count()).collect();
            let plausible = !given.is_empty()
                && given.chars().count() <= 2
                && !given.chars().any(|c| NOT_IN_NAMES.contains(c));
            plausible.then_some(candidate)
        })
    }
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The advisor names and figures a reply states.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Claims {
    pub names: Vec<String>,
    /// As spoken, with their values.
    pub figures: Vec<(String, f64)>,
}

/// What `voice` claims: `known` names anywhere, unknown ones before a title,
/// and figures.
pub fn claims(voice: &str, known: &[String], surnames: &Surnames) -> Claims {
    let mut names: Vec<String> = known
        .iter()
        .filter(|n| n.chars().count() >= 2 && voice.contains(n.as_str()))
        .cloned()
        .collect();
    let chars: Vec<char> = voice.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let rest: String = chars[i..].iter().take(3).collect();
        if let Some(title) = TITLES.iter().find(|t| rest.starts_with(**t)) {
            if let Some(name) = surnames.name_before(&chars[..i]) {
                // A known name the candidate only extends ("推荐张三" + 教授).
                if !names.iter().any(|n| name.ends_with(n.as_str())) {
                    names.push(name);
                }
            }
            i += title.chars().count();
        } else {
            i += 1;
        }
    }
    names.sort();
    names.dedup();
    let figures = numbers(voice)
        .into_iter()
        .filter(|(_, spoken)| {
            spoken.contains('.')
                || voice[voice.find(spoken.as_str()).unwrap_or(0) + spoken.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| UNITS.contains(&c))
        })
        .map(|(value, spoken)| (spoken, value))
        .collect();
    Claims { names, figures }
}

/// Numbers written in `text` with their spelling ("4.5", "120").
fn numbers(text: &str) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<(f64, String)>| {
        let spelled = current.trim_end_matches('.').to_string();
        if let Ok(v) = spelled.parse::<f64>() {
            out.push((v, spelled));
        }
        current.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() || (c == '.' && !current.is_empty() && !current.contains('.')) {
            current.push(c);
        } else if !current.is_empty() {
            flush(&mut current, &mut out);
        }
    }
    if !current.is_empty() {
        flush(&mut current, &mut out);
    }
    out
}

/// What `voice` states that `grounding` does not hold: names, then figures.
pub fn unsupported(
    voice: &str,
    grounding: &Grounding,
    known: &[String],
    surnames: &Surnames,
) -> Vec<String> {
    let c = claims(voice, known, surnames);
    let mut out: Vec<String> = c
        .names
        .into_iter()
        .filter(|n| !grounding.has_name(n))
        .collect();
    out.extend(
        c.figures
            .into_iter()
            .filter(|(spoken, value)| !grounding.has_figure(spoken, *value))
            .map(|(spoken, _)| spoken),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ground(results: Value) -> Grounding {
        let mut g = Grounding::default();
        g.add_json(&results);
        g
    }

    #[test]
    fn names_before_titles_are_found_known_or_not() {
        let s = Surnames::load();
        let known = vec!["张三".to_string(), "李四".to_string()];
        let c = claims("王五老师毕业于北京大学，现任教授。", &known, &s);
        assert_eq!(c.names, ["王五"]);
        let c = claims("我推荐张三教授，也可以看看李四。", &known, &s);
        assert_eq!(c.names, ["张三", "李四"]);
        let c = claims("欧阳娜娜副教授很受欢迎", &[], &s);
        assert_eq!(c.names, ["欧阳娜娜"]);
        // Words that are not names before a title.
        for voice in [
            "这个导师的评价是优秀的",
            "机器学习方向导师很多",
            "学生评价很高的老师",
            "你想找什么样的导师？",
            "你对研究方向或导师风格有偏好吗？",
            "想找有经费的老师",
        ] {
            assert!(claims(voice, &known, &s).names.is_empty(), "{voice}");
        }
    }

    #[test]
    fn figures_are_decimals_and_counted_numbers() {
        let s = Surnames::load();
        let c = claims("综合4.5分，共有120条评价，排第1。2027年入学", &[], &s);
        let spoken: Vec<&str> = c.figures.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(spoken, ["4.5", "120"]);
    }

    #[test]
    fn a_reply_is_checked_against_the_data_rounded_as_spoken() {
        let s = Surnames::load();
        let known = vec!["张三".to_string(), "李四".to_string()];
        let g = ground(json!({"name": "张三", "rating": 4.4871, "review_count": 120}));
        assert!(unsupported("张三教授评分4.5，有120条评价。", &g, &known, &s).is_empty());
        assert_eq!(
            unsupported("张三评分4.8，李四老师也不错。", &g, &known, &s),
            ["李四", "4.8"]
        );
        assert_eq!(
            unsupported("王五老师毕业于北京大学", &g, &known, &s),
            ["王五"]
        );
        let mut g = Grounding::default();
        g.add_figures("没有找到叫王五的导师，评分4.5的也没有。");
        assert_eq!(
            unsupported("王五老师评分4.5", &g, &known, &s),
            ["王五"],
            "a name code said was not found is not vouched for"
        );
        let mut page = Grounding::default();
        page.add_page(&PageContext {
            visible_advisors: vec![app::protocol::VisibleAdvisor {
                id: "1".into(),
                name: "李四".into(),
                title: "副教授".into(),
                rating: 4.31,
                rank: 2,
            }],
            ..PageContext::default()
        });
        assert!(unsupported("李四副教授，评分4.3。", &page, &known, &s).is_empty());
    }
}
