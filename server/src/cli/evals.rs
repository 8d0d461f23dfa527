//! The evaluation commands: dialogue suites replayed on the planner (and a
//! model), the coach's and the posting rules' labelled sets (the harnesses
//! are `crate::evals`), and `analyze` for whoever extends a lexicon. Each
//! runs on a fresh copy of the demo data, so it neither reads nor changes
//! the site's own database. Like the harnesses, only with the `evals`
//! feature (not in the release build).

use std::process::ExitCode;
use std::sync::Arc;

use super::Failure;
use crate::agent::Agent;
use crate::evals::dialogues::{self as eval, parse_suite, run_dialogue, Summary};
use crate::llm::LlmConfig;
use crate::site::Site;
use crate::{db, startup};

/// A fresh copy of the demo data in a temporary file, deleted afterwards, so
/// an evaluation neither reads nor changes the site's own database. The
/// suites are written against the demo, whatever DEMO_DATA says.
pub struct DemoSite {
    site: Arc<Site>,
    pool: db::Pool,
    _file: TempFile,
}

/// The database file and its companions, deleted when dropped (an early
/// error included).
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", ".setup-lock"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

impl DemoSite {
    /// Opens a new copy; `tag` names its file (one per command and copy).
    pub async fn open(tag: &str) -> Result<DemoSite, Failure> {
        let file =
            TempFile(std::env::temp_dir().join(format!("advisor-{tag}-{}.db", std::process::id())));
        let (pool, _) = startup::open_with(
            &format!("sqlite://{}", file.0.display()),
            startup::Seeding::Demo,
        )
        .await?;
        let site = Arc::new(Site::load(pool.clone()).await?);
        Ok(DemoSite {
            site,
            pool,
            _file: file,
        })
    }

    /// Closes the database; its files go with `self`.
    pub async fn close(self) {
        self.pool.close().await;
    }
}

/// The dialogues of the suite file at `path`.
fn read_suite(path: &str) -> Result<Vec<eval::Dialogue>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    Ok(parse_suite(&text).map_err(|e| format!("{path} 格式错误：{e}"))?)
}

/// Every turn of `dialogues` on `agent`, each printed as it ends when
/// `print` is set.
async fn replay(
    agent: &Agent,
    site: &Site,
    dialogues: &[eval::Dialogue],
    print: bool,
) -> Vec<eval::TurnReport> {
    let mut reports = Vec::new();
    for d in dialogues {
        for r in run_dialogue(agent, site, d).await {
            if print {
                println!("{}", eval::render_turn(&r));
            }
            reports.push(r);
        }
    }
    reports
}

/// `server eval`: a suite on the configured planner (`llm`: the model the
/// `LLM_*` variables configure, none: code's own).
pub async fn evaluate(
    path: &str,
    strict: bool,
    llm: Option<LlmConfig>,
) -> Result<ExitCode, Failure> {
    let dialogues = read_suite(path)?;
    let demo = DemoSite::open("eval").await?;
    let agent = Agent::configured(demo.site.clone(), llm)?;
    let reports = replay(&agent, &demo.site, &dialogues, true).await;
    let summary = Summary::of(dialogues.len(), &reports);
    println!("\n{}", summary.render(&agent.planner_name()));
    demo.close().await;
    Ok(if strict && summary.passed < summary.turns {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `server eval-model`: each suite on code alone and with the configured
/// model, turn by turn: what the model rescues and what it
/// breaks, its calls by why it was asked, and the time to the first spoken
/// sentence.
pub async fn evaluate_model(args: &[String], llm: Option<LlmConfig>) -> Result<ExitCode, Failure> {
    let config =
        llm.ok_or("eval-model 需要 LLM_BASE_URL（或 LLM_API_KEY / LLM_MODEL）指向一个模型")?;
    let mut broken = 0;
    for path in args {
        let dialogues = read_suite(path)?;
        let mut runs = Vec::new();
        for with_model in [false, true] {
            let demo = DemoSite::open(&format!("eval-model-{with_model}")).await?;
            let agent = if with_model {
                Agent::with_model(demo.site.clone(), config.clone())?
            } else {
                Agent::new(demo.site.clone())
            };
            let reports = replay(&agent, &demo.site, &dialogues, false).await;
            let summary = Summary::of(dialogues.len(), &reports);
            println!("== {path}\n{}", summary.render(&agent.planner_name()));
            runs.push(reports);
            demo.close().await;
        }
        let comparison = eval::Comparison::of(&runs[0], &runs[1]);
        println!("{}", comparison.render());
        for line in &comparison.rescued {
            println!("  RESCUED {line}");
        }
        broken += comparison.broken.len();
    }
    Ok(if broken == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `server analyze`: what code's NLU reads in one sentence, for whoever
/// extends a lexicon or a rule.
pub async fn analyze(text: &str, known: &[String]) -> Result<ExitCode, Failure> {
    let demo = DemoSite::open("nlu").await?;
    let agent = Agent::new(demo.site.clone());
    let analysis = crate::agent::nlu::analyze(text, &agent.lexicons(), known);
    println!("{analysis:#?}");
    demo.close().await;
    Ok(ExitCode::SUCCESS)
}

/// `server eval-coach`: the coach on a labelled set, and through the
/// model's router too when `llm` is configured.
pub async fn evaluate_coach(
    path: &str,
    misses: bool,
    llm: Option<LlmConfig>,
) -> Result<ExitCode, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    // A set of scored messages (server/evals/coach-scores*.jsonl): the
    // reader's scores per dimension and category.
    if text.contains("\"gold\"") {
        use crate::evals::coach_scores as eval_scores;
        let set = eval_scores::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
        let report = eval_scores::run(&set);
        print!("{}", eval_scores::render(path, &report, misses));
        return Ok(ExitCode::SUCCESS);
    }
    let set = crate::evals::coach::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
    let verdicts = crate::evals::coach::run(&set);
    print!("{}", crate::evals::coach::render(&verdicts));
    // With LLM_* set: the same set through the model's router and follow-up.
    if let Some(config) = llm {
        let model = config.model.clone();
        let client = crate::llm::LlmClient::new(config)?;
        let demo = DemoSite::open("eval-coach").await?;
        let coach = crate::coach::Coach::new(
            demo.site.clone(),
            Arc::new(crate::speech_act::SpeechActs::load()),
            crate::agent::nlu::faq_passages(),
        );
        let score = crate::evals::coach::run_model(&coach, &client, &set).await;
        print!("\n{}", score.render(&model));
        demo.close().await;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn evaluate_rules(path: &str) -> Result<ExitCode, Failure> {
    use crate::evals::rules as eval;
    let text = std::fs::read_to_string(path).map_err(|e| format!("无法读取 {path}：{e}"))?;
    let set: Vec<eval::Labelled> =
        crate::text::jsonl::parse(&text).map_err(|e| format!("{path} 格式错误：{e}"))?;
    print!("{}", eval::render(&eval::run(&set)));
    Ok(ExitCode::SUCCESS)
}
