//! `server import`'s command line: the file, the switches and `--db`. Apart
//! so that a new flag touches this file and whatever reads the switch only.

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

#[cfg(test)]
mod tests {
    use super::*;

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
