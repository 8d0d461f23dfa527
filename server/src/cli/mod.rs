//! The command-line tools that share the site's code, apart from the site:
//! evaluations (`eval`, `eval-model`, `eval-coach`, `eval-rules`,
//! `analyze`), `load`, `seed`, `bench-scale`, `import`, `mock-llm` and
//! `mock-asr`.
//! `main.rs` only dispatches to them (see its doc for each command's
//! flags).

pub mod bench_scale;
pub mod evals;
pub mod flags;
pub mod import;
pub mod load;
pub mod tools;

pub use flags::{flag_values, positive};
pub use tools::Databases;

/// What a command fails with: printed, and the process exits 1.
pub type Failure = Box<dyn std::error::Error>;

/// The commands, printed by `server help`, after the options by `server
/// --help`, and after a wrong command line.
pub const USAGE: &str = "用法：
  server                                   启动网站
  server eval <suite.jsonl> [--strict]     用对话集评测当前配置的规划器（LLM_* 未设置时为内置规划器）
  server eval-model <suite.jsonl>…          同一对话集先用内置规划器、再用 LLM_* 配置的模型各跑一遍：模型挽救和弄坏的回合、
                                           各原因的模型调用次数、首句语音时间 p50/p95
  server eval-coach <set.jsonl> [--misses] 用标注集评测评价助手：路由准确率和发帖规则（coach.jsonl），或各维度评分的准确率（coach-scores*.jsonl）
  server analyze <句子> [已知导师名…]        打印代码的语言理解结果（槽位、意图、指代），不调用模型
  server eval-rules <set.jsonl>            用标注集评测发帖规则：各条规则的精确率、召回率，无辜句子的通过率
  server load [--url U] [--sessions 200] [--turns 20] [--concurrency 50]
                                           压力测试：多个会话同时对话，打印吞吐量与延迟（不给 --url 时在本进程内启动网站）
  server mock-llm <script.json> [--addr 127.0.0.1:3199]
                                           启动按脚本回答的 OpenAI 兼容模型服务（测试与演示用）
  server asr-prompt [--school 学校 --major 专业 --advisors 张三,李四]
                                           打印在这个页面上录音时交给语音识别的提示词（make eval-asr 用它）
  server mock-asr [script.json] [--addr 127.0.0.1:3198]
                                           启动按脚本回答的 OpenAI 兼容语音识别服务（测试用；PUT /script 换脚本，GET /received 看收到的录音）
  server seed [--db URL] [--advisors 100000] [--reviews 1000000]
                                           在一个空数据库里写入放大到该规模的演示数据（默认 DATABASE_URL，未设置时 sqlite://data/scale.db）
  server bench-scale [--db URL] [--pg URL] [--samples 200]
                                           在演示数据和规模数据上测主要请求的 p50/p95（规模数据库同 seed；为空时先写入）
  server import <advisors.csv> [--dry-run] [--skip-bad] [--db URL]
                                           从 CSV 文件导入导师（表头 name,title,school,major,directions,bio）：
                                           已有的按 学校+专业+姓名 更新；有坏行时不导入（--skip-bad 跳过坏行，
                                           --dry-run 只显示将会发生什么）
环境变量见上方的选项（每个选项也可以用同名环境变量设置），例如 DEMO_DATA=off：空数据库只写入学校和专业目录，不写入演示导师和评价";
