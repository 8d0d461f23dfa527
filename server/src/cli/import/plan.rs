//! A file's lines checked against the catalog: each record a [`Row`] with
//! its school and major resolved (an alias is found, an ambiguous or
//! unknown name is a bad line), or a [`BadLine`]; one advisor twice in a
//! file is a bad line too. Pure: the database is `apply.rs`'s.

use std::collections::HashMap;

use crate::catalog::{Catalog, Resolution};

use super::csv::{self, BIO, DIRECTIONS, MAJOR, NAME, SCHOOL, TITLE};
use super::fields;
use super::{shown, BadLine};

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
    fn unusable(bad: BadLine) -> ImportPlan {
        ImportPlan {
            rows: Vec::new(),
            bad: vec![bad],
            unusable: true,
        }
    }
}

/// [`plan`] of the bytes of a file: not UTF-8 makes it unusable.
pub fn plan_bytes(bytes: &[u8], catalog: &Catalog) -> ImportPlan {
    match csv::decode(bytes) {
        Ok(text) => plan(text, catalog),
        Err(bad) => ImportPlan::unusable(bad),
    }
}

/// Parses and checks a CSV file against the catalog: every line either
/// a good [`Row`] or a [`BadLine`]. Touches nothing; never panics.
pub fn plan(csv_text: &str, catalog: &Catalog) -> ImportPlan {
    let records = match csv::read(csv_text) {
        Ok(records) => records,
        Err(bad) => return ImportPlan::unusable(bad),
    };
    let mut out = ImportPlan::default();
    let mut seen: HashMap<(i64, i64, String), u64> = HashMap::new();
    for record in records {
        let record = match record {
            Ok(r) => r,
            Err(bad) => {
                out.bad.push(bad);
                continue;
            }
        };
        let line = record.line;
        match check(line, &record.fields.each_ref().map(String::as_str), catalog) {
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
    out.bad.sort_by_key(|b| b.line);
    out
}

/// Checks one line's values (in [`csv::COLUMNS`] order, trimmed).
fn check(line: u64, values: &[&str; 6], catalog: &Catalog) -> Result<Row, Vec<String>> {
    let mut reasons = fields::control_characters(values);
    if !reasons.is_empty() {
        return Err(reasons);
    }

    let name = fields::check_name(values[NAME])
        .map_err(|r| reasons.push(r))
        .ok();
    let title = values[TITLE];
    if let Err(r) = fields::check_title(title) {
        reasons.push(r);
    }
    let school = match values[SCHOOL] {
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
    let major = match values[MAJOR] {
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
    let directions = fields::check_directions(values[DIRECTIONS])
        .map_err(|r| reasons.extend(r))
        .ok();
    let bio = fields::check_bio(values[BIO])
        .map_err(|r| reasons.push(r))
        .ok();

    match (name, school, major, directions, bio) {
        (Some(name), Some(school), Some(major), Some(directions), Some(bio))
            if reasons.is_empty() =>
        {
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

#[cfg(test)]
mod tests {
    use super::super::fixtures::{catalog, reasons, HEADER};
    use super::*;

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
}
