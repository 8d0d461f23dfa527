//! What an import says: what happened (or would) to each good line, the
//! bad lines, the pairs that get their first advisor, the text the command
//! prints and its exit code. A change of wording changes this file only.

use super::BadLine;

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

/// The result of [`apply`](super::apply()).
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
