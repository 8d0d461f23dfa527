//! The command-line tools that share the site's code, apart from the site:
//! evaluations (`eval`, `eval-model`, `eval-coach`, `eval-rules`,
//! `analyze`), `load`, `seed`, `bench-scale`, `import`, `mock-llm` and
//! `mock-asr`.
//! `main.rs` only dispatches to them (see its doc for each command's
//! flags).

pub mod bench_scale;
pub mod commands;
#[cfg(feature = "evals")]
pub mod evals;
pub mod import;
pub mod load;
pub mod tools;

pub use tools::Databases;

/// What a command fails with: printed, and the process exits 1.
pub type Failure = Box<dyn std::error::Error>;

/// Printed after the options and commands by `server --help`.
pub const USAGE: &str = "每个选项也可以用同名环境变量设置，例如 DEMO_DATA=off：空数据库只写入学校和专业目录，不写入演示导师和评价。
每个命令的参数：server <命令> --help。
退出码：0 完成；1 运行失败（数据库无法打开、导入有坏行、评测不通过等）；2 命令行有误。";
