//! Reading the file: its encoding (UTF-8, a byte-order mark dropped), the
//! CSV records, the header that says which column is which, and the line
//! where each record starts. What the values mean is not this file's
//! business: it hands on six trimmed strings per record, or why a record
//! could not be read.

use super::{shown, BadLine};

/// The columns, in the documented order.
pub const COLUMNS: [&str; 6] = ["name", "title", "school", "major", "directions", "bio"];
/// The Chinese header accepted for each of [`COLUMNS`].
pub(super) const COLUMNS_ZH: [&str; 6] = ["姓名", "职称", "学校", "专业", "研究方向", "简介"];

pub(super) const NAME: usize = 0;
pub(super) const TITLE: usize = 1;
pub(super) const SCHOOL: usize = 2;
pub(super) const MAJOR: usize = 3;
pub(super) const DIRECTIONS: usize = 4;
pub(super) const BIO: usize = 5;

/// A record of the file with as many fields as the header.
pub(super) struct Record {
    /// Where the record starts in the file (the header is line 1).
    pub(super) line: u64,
    /// In [`COLUMNS`] order, trimmed.
    pub(super) fields: [String; 6],
}

/// The text of a file's bytes; not UTF-8 is the file's error, at the line
/// of the first byte that is not.
pub(super) fn decode(bytes: &[u8]) -> Result<&str, BadLine> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        BadLine {
            line: 1 + line_ends(before),
            reason:
                "文件不是 UTF-8 编码（Excel 请「另存为」「CSV UTF-8」，或用 iconv -f GBK -t UTF-8 转换）"
                    .to_string(),
        }
    })
}

/// The records of a CSV text after its header, in file order, each read
/// or a bad line; records with every field empty are skipped. `Err` when
/// the header cannot be read: then the file as a whole is unusable.
pub(super) fn read(csv_text: &str) -> Result<Vec<Result<Record, BadLine>>, BadLine> {
    let text = csv_text.strip_prefix('\u{FEFF}').unwrap_or(csv_text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut lines = Lines::new(text);
    let mut records = reader.records();
    let header = match records.next() {
        None => {
            return Err(BadLine {
                line: 1,
                reason: format!("文件是空的：第一行应是表头 {}", COLUMNS.join(",")),
            })
        }
        Some(Err(e)) => {
            return Err(BadLine {
                line: lines.of_error(&e),
                reason: format!("表头读不出来：{e}"),
            })
        }
        Some(Ok(h)) => h,
    };
    let header_line = lines.of(&header);
    let order = columns(&header).map_err(|reason| BadLine {
        line: header_line,
        reason,
    })?;

    let mut out = Vec::new();
    let mut last: Option<(u64, usize)> = None;
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                out.push(Err(BadLine {
                    line: lines.of_error(&e),
                    reason: format!("读不出来：{e}"),
                }));
                continue;
            }
        };
        let line = lines.of(&record);
        last = Some((line, record.position().map_or(0, |p| p.byte() as usize)));
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        if record.len() != order.len() {
            out.push(Err(BadLine {
                line,
                reason: format!(
                    "有 {} 列，表头有 {} 列（含逗号的字段要用英文双引号括起来）",
                    record.len(),
                    order.len()
                ),
            }));
            continue;
        }
        let mut fields: [String; 6] = Default::default();
        for (i, column) in order.iter().enumerate() {
            fields[*column] = record.get(i).unwrap_or_default().trim().to_string();
        }
        out.push(Ok(Record { line, fields }));
    }

    // An opening quote never closed runs to the end of the file, which the
    // CSV reader takes as the end of the field: its last record then starts
    // a quoted field it never ends (an odd number of quotes from its start).
    if let Some((line, byte)) = last {
        let rest = text.get(byte..).unwrap_or_default();
        if rest.matches('"').count() % 2 == 1 {
            out.retain(|r| r.as_ref().map_or_else(|b| b.line, |r| r.line) != line);
            out.push(Err(BadLine {
                line,
                reason: "引号没有闭合：从这一行到文件末尾被读成了一行".to_string(),
            }));
        }
    }
    Ok(out)
}

/// The line ends in `bytes` as the CSV reader ends records: `\n`, `\r\n`
/// (Excel on Windows) and a `\r` alone (Excel's "CSV (Macintosh)"), each
/// one line.
pub(super) fn line_ends(bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut after_cr = false;
    for b in bytes {
        match b {
            b'\r' => n += 1,
            b'\n' if !after_cr => n += 1,
            _ => {}
        }
        after_cr = *b == b'\r';
    }
    n
}

/// The line in the file where a record starts. The reader's own line
/// numbers lag behind after `\r\n` line ends (Excel's): it counts the `\n`
/// of a record's `\r\n` into the next record, and a `\r` alone not at all.
/// So lines are counted here ([`line_ends`]), from the byte where the
/// record starts, past any line ends before it; records come in file
/// order and start after a whole line end, so each is counted once.
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
            self.line += line_ends(&self.text[self.byte..start]);
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

#[cfg(test)]
mod tests {
    use super::super::fixtures::{catalog, reasons, HEADER};
    use super::super::{plan, plan_bytes};

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

    /// Found by fuzzing: with a `\r` alone between lines every record was
    /// on "line 1", the first line counted being the header's.
    #[test]
    fn old_mac_line_ends_count_as_lines() {
        let text = format!("{HEADER}张三,博导,北大,计算机,,\r李四,教授,北大,计算机,,\r")
            .replace('\n', "\r");
        let plan = plan(&text, &catalog());
        assert_eq!(reasons(&plan).len(), 1, "{:?}", plan.bad);
        assert_eq!(plan.bad[0].line, 2);
        assert_eq!(plan.rows[0].line, 3);
        let plan = plan_bytes(
            b"name,title,school,major,directions,bio\r\n\r\xD5\xC5,a,b,c,d,e\r",
            &catalog(),
        );
        assert!(reasons(&plan)[0].starts_with("第 3 行：文件不是 UTF-8"));
        assert_eq!(super::line_ends(b"a\r\nb\rc\n\n\r"), 5);
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
}
