//! `server import` and `DEMO_DATA=off` (real data in): an empty
//! site that works, advisors from a CSV file that show in a running site
//! with consistent aggregates, idempotence, updates, bad lines with their
//! line numbers and nothing written, `--skip-bad`, `--dry-run`, and the
//! subcommand end to end.

use crate::common;

use axum::http::StatusCode;
use server::cli::import::{self, Change, ImportPlan, Options, Report};
use server::site::Site;
use server::startup::Seeding;
use server::store;

use app::model::{RankingView, SortKey};

/// The example of the README, as committed.
const EXAMPLE: &str = include_str!("../../../data/import-example.csv");
const EXAMPLE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/import-example.csv");

const HEADER: &str = "name,title,school,major,directions,bio\n";

async fn plan_of(site: &Site, text: &str) -> ImportPlan {
    let catalog = server::catalog::Catalog::load(site.pool()).await.unwrap();
    import::plan(text, &catalog)
}

/// Plans and applies `text` through a pool of its own, as `server import`
/// does from another process.
async fn run(site: &Site, text: &str, options: Options) -> Report {
    let url = common::url_of(site);
    let (pool, seeded) = server::startup::open_with(&url, Seeding::CatalogOnly)
        .await
        .unwrap();
    assert!(!seeded);
    let plan = plan_of(site, text).await;
    let report = import::apply(&pool, &plan, options).await.unwrap();
    pool.close().await;
    report
}

async fn count(site: &Site, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(site.pool())
        .await
        .unwrap()
}

async fn assert_no_drift(site: &Site) {
    common::assert_aggregates_match_recomputation(site).await;
}

/// The names on the first page of a ranking, or the view it was instead.
async fn ranked(site: &Site, school: &str, major: &str) -> Vec<String> {
    match site
        .ranking(school, major, SortKey::Overall, 1)
        .await
        .unwrap()
    {
        RankingView::Ranking(page) => page.advisors.into_iter().map(|a| a.name).collect(),
        other => panic!("no ranking of {school} / {major}: {other:?}"),
    }
}

#[test]
fn demo_data_accepts_off_on_or_nothing_and_refuses_the_rest() {
    assert_eq!(Seeding::parse(None), Ok(Seeding::Demo));
    assert_eq!(Seeding::parse(Some("")), Ok(Seeding::Demo));
    assert_eq!(Seeding::parse(Some("on")), Ok(Seeding::Demo));
    assert_eq!(Seeding::parse(Some("off")), Ok(Seeding::CatalogOnly));
    assert_eq!(Seeding::parse(Some(" OFF ")), Ok(Seeding::CatalogOnly));
    for wrong in ["of", "false", "0", "no"] {
        let e = Seeding::parse(Some(wrong)).unwrap_err();
        assert!(e.contains("DEMO_DATA") && e.contains(wrong), "{e}");
    }
}

#[tokio::test]
async fn an_empty_site_has_the_catalog_only_and_its_pages_render() {
    let site = common::catalog_only_site().await;
    assert!(count(&site, "SELECT COUNT(*) FROM schools").await >= 30);
    assert!(count(&site, "SELECT COUNT(*) FROM majors").await >= 30);
    assert!(count(&site, "SELECT COUNT(*) FROM school_aliases").await > 0);
    assert!(count(&site, "SELECT COUNT(*) FROM tags").await > 0);
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 0);
    assert_eq!(count(&site, "SELECT COUNT(*) FROM reviews").await, 0);
    assert_no_drift(&site).await;

    let home = site.home().await.unwrap();
    assert_eq!((home.advisor_count, home.review_count), (0, 0));
    assert!(home.school_count >= 30);
    // A pair without advisors is not a ranking: the school's majors (none).
    match site
        .ranking("北京大学", "计算机", SortKey::Overall, 1)
        .await
        .unwrap()
    {
        RankingView::ChooseMajor { majors, .. } => assert!(majors.is_empty()),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        site.ranking_stats_by_name("北京大学", "计算机")
            .await
            .unwrap(),
        None
    );

    let app = common::router(&site);
    for uri in [
        "/",
        "/ranking?school=北京大学&major=计算机",
        "/ranking?school=北京大学",
        "/api/v1/schools",
        "/api/v1/majors?school=北大",
        "/api/v1/advisors?school=北大&major=计算机",
        "/healthz",
    ] {
        let r = common::get(&app, uri).await;
        assert!(
            !r.status.is_server_error(),
            "{uri}: {} {}",
            r.status,
            r.body
        );
        assert!(!r.body.contains("panicked"), "{uri}");
    }
    let r = common::get(&app, "/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("北京大学"));
}

#[tokio::test]
async fn imported_advisors_show_in_a_running_site_with_consistent_aggregates() {
    let site = common::catalog_only_site().await;
    let report = run(&site, EXAMPLE, Options::default()).await;
    assert_eq!(report.bad, vec![], "{}", report.render());
    assert_eq!(
        (report.added(), report.updated(), report.unchanged()),
        (4, 0, 0)
    );
    assert!(report.written && !report.stopped);
    assert_eq!(report.exit_code(), 0);
    assert_eq!(report.new_pairs.len(), 4);
    assert!(report
        .render()
        .starts_with("导入完成：新增 4 位，更新 0 位，未变 0 位；坏行 0 行\n"));
    assert_no_drift(&site).await;

    // The site was loaded before the import (another process wrote it):
    // it sees the change and reloads what it caches.
    assert!(site.refresh_if_changed().await.unwrap());
    assert!(!site.refresh_if_changed().await.unwrap());
    assert_eq!(
        ranked(&site, "清华", "计算机").await,
        vec!["林知远".to_string()]
    );
    assert_eq!(ranked(&site, "复旦大学", "经济学").await, vec!["周若溪"]);
    assert_eq!(ranked(&site, "上交", "法学").await, vec!["阿依古丽·买买提"]);
    // Findable by name and pinyin at once (indexed in the import's transaction).
    for q in ["林知远", "linzhiyuan", "lzy", "知远", "阿依古丽"] {
        let found = site.search(q, 5).await.unwrap();
        assert!(!found.advisors.is_empty(), "{q} not found after the import");
    }
    let RankingView::Ranking(page) = site
        .ranking("浙大", "软件工程", SortKey::Overall, 1)
        .await
        .unwrap()
    else {
        panic!("no ranking")
    };
    let card = &page.advisors[0];
    assert_eq!(card.directions, vec!["程序分析", "软件测试"]);
    assert_eq!((card.review_count, card.rank), (0, 1));
    // No reviews: the prior mean, as every unreviewed advisor.
    assert_eq!(card.score, 3.5);

    let detail = site.advisor_detail(&card.id).await.unwrap().unwrap();
    assert_eq!(detail.title, "研究员");
    assert_eq!(
        (detail.school.as_str(), detail.major.as_str()),
        ("浙江大学", "软件工程")
    );
    assert_eq!(detail.averages, None);
    assert_eq!((detail.rank, detail.rank_total), (1, 1));
    let id: i64 = sqlx::query_scalar("SELECT id FROM advisors WHERE name = '阿依古丽·买买提'")
        .fetch_one(site.pool())
        .await
        .unwrap();
    let detail = site.advisor_detail(&id.to_string()).await.unwrap().unwrap();
    assert!(detail.bio.contains("保护。\n本科"), "{}", detail.bio);
    assert_eq!(detail.directions, vec!["国际法", "知识产权法"]);

    let stats = site
        .ranking_stats_by_name("清华大学", "计算机科学与技术")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stats.advisors, stats.reviews, stats.average), (1, 0, None));
    let home = site.home().await.unwrap();
    assert_eq!(home.advisor_count, 4);
    let (_, majors) = site.majors(Some("清华")).unwrap();
    assert_eq!(majors.len(), 1);
    assert_eq!(majors[0].advisor_count, 1);

    let app = common::router(&site);
    let r = common::get(&app, "/ranking?school=清华&major=计算机").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("林知远"), "{}", r.body);
    let r = common::get(&app, &format!("/advisor/{id}")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("阿依古丽·买买提"));
}

#[tokio::test]
async fn the_same_file_twice_changes_nothing() {
    let site = common::catalog_only_site().await;
    run(&site, EXAMPLE, Options::default()).await;
    let version = store::roster::version(site.pool()).await.unwrap();
    site.refresh_if_changed().await.unwrap();
    let before: Vec<(i64, String, String, String)> =
        sqlx::query_as("SELECT id, name, title, bio FROM advisors ORDER BY id")
            .fetch_all(site.pool())
            .await
            .unwrap();

    let again = run(&site, EXAMPLE, Options::default()).await;
    assert_eq!(
        (again.added(), again.updated(), again.unchanged()),
        (0, 0, 4)
    );
    assert!(!again.written);
    assert!(again.new_pairs.is_empty());
    assert!(again
        .render()
        .starts_with("导入完成：新增 0 位，更新 0 位，未变 4 位；坏行 0 行"));
    let after: Vec<(i64, String, String, String)> =
        sqlx::query_as("SELECT id, name, title, bio FROM advisors ORDER BY id")
            .fetch_all(site.pool())
            .await
            .unwrap();
    assert_eq!(before, after);
    assert_eq!(store::roster::version(site.pool()).await.unwrap(), version);
    assert!(!site.refresh_if_changed().await.unwrap());
    assert_no_drift(&site).await;
}

#[tokio::test]
async fn a_changed_line_updates_its_advisor_and_the_cached_directions() {
    let site = common::catalog_only_site().await;
    run(&site, EXAMPLE, Options::default()).await;
    site.refresh_if_changed().await.unwrap();
    // Cached now.
    let id: i64 = sqlx::query_scalar("SELECT id FROM advisors WHERE name = '林知远'")
        .fetch_one(site.pool())
        .await
        .unwrap();
    let detail = site.advisor_detail(&id.to_string()).await.unwrap().unwrap();
    assert_eq!(detail.directions.len(), 3);

    let changed = format!(
        "{HEADER}林知远,教授,THU,CS,自然语言处理,新的简介。\n\
         周若溪,教授,复旦大学,经济学,劳动经济学；发展经济学,主要研究劳动力市场与收入分配，指导硕士生以实证研究为主。\n"
    );
    let report = run(&site, &changed, Options::default()).await;
    assert_eq!(
        (report.added(), report.updated(), report.unchanged()),
        (0, 2, 0)
    );
    assert_eq!(
        report.outcomes[0].change,
        Change::Updated(vec!["研究方向", "简介"])
    );
    assert_eq!(report.outcomes[1].change, Change::Updated(vec!["职称"]));
    assert!(report
        .render()
        .contains("第 2 行 更新 林知远（教授）清华大学 / 计算机科学与技术：研究方向、简介"));

    assert!(site.refresh_if_changed().await.unwrap());
    let detail = site.advisor_detail(&id.to_string()).await.unwrap().unwrap();
    assert_eq!(detail.bio, "新的简介。");
    assert_eq!(detail.directions, vec!["自然语言处理"]);
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 4);
    assert_no_drift(&site).await;
    // And back: the file is the truth each time.
    let report = run(&site, EXAMPLE, Options::default()).await;
    assert_eq!((report.added(), report.updated()), (0, 2));
}

/// Five bad lines and two good ones.
fn bad_file() -> String {
    format!(
        "{HEADER}\
         林知远,教授,清华大学,计算机科学与技术,自然语言处理,\n\
         韩梅,教授,霍格沃茨大学,计算机,,\n\
         ,副教授,北大,计算机,,\n\
         李雷,博导,北大,计算机,,\n\
         王芳,讲师,北大,法学,民商法学,简介,多出来的一列\n\
         陈晨,讲师,北大,法学,民商法学,好\n\
         赵强,教授,北大,法学,,\"引号没有闭合\n"
    )
}

fn bad_lines(report: &Report) -> Vec<String> {
    report.bad.iter().map(|b| b.to_string()).collect()
}

const EXPECTED_BAD: [&str; 5] = [
    "第 3 行：学校「霍格沃茨大学」不在目录中",
    "第 4 行：姓名不能为空",
    "第 5 行：职称「博导」不是网站的职称（应为 教授、副教授、研究员、讲师 之一）",
    "第 6 行：有 7 列，表头有 6 列（含逗号的字段要用英文双引号括起来）",
    "第 8 行：引号没有闭合：从这一行到文件末尾被读成了一行",
];

#[tokio::test]
async fn bad_lines_are_reported_with_their_line_numbers_and_nothing_is_written() {
    let site = common::catalog_only_site().await;
    let report = run(&site, &bad_file(), Options::default()).await;
    assert_eq!(bad_lines(&report), EXPECTED_BAD);
    assert!(report.stopped && !report.written);
    assert_eq!(report.exit_code(), 1);
    let text = report.render();
    assert!(
        text.starts_with("有坏行，没有导入任何数据（坏行 5 行）。"),
        "{text}"
    );
    assert!(text.contains("--skip-bad 只导入其余 2 行"));
    for line in EXPECTED_BAD {
        assert!(text.contains(line), "{text}");
    }
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 0);
    assert_eq!(store::roster::version(site.pool()).await.unwrap(), 0);

    // A file no line of which can be read: nothing, even with --skip-bad.
    let report = run(
        &site,
        "姓名,职称\n张三,教授\n",
        Options {
            skip_bad: true,
            dry_run: false,
        },
    )
    .await;
    assert!(report.stopped && !report.written);
    assert!(bad_lines(&report)[0].starts_with("第 1 行：表头缺少列：school,major,directions,bio"));
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 0);
}

#[tokio::test]
async fn skip_bad_writes_the_good_lines_and_lists_the_bad_ones() {
    let site = common::catalog_only_site().await;
    let options = Options {
        skip_bad: true,
        dry_run: false,
    };
    let report = run(&site, &bad_file(), options).await;
    assert_eq!(bad_lines(&report), EXPECTED_BAD);
    assert!(!report.stopped && report.written);
    assert_eq!(report.exit_code(), 0);
    assert!(report
        .render()
        .starts_with("导入完成：新增 2 位，更新 0 位，未变 0 位；坏行 5 行"));
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM advisors ORDER BY id")
        .fetch_all(site.pool())
        .await
        .unwrap();
    assert_eq!(names, vec!["林知远", "陈晨"]);
    assert_no_drift(&site).await;
    assert!(site.refresh_if_changed().await.unwrap());
    assert_eq!(ranked(&site, "北京大学", "法学").await, vec!["陈晨"]);
}

#[tokio::test]
async fn a_dry_run_says_what_would_happen_and_writes_nothing() {
    let site = common::catalog_only_site().await;
    let dry = Options {
        dry_run: true,
        skip_bad: false,
    };
    let report = run(&site, EXAMPLE, dry).await;
    assert_eq!((report.added(), report.exit_code()), (4, 0));
    assert!(!report.written);
    let text = report.render();
    assert!(
        text.starts_with(
            "试运行，没有写入数据库。导入将会：新增 4 位，更新 0 位，未变 0 位；坏行 0 行"
        ),
        "{text}"
    );
    assert!(text.contains("第 2 行 将新增 林知远（教授）清华大学 / 计算机科学与技术"));
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 0);
    assert_eq!(store::roster::version(site.pool()).await.unwrap(), 0);

    // With bad lines it exits as the real run would, and still writes nothing.
    let report = run(&site, &bad_file(), dry).await;
    assert_eq!(report.exit_code(), 1);
    assert!(report.render().starts_with("试运行：有坏行"));
    let report = run(
        &site,
        &bad_file(),
        Options {
            dry_run: true,
            skip_bad: true,
        },
    )
    .await;
    assert_eq!((report.added(), report.exit_code()), (2, 0));
    assert!(report.render().contains("坏行（将跳过）："));
    assert_eq!(count(&site, "SELECT COUNT(*) FROM advisors").await, 0);
}

#[tokio::test]
async fn imports_into_a_site_with_reviews_keep_scores_and_aggregates_consistent() {
    let site = common::site().await;
    let pku = site
        .catalog()
        .resolve_school("北京大学")
        .found()
        .unwrap()
        .id;
    let cs = site.catalog().resolve_major("计算机").found().unwrap().id;
    let before = store::rankings::size(site.pool(), pku, cs).await.unwrap();
    let zhang: (i64, String) = sqlx::query_as(
        "SELECT a.id, a.bio FROM advisors a JOIN schools s ON s.id = a.school_id \
         JOIN majors m ON m.id = a.major_id \
         WHERE a.name = '张三' AND s.name = '北京大学' AND m.name = '计算机科学与技术'",
    )
    .fetch_one(site.pool())
    .await
    .unwrap();
    let file = format!(
        "{HEADER}张三,教授,北大,计算机,机器学习、强化学习,{}（更新）\n\
         新来的,讲师,北大,计算机,计算机视觉,\n",
        zhang.1
    );
    let report = run(&site, &file, Options::default()).await;
    assert_eq!(bad_lines(&report), Vec::<String>::new());
    assert_eq!((report.added(), report.updated()), (1, 1));
    assert!(report.new_pairs.is_empty());
    assert_no_drift(&site).await;
    site.refresh_if_changed().await.unwrap();

    // The new advisor scores the stored prior mean, exactly as the formula
    // gives it, and ranks among the others by it.
    let prior = store::scores::stored_prior(site.pool()).await.unwrap();
    let new = &store::advisors_named(site.pool(), "新来的", None, None)
        .await
        .unwrap()[0];
    assert_eq!(
        new.score_overall,
        server::ranking::bayesian(0, 0, prior.priors().overall)
    );
    assert_eq!((new.school_id, new.major_id), (pku, cs));
    assert_eq!(
        store::rankings::size(site.pool(), pku, cs).await.unwrap(),
        before + 1
    );
    let detail = site
        .advisor_detail(&zhang.0.to_string())
        .await
        .unwrap()
        .unwrap();
    assert!(detail.bio.ends_with("（更新）"));
    assert_eq!(detail.directions, vec!["机器学习", "强化学习"]);
    assert!(detail.review_count > 0, "reviews stay with their advisor");
    assert!(ranked(&site, "北京大学", "计算机")
        .await
        .contains(&"张三".to_string()));

    // Two advisors already answering to one identity: which to update is
    // not ours to guess.
    sqlx::query(
        "INSERT INTO advisors (name, title, school_id, major_id, bio) \
         SELECT name, title, school_id, major_id, bio FROM advisors WHERE id = $1",
    )
    .bind(new.id)
    .execute(site.pool())
    .await
    .unwrap();
    store::rebuild_aggregates(&mut site.pool().acquire().await.unwrap())
        .await
        .unwrap();
    let report = run(&site, &file, Options::default()).await;
    assert_eq!(report.exit_code(), 1);
    assert_eq!(
        bad_lines(&report),
        vec!["第 3 行：北京大学 / 计算机科学与技术 已有 2 位「新来的」，无法确定要更新哪一位"]
    );
}

/// `server import` as an operator runs it.
fn server_import(args: &[&str], demo_data: &str) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_server"))
        .arg("import")
        .args(args)
        .env("DEMO_DATA", demo_data)
        .env_remove("DATABASE_URL")
        .env("RUST_LOG", "error")
        .output()
        .expect("run server import");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_subcommand_imports_end_to_end_with_its_exit_codes() {
    let dir = std::env::temp_dir().join(format!("advisor-import-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = common::database::empty_database(&dir, "import_cli");
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, bad_file()).unwrap();
    let bad = bad.display().to_string();

    // The command line.
    assert_eq!(server_import(&[], "off").0, 2);
    assert_eq!(server_import(&["--force", EXAMPLE_PATH], "off").0, 2);
    let (code, _, err) = server_import(&["/nonexistent/advisors.csv", "--db", &db], "off");
    assert_eq!(code, 2);
    assert!(err.contains("无法读取"), "{err}");
    let (code, _, err) = server_import(&[EXAMPLE_PATH, "--db", &db], "maybe");
    assert_eq!(code, 1);
    assert!(err.contains("DEMO_DATA"), "{err}");

    // A dry run, the import, the same again, a bad file.
    let (code, out, _) = server_import(&[EXAMPLE_PATH, "--dry-run", "--db", &db], "off");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("试运行，没有写入数据库。导入将会：新增 4 位"),
        "{out}"
    );
    let (code, out, err) = server_import(&[EXAMPLE_PATH, "--db", &db], "off");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("导入完成：新增 4 位，更新 0 位，未变 0 位；坏行 0 行"),
        "{out}"
    );
    let (code, out, _) = server_import(&["--db", &db, EXAMPLE_PATH], "off");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("导入完成：新增 0 位，更新 0 位，未变 4 位；坏行 0 行"),
        "{out}"
    );
    let (code, out, _) = server_import(&[&bad, "--db", &db], "off");
    assert_eq!(code, 1);
    assert!(
        out.contains("第 3 行：学校「霍格沃茨大学」不在目录中"),
        "{out}"
    );
    let (code, out, _) = server_import(&[&bad, "--skip-bad", "--db", &db], "off");
    assert_eq!(code, 0);
    // 林知远's line differs from the example's: an update.
    assert!(
        out.starts_with("导入完成：新增 1 位，更新 1 位，未变 0 位；坏行 5 行"),
        "{out}"
    );

    let _ = std::fs::remove_dir_all(&dir);
}
