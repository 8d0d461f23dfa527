//! The flags of the tool subcommands (`server load`, `server seed`, `server
//! bench-scale`): every flag takes one value, numbers are positive.

/// `--name value` pairs in order; a flag without its value is an error.
pub fn flag_values(args: &[String]) -> Result<Vec<(&str, &str)>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} 需要一个值"))?;
        out.push((flag.as_str(), value.as_str()));
    }
    Ok(out)
}

/// A positive whole number, or the error that names the flag.
pub fn positive(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("{flag} 应为正整数，现在是「{value}」"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_numbers() {
        let args: Vec<String> = ["--a", "1", "--b", "x"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            flag_values(&args).unwrap(),
            vec![("--a", "1"), ("--b", "x")]
        );
        assert!(flag_values(&args[..3]).is_err());
        assert_eq!(positive("--a", "3"), Ok(3));
        assert!(positive("--a", "0").is_err());
        assert!(positive("--a", "x").unwrap_err().contains("--a"));
    }
}
