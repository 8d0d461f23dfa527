//! The subcommands and their flags, declared once for clap, so that every
//! command answers `--help` the same way (its flags, their defaults, exit
//! 0), a wrong command line is refused the same way (the message and the
//! command's usage on stderr, exit 2), and no tool parses its arguments by
//! hand. Hand-written parsers answered `--help` four different ways: an
//! unknown option, "needs a value", a file named `--help` opened, the word
//! "help" analysed.
//!
//! Exit codes, for every command: 0 done; 1 it ran and failed (a database
//! that cannot be opened, bad lines that stopped an import, a failed
//! evaluation with `--strict`, errors of `load`); 2 the command line is
//! wrong (an unknown flag, a missing argument, a value out of range) or,
//! for `import`, the file cannot be read.

use clap::{Args, Subcommand};

/// The tools that share the site's code. None: the site is served.
#[derive(Clone, Debug, Subcommand)]
pub enum Command {
    #[cfg(feature = "evals")]
    /// 用对话集评测当前配置的规划器（LLM_* 未设置时为内置规划器）
    Eval {
        /// 对话集文件（JSONL）
        suite: String,
        /// 有回合不通过时退出码为 1
        #[arg(long)]
        strict: bool,
    },
    #[cfg(feature = "evals")]
    /// 同一对话集先用内置规划器、再用 LLM_* 配置的模型各跑一遍：模型挽救和弄坏的回合、各原因的模型调用次数、首句语音时间 p50/p95
    EvalModel {
        /// 对话集文件（JSONL），一个或多个
        #[arg(required = true)]
        suites: Vec<String>,
    },
    #[cfg(feature = "evals")]
    /// 用标注集评测评价助手：路由准确率和发帖规则（dev/coach.jsonl），或各维度评分的准确率（coach-scores*.jsonl）
    EvalCoach {
        /// 标注集文件（JSONL）
        set: String,
        /// 列出评分没有读对的句子
        #[arg(long)]
        misses: bool,
    },
    #[cfg(feature = "evals")]
    /// 用标注集评测发帖规则：各条规则的精确率、召回率，无辜句子的通过率
    EvalRules {
        /// 标注集文件（JSONL）
        set: String,
    },
    #[cfg(feature = "evals")]
    /// 打印代码的语言理解结果（槽位、意图、指代），不调用模型
    Analyze {
        /// 要分析的句子
        sentence: String,
        /// 页面上已知的导师名
        known: Vec<String>,
    },
    /// 压力测试：多个会话同时对话，打印吞吐量与延迟（不给 --url 时在本进程内启动网站）
    Load(LoadArgs),
    /// 启动按脚本回答的 OpenAI 兼容模型服务（测试与演示用）
    MockLlm {
        /// 脚本文件（JSON）
        script: String,
        /// 监听地址
        #[arg(long, default_value = "127.0.0.1:3199")]
        addr: String,
    },
    /// 启动按脚本回答的 OpenAI 兼容语音识别服务（测试用；PUT /script 换脚本，GET /received 看收到的录音）
    MockAsr {
        /// 脚本文件（JSON）；不给时什么也听不到，直到 PUT /script
        script: Option<String>,
        /// 监听地址
        #[arg(long, default_value = "127.0.0.1:3198")]
        addr: String,
    },
    /// 打印在这个页面上录音时交给语音识别的提示词（make eval-asr 用它）
    AsrPrompt {
        /// 页面的学校
        #[arg(long, requires = "major")]
        school: Option<String>,
        /// 页面的专业
        #[arg(long, requires = "school")]
        major: Option<String>,
        /// 页面上的导师，用逗号分隔（张三,李四）
        #[arg(long, default_value = "")]
        advisors: String,
    },
    /// 在一个空数据库里写入放大到该规模的演示数据（默认 DATABASE_URL，未设置时 sqlite://data/scale.db）
    Seed(ScaleArgs),
    /// 在演示数据和规模数据上测主要请求的 p50/p95（规模数据库同 seed；为空时先写入）
    BenchScale(ScaleArgs),
    /// 从 CSV 文件导入导师（表头 name,title,school,major,directions,bio）：已有的按 学校+专业+姓名 更新；有坏行时不导入
    ///
    /// 空数据库只先写入学校和专业目录，不写入演示数据（除非明确设置 DEMO_DATA=on）。
    /// 退出码：0 完成；1 有坏行而没有导入，或数据库无法打开；2 命令行有误或文件无法读取。
    Import(ImportCommand),
    /// 解除管理员令牌的封锁：清除所有（或 --client 指定的）客户端输错令牌的计数，正确的令牌立即可用
    AdminUnlock {
        /// 只解除这个客户端（IP 地址）的封锁
        #[arg(long)]
        client: Option<String>,
        /// 数据库（默认 DATABASE_URL）
        #[arg(long)]
        db: Option<String>,
    },
}

/// `server load`'s flags.
#[derive(Clone, Debug, Args)]
pub struct LoadArgs {
    /// 一个正在运行的网站（不给时在本进程内启动一个）
    #[arg(long)]
    pub url: Option<String>,
    /// 会话数
    #[arg(long, default_value_t = 200, value_parser = positive)]
    pub sessions: usize,
    /// 每个会话的回合数
    #[arg(long, default_value_t = 20, value_parser = positive)]
    pub turns: usize,
    /// 同时进行的会话数
    #[arg(long, default_value_t = 50, value_parser = positive)]
    pub concurrency: usize,
}

/// `server seed`'s and `server bench-scale`'s flags.
#[derive(Clone, Debug, Args)]
pub struct ScaleArgs {
    /// 规模数据库（默认 DATABASE_URL，未设置时 sqlite://data/scale.db）
    #[arg(long)]
    pub db: Option<String>,
    /// 与 --db 并列测量的 PostgreSQL 规模数据库（bench-scale）
    #[arg(long)]
    pub pg: Option<String>,
    /// 导师数
    #[arg(long, default_value_t = 100_000, value_parser = positive)]
    pub advisors: usize,
    /// 评价数
    #[arg(long, default_value_t = 1_000_000, value_parser = positive)]
    pub reviews: usize,
    /// 每个请求测量的次数（bench-scale）
    #[arg(long, default_value_t = 200, value_parser = positive)]
    pub samples: usize,
    /// bench-scale 并列测量的规模（导师数，每位 10 条评价），逗号分隔
    #[arg(long, value_delimiter = ',', default_values_t = [10_000, 100_000], value_parser = positive)]
    pub sizes: Vec<usize>,
    /// bench-scale 只测 --pg（例如规模大到两个数据库放不下时）
    #[arg(long)]
    pub pg_only: bool,
}

/// `server import`'s arguments.
#[derive(Clone, Debug, Args)]
pub struct ImportCommand {
    /// CSV 文件（UTF-8）
    pub file: String,
    /// 只显示将会发生什么，不创建、不写入数据库
    #[arg(long)]
    pub dry_run: bool,
    /// 跳过坏行，导入其余的行
    #[arg(long)]
    pub skip_bad: bool,
    /// 数据库（默认 DATABASE_URL，未设置时 sqlite://data/advisor.db）
    #[arg(long)]
    pub db: Option<String>,
}

/// A positive whole number (clap names the flag in its error).
fn positive(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("应为正整数，现在是「{value}」"))
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::Command;

    #[derive(Parser)]
    struct Top {
        #[command(subcommand)]
        command: Command,
    }

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Top::try_parse_from(std::iter::once("server").chain(args.iter().copied()))
            .map(|t| t.command)
    }

    #[test]
    fn every_subcommand_answers_help_from_clap() {
        let top = Top::command();
        let names: Vec<String> = top
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        assert!(names.len() >= 12, "{names:?}");
        for name in &names {
            let e = parse(&[name, "--help"]).expect_err("--help stops parsing");
            assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{name}");
            assert_eq!(e.exit_code(), 0, "{name}");
        }
    }

    #[test]
    fn numbers_are_positive_and_unknown_flags_are_refused() {
        let Command::Load(load) = parse(&["load", "--turns", "3"]).unwrap() else {
            panic!("load");
        };
        assert_eq!((load.turns, load.sessions, load.concurrency), (3, 200, 50));
        for wrong in [
            &["load", "--turns", "0"][..],
            &["seed", "--what", "1"],
            &["import"],
            &["import", "a.csv", "b.csv"],
            &["import", "a.csv", "--force"],
            &["import", "a.csv", "--db"],
            &["eval-model"],
            &["asr-prompt", "--school", "北京大学"],
        ] {
            let e = parse(wrong)
                .err()
                .unwrap_or_else(|| panic!("{wrong:?} accepted"));
            assert_eq!(e.exit_code(), 2, "{wrong:?}");
        }
        let Command::Import(import) =
            parse(&["import", "--dry-run", "a.csv", "--db", "sqlite://x.db"]).unwrap()
        else {
            panic!("import");
        };
        assert!(import.dry_run && !import.skip_bad);
        assert_eq!(import.db.as_deref(), Some("sqlite://x.db"));
    }
}
