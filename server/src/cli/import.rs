//! `server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]`: real
//! advisors from a spreadsheet into the site.
//!
//! The file: UTF-8 CSV (a byte-order mark is dropped; Excel: 「CSV UTF-8」),
//! RFC 4180 quoting, a header line naming the columns in any order:
//!
//! | column | 中文表头 | what |
//! | --- | --- | --- |
//! | `name` | 姓名 | 1–20 characters: Chinese characters, Latin letters, `·` (spaces and `-` between Latin letters) |
//! | `title` | 职称 | one of [`TITLES`] exactly |
//! | `school` | 学校 | a school of the catalog, by its name or an alias (北大, PKU) |
//! | `major` | 专业 | a major of the catalog, by its name or an alias (计算机, CS) |
//! | `directions` | 研究方向 | up to 8 research directions of up to 30 characters, separated by `、` `;` `；` `,` `，` (may be empty) |
//! | `bio` | 简介 | up to 2000 characters; line breaks allowed (may be empty) |
//!
//! All six columns must be there; any other column is an error of the
//! header (a misspelt `titel` would otherwise be dropped without a word).
//! Fields are trimmed; rows with every field empty are skipped; no field
//! may hold a control character (the bio may hold line breaks). A header
//! that cannot be read stops everything.
//!
//! Decisions:
//! - An advisor is its school + major + name. Two rows of one file with the
//!   same three: the later one is a bad line (which of the two is right is
//!   the operator's call, not ours).
//! - Any school and major of the catalog may be paired. A school offers a
//!   major exactly when it has advisors there (there is no table of pairs:
//!   the catalog, the rankings and `pair_stats` all find pairs through
//!   advisors), so the first imported advisor of a pair opens it; the
//!   report names such pairs so a slip shows.
//! - An advisor that exists is updated to the file (title, directions and
//!   bio as given — an empty bio empties it) and counted as updated only if
//!   something differs; advisors not in the file are left alone.
//! - Any bad line stops the import and nothing is written, unless
//!   `--skip-bad`: then the good lines are written and the bad ones listed.
//!   A dry run says what the real run would do and exits as it would.
//! - Everything is one `BEGIN IMMEDIATE` transaction (all or nothing), and
//!   it moves the roster version on so that running servers reload their
//!   caches ([`crate::store::roster`]).
//!
//! [`plan`] (parse and validate, against the catalog) is pure; [`apply`]
//! (the database) takes its result.

use std::collections::HashMap;
use std::fmt;

use crate::db::Pool;

use crate::catalog::{Catalog, Resolution};
use crate::store::roster;

/// The columns, in the documented order.
pub const COLUMNS: [&str; 6] = ["name", "title", "school", "major", "directions", "bio"];
/// The Chinese header accepted for each of [`COLUMNS`].
const COLUMNS_ZH: [&str; 6] = ["姓名", "职称", "学校", "专业", "研究方向", "简介"];
/// The titles of the site (the demo's, the agent's words for people).
pub const TITLES: [&str; 4] = ["教授", "副教授", "研究员", "讲师"];
pub const MAX_NAME: usize = 20;
pub const MAX_DIRECTIONS: usize = 8;
pub const MAX_DIRECTION: usize = 30;
pub const MAX_BIO: usize = 2000;
/// What separates directions inside their field.
const DIRECTION_SEPARATORS: &[char] = &['、', ';', '；', ',', '，'];

const NAME: usize = 0;
const TITLE: usize = 1;
const SCHOOL: usize = 2;
const MAJOR: usize = 3;
const DIRECTIONS: usize = 4;
const BIO: usize = 5;

/// A good line: an advisor with its school and major resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Where the record starts in the file (the header is line 1).
    pub line: u64,
    pub name: String,
    pub title: String,
    pub school_id: i64,
    /// The catalog's name of the school (the file may use an alias).
    pub school: String,
    pub major_id: i64,
    pub major: String,
    pub directions: Vec<String>,
    pub bio: String,
}

/// A line that cannot be imported, and why (in Chinese).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "第 {} 行：{}", self.line, self.reason)
    }
}

/// What a file holds: the good rows and the bad lines, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportPlan {
    pub rows: Vec<Row>,
    pub bad: Vec<BadLine>,
    /// The file as a whole could not be read (encoding, header): nothing
    /// is imported, `--skip-bad` or not.
    pub unusable: bool,
}

impl ImportPlan {
    fn unusable(line: u64, reason: String) -> ImportPlan {
        ImportPlan {
            rows: Vec::new(),
            bad: vec![BadLine { line, reason }],
            unusable: true,
        }
    }
}

/// [`plan`] of the bytes of a file: not UTF-8 makes it unusable.
pub fn plan_bytes(bytes: &[u8], catalog: &Catalog) -> ImportPlan {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => plan(text, catalog),
        Err(e) => {
            let before = &bytes[..e.valid_up_to()];
            let line = 1 + before.iter().filter(|b| **b == b'\n').count() as u64;
            ImportPlan::unusable(
                line,
                "文件不是 UTF-8 编码（Excel 请「另存为」「CSV UTF-8」，或用 iconv -f GBK -t UTF-8 转换）"
                    .to_string(),
            )
        }
    }
}

/// Parses and checks a CSV file against the catalog: every line either
/// a good [`Row`] or a [`BadLine`]. Touches nothing; never panics.
pub fn plan(csv_text: &str, catalog: &Catalog) -> ImportPlan {
    let text = csv_text.strip_prefix('\u{FEFF}').unwrap_or(csv_text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut lines = Lines::new(text);
    let mut records = reader.records();
    let header = match records.next() {
        None => {
            return ImportPlan::unusable(
                1,
                format!("文件是空的：第一行应是表头 {}", COLUMNS.join(",")),
            )
        }
        Some(Err(e)) => {
            return ImportPlan::unusable(lines.of_error(&e), format!("表头读不出来：{e}"))
        }
        Some(Ok(h)) => h,
    };
    let header_line = lines.of(&header);
    let order = match columns(&header) {
        Ok(order) => order,
        Err(reason) => return ImportPlan::unusable(header_line, reason),
    };

    let mut out = ImportPlan::default();
    let mut seen: HashMap<(i64, i64, String), u64> = HashMap::new();
    let mut last: Option<(u64, usize)> = None;
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                out.bad.push(BadLine {
                    line: lines.of_error(&e),
                    reason: format!("读不出来：{e}"),
                });
                continue;
            }
        };
        let line = lines.of(&record);
        last = Some((line, record.position().map_or(0, |p| p.byte() as usize)));
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        if record.len() != order.len() {
            out.bad.push(BadLine {
                line,
                reason: format!(
                    "有 {} 列，表头有 {} 列（含逗号的字段要用英文双引号括起来）",
                    record.len(),
                    order.len()
                ),
            });
            continue;
        }
        let mut fields: [&str; 6] = [""; 6];
        for (i, column) in order.iter().enumerate() {
            fields[*column] = record.get(i).unwrap_or_default().trim();
        }
        match check(line, &fields, catalog) {
            Err(reasons) => out.bad.push(BadLine {
                line,
                reason: reasons.join("；"),
            }),
            Ok(row) => {
                let key = (row.school_id, row.major_id, row.name.clone());
                if let Some(first) = seen.get(&key) {
                    out.bad.push(BadLine {
                        line,
                        reason: format!(
                            "与第 {first} 行是同一位导师（{} / {} 的「{}」），只能出现一次",
                            row.school, row.major, row.name
                        ),
                    });
                } else {
                    seen.insert(key, line);
                    out.rows.push(row);
                }
            }
        }
    }

    // An opening quote never closed runs to the end of the file, which the
    // CSV reader takes as the end of the field: its last record then starts
    // a quoted field it never ends (an odd number of quotes from its start).
    if let Some((line, byte)) = last {
        let rest = text.get(byte..).unwrap_or_default();
        if rest.matches('"').count() % 2 == 1 {
            out.rows.retain(|r| r.line != line);
            out.bad.retain(|b| b.line != line);
            out.bad.push(BadLine {
                line,
                reason: "引号没有闭合：从这一行到文件末尾被读成了一行".to_string(),
            });
        }
    }
    out.bad.sort_by_key(|b| b.line);
    out
}

/// The line in the file where a record starts. The reader's own line
/// numbers lag behind after `\r\n` line ends (Excel's): it counts the `\n`
/// of a record's `\r\n` into the next record. So lines are counted here,
/// from the byte where the record starts, past any line ends before it;
/// records come in file order, so each byte is counted once.
struct Lines<'a> {
    text: &'a [u8],
    byte: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text: text.as_bytes(),
            byte: 0,
            line: 1,
        }
    }

    fn at(&mut self, position: Option<&csv::Position>) -> u64 {
        let Some(p) = position else {
            return self.line;
        };
        let mut start = (p.byte() as usize).min(self.text.len());
        while start < self.text.len() && matches!(self.text[start], b'\r' | b'\n') {
            start += 1;
        }
        if start > self.byte {
            self.line += self.text[self.byte..start]
                .iter()
                .filter(|b| **b == b'\n')
                .count() as u64;
            self.byte = start;
        }
        self.line
    }

    fn of(&mut self, record: &csv::StringRecord) -> u64 {
        self.at(record.position())
    }

    fn of_error(&mut self, e: &csv::Error) -> u64 {
        self.at(e.position())
    }
}

/// Which column of [`COLUMNS`] each field of the header is.
fn columns(header: &csv::StringRecord) -> Result<Vec<usize>, String> {
    let mut order = Vec::with_capacity(header.len());
    for (i, raw) in header.iter().enumerate() {
        let name = raw
            .trim()
            .trim_start_matches('\u{FEFF}')
            .to_ascii_lowercase();
        let Some(column) = COLUMNS
            .iter()
            .position(|c| *c == name)
            .or_else(|| COLUMNS_ZH.iter().position(|c| *c == name))
        else {
            return Err(format!(
                "表头第 {} 列「{}」不是已知的列；表头应为 {}",
                i + 1,
                shown(raw.trim()),
                COLUMNS.join(",")
            ));
        };
        if order.contains(&column) {
            return Err(format!("表头里「{}」出现了两次", COLUMNS[column]));
        }
        order.push(column);
    }
    let missing: Vec<&str> = (0..COLUMNS.len())
        .filter(|c| !order.contains(c))
        .map(|c| COLUMNS[c])
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "表头缺少列：{}（表头应为 {}）",
            missing.join(","),
            COLUMNS.join(",")
        ));
    }
    Ok(order)
}

/// Checks one line's fields (in [`COLUMNS`] order, trimmed).
fn check(line: u64, fields: &[&str; 6], catalog: &Catalog) -> Result<Row, Vec<String>> {
    let mut reasons = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let allowed = |c: char| i == BIO && matches!(c, '\n' | '\r');
        if f.chars().any(|c| c.is_control() && !allowed(c)) {
            reasons.push(format!("{}含有控制字符", COLUMNS_ZH[i]));
        }
    }
    if !reasons.is_empty() {
        return Err(reasons);
    }

    let name = check_name(fields[NAME]).map_err(|r| reasons.push(r)).ok();
    let title = fields[TITLE];
    if !TITLES.contains(&title) {
        reasons.push(if title.is_empty() {
            format!("职称不能为空（应为 {} 之一）", TITLES.join("、"))
        } else {
            format!(
                "职称「{}」不是网站的职称（应为 {} 之一）",
                shown(title),
                TITLES.join("、")
            )
        });
    }
    let school = match fields[SCHOOL] {
        "" => {
            reasons.push("学校不能为空".to_string());
            None
        }
        s => match catalog.resolve_school(s) {
            Resolution::Found(found) => Some(found),
            Resolution::Ambiguous(list) => {
                reasons.push(format!(
                    "学校「{}」可能指 {}，请写全称",
                    shown(s),
                    list.iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join("、")
                ));
                None
            }
            Resolution::Unknown => {
                reasons.push(format!("学校「{}」不在目录中", shown(s)));
                None
            }
        },
    };
    let major = match fields[MAJOR] {
        "" => {
            reasons.push("专业不能为空".to_string());
            None
        }
        m => {
            let resolved = match school {
                Some(s) => catalog.resolve_major_at(s.id, m),
                None => catalog.resolve_major(m),
            };
            match resolved {
                Resolution::Found(found) => Some(found),
                Resolution::Ambiguous(list) => {
                    reasons.push(format!(
                        "专业「{}」可能指 {}，请写全称",
                        shown(m),
                        list.iter()
                            .map(|m| m.name.as_str())
                            .collect::<Vec<_>>()
                            .join("、")
                    ));
                    None
                }
                Resolution::Unknown => {
                    reasons.push(format!("专业「{}」不在目录中", shown(m)));
                    None
                }
            }
        }
    };
    let directions = check_directions(fields[DIRECTIONS])
        .map_err(|r| reasons.extend(r))
        .ok();
    let bio = fields[BIO].replace("\r\n", "\n").replace('\r', "\n");
    let bio_len = bio.chars().count();
    if bio_len > MAX_BIO {
        reasons.push(format!("简介有 {bio_len} 个字，最多 {MAX_BIO} 个字"));
    }

    match (name, school, major, directions) {
        (Some(name), Some(school), Some(major), Some(directions)) if reasons.is_empty() => {
            Ok(Row {
                line,
                name,
                title: title.to_string(),
                school_id: school.id,
                school: school.name.clone(),
                major_id: major.id,
                major: major.name.clone(),
                directions,
                bio,
            })
        }
        _ => Err(reasons),
    }
}

/// A Chinese character (the CJK ideograph blocks, 〇).
fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3007}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3134F}')
}

/// A Latin letter, with or without accents (Basic Latin to Latin Extended-B).
fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || (('\u{C0}'..='\u{24F}').contains(&c) && c.is_alphabetic())
}

/// A name, spaces collapsed and `・` read as `·`; or why not.
fn check_name(raw: &str) -> Result<String, String> {
    let name = raw
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('・', "·");
    if name.is_empty() {
        return Err("姓名不能为空".to_string());
    }
    let len = name.chars().count();
    if len > MAX_NAME {
        return Err(format!(
            "姓名「{}」有 {len} 个字，最多 {MAX_NAME} 个字",
            shown(&name)
        ));
    }
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let between_latin =
            || i > 0 && i + 1 < chars.len() && is_latin(chars[i - 1]) && is_latin(chars[i + 1]);
        let ok =
            is_han(c) || is_latin(c) || c == '·' || (matches!(c, ' ' | '-') && between_latin());
        if !ok {
            return Err(format!(
                "姓名「{}」里有「{c}」：只能用汉字、拉丁字母和 ·",
                shown(&name)
            ));
        }
    }
    if !chars.iter().any(|c| is_han(*c) || is_latin(*c)) {
        return Err(format!("姓名「{}」里没有字", shown(&name)));
    }
    Ok(name)
}

/// The directions of a field, in order, repeats dropped; or why not.
fn check_directions(raw: &str) -> Result<Vec<String>, Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for d in raw.split(DIRECTION_SEPARATORS).map(str::trim) {
        if !d.is_empty() && !out.iter().any(|o| o == d) {
            out.push(d.to_string());
        }
    }
    let mut reasons = Vec::new();
    if out.len() > MAX_DIRECTIONS {
        reasons.push(format!(
            "研究方向有 {} 个，最多 {MAX_DIRECTIONS} 个",
            out.len()
        ));
    }
    for d in &out {
        let len = d.chars().count();
        if len > MAX_DIRECTION {
            reasons.push(format!(
                "研究方向「{}」有 {len} 个字，最多 {MAX_DIRECTION} 个字",
                shown(d)
            ));
        }
    }
    if reasons.is_empty() {
        Ok(out)
    } else {
        Err(reasons)
    }
}

/// A value as a message quotes it: a long one is cut.
fn shown(s: &str) -> String {
    const LIMIT: usize = 20;
    if s.chars().count() > LIMIT {
        format!("{}…", s.chars().take(LIMIT).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The switches of an import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Say what would happen; write nothing.
    pub dry_run: bool,
    /// Write the good lines even when there are bad ones.
    pub skip_bad: bool,
}

/// `server import`'s command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportArgs {
    pub file: String,
    /// `--db URL`; otherwise `DATABASE_URL` or the default.
    pub db: Option<String>,
    pub options: Options,
}

impl ImportArgs {
    /// `<file> [--dry-run] [--skip-bad] [--db URL]`, in any order.
    pub fn parse(args: &[String]) -> Result<ImportArgs, String> {
        let mut file = None;
        let mut db = None;
        let mut options = Options::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--dry-run" => options.dry_run = true,
                "--skip-bad" => options.skip_bad = true,
                "--db" => db = Some(it.next().ok_or("--db 需要一个数据库地址")?.clone()),
                flag if flag.starts_with("--") => {
                    return Err(format!("server import 没有「{flag}」这个选项"))
                }
                path => {
                    if file.is_some() {
                        return Err(format!("只能给一个 CSV 文件，多了「{path}」"));
                    }
                    file = Some(path.to_string());
                }
            }
        }
        let file = file.ok_or("缺少要导入的 CSV 文件")?;
        Ok(ImportArgs { file, db, options })
    }
}

/// What an import did (or, in a dry run, would do) with one good line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Added,
    /// With the fields that differ (职称, 研究方向, 简介).
    Updated(Vec<&'static str>),
    Unchanged,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub line: u64,
    pub name: String,
    pub title: String,
    pub school: String,
    pub major: String,
    pub change: Change,
}

/// The result of [`apply`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// One per good line, in file order.
    pub outcomes: Vec<Outcome>,
    /// The file's bad lines and those the database made bad (several
    /// advisors already answer to one identity), by line.
    pub bad: Vec<BadLine>,
    /// (school, major) pairs that had no advisor before.
    pub new_pairs: Vec<(String, String)>,
    pub dry_run: bool,
    /// Bad lines stopped the import (it would have, in a dry run).
    pub stopped: bool,
    /// Something was written to the database.
    pub written: bool,
}

impl Report {
    fn count(&self, f: impl Fn(&Change) -> bool) -> usize {
        self.outcomes.iter().filter(|o| f(&o.change)).count()
    }

    pub fn added(&self) -> usize {
        self.count(|c| *c == Change::Added)
    }

    pub fn updated(&self) -> usize {
        self.count(|c| matches!(c, Change::Updated(_)))
    }

    pub fn unchanged(&self) -> usize {
        self.count(|c| *c == Change::Unchanged)
    }

    /// 0 done (bad lines skipped or none), 1 stopped by bad lines.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.stopped)
    }

    /// `新增 N 位，更新 N 位，未变 N 位；坏行 N 行`.
    pub fn counts(&self) -> String {
        format!(
            "新增 {} 位，更新 {} 位，未变 {} 位；坏行 {} 行",
            self.added(),
            self.updated(),
            self.unchanged(),
            self.bad.len()
        )
    }

    /// The whole report as the command prints it.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let summary = if self.stopped {
            let good = self.outcomes.len();
            let mut s = format!("有坏行，没有导入任何数据（坏行 {} 行）。", self.bad.len());
            if good > 0 {
                s.push_str(&format!(
                    "修正后重新导入，或加 --skip-bad 只导入其余 {good} 行（{}）。",
                    self.counts()
                ));
            }
            if self.dry_run {
                s.insert_str(0, "试运行：");
            }
            s
        } else if self.dry_run {
            format!("试运行，没有写入数据库。导入将会：{}", self.counts())
        } else {
            format!("导入完成：{}", self.counts())
        };
        out.push_str(&summary);
        out.push('\n');
        let verb = |past: &'static str, future: &'static str| {
            if self.dry_run || self.stopped {
                future
            } else {
                past
            }
        };
        for o in &self.outcomes {
            let what = match &o.change {
                Change::Added => verb("新增", "将新增"),
                Change::Updated(_) => verb("更新", "将更新"),
                Change::Unchanged => continue,
            };
            out.push_str(&format!(
                "  第 {} 行 {what} {}（{}）{} / {}",
                o.line, o.name, o.title, o.school, o.major
            ));
            if let Change::Updated(fields) = &o.change {
                out.push_str(&format!("：{}", fields.join("、")));
            }
            out.push('\n');
        }
        for (school, major) in &self.new_pairs {
            out.push_str(&format!(
                "  {school} / {major} 此前没有导师，导入后第一次有排行\n"
            ));
        }
        if !self.bad.is_empty() {
            out.push_str(if self.stopped || !self.dry_run {
                "坏行：\n"
            } else {
                "坏行（将跳过）：\n"
            });
            for b in &self.bad {
                out.push_str(&format!("  {b}\n"));
            }
        }
        out
    }
}

/// Writes a plan in one write transaction: new advisors added, changed
/// ones updated, nothing written when bad lines stop it (no `skip_bad`)
/// or in a dry run. Moves the roster version on when anything changed.
pub async fn apply(
    pool: &Pool,
    plan: &ImportPlan,
    options: Options,
) -> Result<Report, sqlx::Error> {
    // A dry run reads only; a real one holds the write lock from the start,
    // so what it read is still true when it writes.
    let mut tx = if options.dry_run {
        pool.begin().await?
    } else {
        crate::db::begin_write(pool).await?
    };
    let mut report = Report {
        dry_run: options.dry_run,
        bad: plan.bad.clone(),
        ..Report::default()
    };
    // (row, the stored advisor it updates) per line that will be written.
    let mut work: Vec<(&Row, Option<roster::Stored>)> = Vec::new();
    for row in &plan.rows {
        let mut found = roster::find(&mut tx, row.school_id, row.major_id, &row.name).await?;
        if found.len() > 1 {
            report.bad.push(BadLine {
                line: row.line,
                reason: format!(
                    "{} / {} 已有 {} 位「{}」，无法确定要更新哪一位",
                    row.school,
                    row.major,
                    found.len(),
                    row.name
                ),
            });
            continue;
        }
        let stored = found.pop();
        let change = match &stored {
            None => Change::Added,
            Some(s) => {
                let mut fields = Vec::new();
                if s.title != row.title {
                    fields.push("职称");
                }
                if s.directions != row.directions {
                    fields.push("研究方向");
                }
                if s.bio != row.bio {
                    fields.push("简介");
                }
                if fields.is_empty() {
                    Change::Unchanged
                } else {
                    Change::Updated(fields)
                }
            }
        };
        if change == Change::Added {
            let pair = (row.school.clone(), row.major.clone());
            if !report.new_pairs.contains(&pair)
                && !roster::pair_has_advisors(&mut tx, row.school_id, row.major_id).await?
            {
                report.new_pairs.push(pair);
            }
        }
        if change != Change::Unchanged {
            work.push((row, stored));
        }
        report.outcomes.push(Outcome {
            line: row.line,
            name: row.name.clone(),
            title: row.title.clone(),
            school: row.school.clone(),
            major: row.major.clone(),
            change,
        });
    }
    report.bad.sort_by_key(|b| b.line);
    report.stopped = plan.unusable || (!report.bad.is_empty() && !options.skip_bad);
    if options.dry_run || report.stopped || work.is_empty() {
        tx.rollback().await?;
        return Ok(report);
    }
    for (row, stored) in work {
        match stored {
            None => {
                roster::insert(
                    &mut tx,
                    &roster::Entry {
                        name: &row.name,
                        title: &row.title,
                        school_id: row.school_id,
                        major_id: row.major_id,
                        directions: &row.directions,
                        bio: &row.bio,
                    },
                )
                .await?;
            }
            Some(s) => {
                let directions = (s.directions != row.directions).then_some(&row.directions[..]);
                roster::update(&mut tx, s.id, &row.title, &row.bio, directions).await?;
            }
        }
    }
    // New advisors are findable by name as soon as they are visible.
    crate::store::search::index_missing(&mut tx).await?;
    roster::bump_version(&mut tx).await?;
    tx.commit().await?;
    report.written = true;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{MajorEntry, SchoolEntry};

    fn catalog() -> Catalog {
        let school = |id, name: &str, aliases: &[&str]| SchoolEntry {
            id,
            name: name.into(),
            city: "北京".into(),
            tier: "985".into(),
            popularity: 100 - id,
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        let major = |id, name: &str, aliases: &[&str]| MajorEntry {
            id,
            name: name.into(),
            category: "工学".into(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        };
        Catalog::new(
            vec![
                school(1, "北京大学", &["北大", "PKU"]),
                school(2, "上海交通大学", &["上交", "交大"]),
                school(3, "西安交通大学", &["西交", "交大"]),
            ],
            vec![
                major(1, "计算机科学与技术", &["计算机", "CS"]),
                major(2, "电子信息工程", &["电子"]),
                major(3, "电子科学与技术", &["电子"]),
            ],
            [((1, 1), 3)].into_iter().collect(),
        )
    }

    const HEADER: &str = "name,title,school,major,directions,bio\n";

    fn reasons(plan: &ImportPlan) -> Vec<String> {
        plan.bad.iter().map(|b| b.to_string()).collect()
    }

    #[test]
    fn good_lines_resolve_names_and_split_directions() {
        let text = format!(
            "\u{FEFF}{HEADER}张三,教授,北大,计算机,机器学习、数据挖掘；机器学习,  研究机器学习。 \n\
             \"Anna-Maria Müller\",讲师,上海交通大学,电子信息工程,\"vision, robotics\",\"第一行\r\n第二行\"\n"
        );
        let plan = plan(&text, &catalog());
        assert_eq!(reasons(&plan), Vec::<String>::new());
        assert!(!plan.unusable);
        let r = &plan.rows[0];
        assert_eq!(
            (r.line, r.name.as_str(), r.title.as_str()),
            (2, "张三", "教授")
        );
        assert_eq!((r.school_id, r.school.as_str()), (1, "北京大学"));
        assert_eq!((r.major_id, r.major.as_str()), (1, "计算机科学与技术"));
        assert_eq!(r.directions, vec!["机器学习", "数据挖掘"]);
        assert_eq!(r.bio, "研究机器学习。");
        let r = &plan.rows[1];
        assert_eq!(r.name, "Anna-Maria Müller");
        assert_eq!(r.directions, vec!["vision", "robotics"]);
        assert_eq!(r.bio, "第一行\n第二行");
    }

    #[test]
    fn excel_files_with_a_bom_and_crlf_line_ends_read_the_same() {
        let bytes = "\u{FEFF}name,title,school,major,directions,bio\r\n\
                     张三,教授,北大,计算机,机器学习,\"两\r\n行\"\r\n\r\n\
                     李四,讲师,北大,计算机,,\r\n"
            .as_bytes();
        let plan = plan_bytes(bytes, &catalog());
        assert_eq!(reasons(&plan), Vec::<String>::new());
        let lines: Vec<u64> = plan.rows.iter().map(|r| r.line).collect();
        assert_eq!(lines, vec![2, 5]);
        assert_eq!(plan.rows[0].bio, "两\n行");
        assert_eq!(plan.rows[1].bio, "");
    }

    #[test]
    fn columns_may_come_in_any_order_and_in_chinese() {
        let text = "简介,专业,学校,职称,姓名,研究方向\n,CS,PKU,副教授,买买提・艾力,\n";
        let plan = plan(text, &catalog());
        assert_eq!(reasons(&plan), Vec::<String>::new());
        assert_eq!(plan.rows[0].name, "买买提·艾力");
        assert_eq!(plan.rows[0].title, "副教授");
        assert!(plan.rows[0].directions.is_empty());
    }

    #[test]
    fn a_bad_header_makes_the_file_unusable() {
        for (text, expected) in [
            ("", "第 1 行：文件是空的"),
            ("name,title,school,major,directions\n", "表头缺少列：bio"),
            (
                "name,titel,school,major,directions,bio\n",
                "表头第 2 列「titel」",
            ),
            (
                "name,title,school,major,directions,bio,name\n",
                "「name」出现了两次",
            ),
        ] {
            let plan = plan(text, &catalog());
            assert!(plan.unusable, "{text}");
            assert!(plan.rows.is_empty());
            assert!(reasons(&plan)[0].contains(expected), "{:?}", plan.bad);
        }
        let plan = plan_bytes(
            b"name,title,school,major,directions,bio\n\xD5\xC5,a,b,c,d,e\n",
            &catalog(),
        );
        assert!(plan.unusable);
        assert!(reasons(&plan)[0].starts_with("第 2 行：文件不是 UTF-8"));
    }

    #[test]
    fn every_bad_line_is_reported_with_its_line_and_reason() {
        let text = format!(
            "{HEADER}\
             ,教授,北大,计算机,,\n\
             王五,博导,北大,计算机,,\n\
             赵六,教授,xx大学,计算机,,\n\
             钱七,教授,交大,电子,,\n\
             孙八,教授,北大,法学,,\n\
             周九,教授,北大,计算机,,,多一列\n\
             吴十,教授,北大,计算机,\"a,b,c,d,e,f,g,h,i\",\n\
             郑一2,教授,北大,计算机,,\n\
             冯二,教授,北大,计算机,,\"\u{7}\"\n\
             \n\
             ,,,,,\n\
             陈三,教授,北大,计算机,,\n\
             陈三,副教授,北京大学,计算机科学与技术,,\n"
        );
        let plan = plan(&text, &catalog());
        assert_eq!(
            reasons(&plan),
            vec![
                "第 2 行：姓名不能为空",
                "第 3 行：职称「博导」不是网站的职称（应为 教授、副教授、研究员、讲师 之一）",
                "第 4 行：学校「xx大学」不在目录中",
                "第 5 行：学校「交大」可能指 上海交通大学、西安交通大学，请写全称；专业「电子」可能指 电子信息工程、电子科学与技术，请写全称",
                "第 6 行：专业「法学」不在目录中",
                "第 7 行：有 7 列，表头有 6 列（含逗号的字段要用英文双引号括起来）",
                "第 8 行：研究方向有 9 个，最多 8 个",
                "第 9 行：姓名「郑一2」里有「2」：只能用汉字、拉丁字母和 ·",
                "第 10 行：简介含有控制字符",
                "第 14 行：与第 13 行是同一位导师（北京大学 / 计算机科学与技术 的「陈三」），只能出现一次",
            ]
        );
        assert_eq!(plan.rows.len(), 1);
        assert_eq!(plan.rows[0].line, 13);
        assert!(!plan.unusable);
    }

    #[test]
    fn lengths_are_counted_in_characters() {
        let long_name = "欧".repeat(21);
        let long_direction = "向".repeat(31);
        let long_bio = "简".repeat(2001);
        let text = format!(
            "{HEADER}{long_name},教授,北大,计算机,,\n\
             甲乙,教授,北大,计算机,{long_direction},\n\
             丙丁,教授,北大,计算机,,{long_bio}\n\
             {},教授,北大,计算机,{},{}\n",
            "欧".repeat(20),
            "向".repeat(30),
            "简".repeat(2000)
        );
        let plan = plan(&text, &catalog());
        let r = reasons(&plan);
        assert_eq!(r.len(), 3, "{r:?}");
        assert!(r[0].starts_with("第 2 行：姓名「") && r[0].contains("有 21 个字"));
        assert!(r[1].contains("有 31 个字，最多 30 个字"));
        assert!(r[2].contains("简介有 2001 个字"));
        assert_eq!(plan.rows.len(), 1);
    }

    #[test]
    fn an_unclosed_quote_is_a_bad_line_not_a_swallowed_file() {
        let text =
            format!("{HEADER}张三,教授,北大,计算机,,\"没有闭合\n李四,教授,北大,计算机,,好\n");
        let unclosed = plan(&text, &catalog());
        assert!(unclosed.rows.is_empty());
        assert_eq!(
            reasons(&unclosed),
            vec!["第 2 行：引号没有闭合：从这一行到文件末尾被读成了一行"]
        );
        // Closed, a quoted field may span lines.
        let text =
            format!("{HEADER}张三,教授,北大,计算机,,\"两\n行\"\n李四,教授,北大,计算机,,好\n");
        let closed = plan(&text, &catalog());
        assert_eq!(reasons(&closed), Vec::<String>::new());
        assert_eq!(closed.rows[1].line, 4);
    }

    #[test]
    fn names_allow_latin_words_and_the_middle_dot_only() {
        assert_eq!(
            check_name(" 张  三 ").unwrap_err(),
            "姓名「张 三」里有「 」：只能用汉字、拉丁字母和 ·"
        );
        assert_eq!(check_name("Jean  Dupont").unwrap(), "Jean Dupont");
        assert!(check_name("·").is_err());
        assert!(check_name("-Jean").is_err());
        assert!(check_name("张三<script>").is_err());
        assert_eq!(check_name("𠀀三").unwrap(), "𠀀三");
    }

    #[test]
    fn arguments() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let parsed =
            ImportArgs::parse(&args(&["--dry-run", "a.csv", "--db", "sqlite://x.db"])).unwrap();
        assert_eq!(parsed.file, "a.csv");
        assert_eq!(parsed.db.as_deref(), Some("sqlite://x.db"));
        assert_eq!(
            parsed.options,
            Options {
                dry_run: true,
                skip_bad: false
            }
        );
        assert!(
            ImportArgs::parse(&args(&["a.csv", "--skip-bad"]))
                .unwrap()
                .options
                .skip_bad
        );
        assert!(ImportArgs::parse(&args(&[])).is_err());
        assert!(ImportArgs::parse(&args(&["a.csv", "b.csv"])).is_err());
        assert!(ImportArgs::parse(&args(&["a.csv", "--force"]))
            .unwrap_err()
            .contains("--force"));
        assert!(ImportArgs::parse(&args(&["a.csv", "--db"])).is_err());
    }
}
