//! `server bench-scale` (`make bench-scale`): the reads students make most,
//! timed on the demo data and on the demo grown to 100,000 advisors and a
//! million reviews (`demo::scale`), side by side, against each read's
//! target (a p95 or p50 in milliseconds, below).
//!
//! The site is served in this process on a loopback port (the real router,
//! a real TCP socket, an HTTP client), once per database. The database at
//! scale is a file (`data/scale.db` by default) written by `server seed` the
//! first time and reused afterwards; the demo is a fresh temporary copy.
//! Each request is sent `samples` times after a warm-up; the table gives
//! p50 / p95 in milliseconds. With `--pg URL` the same is measured on a
//! PostgreSQL database at scale too (seeded the same way the first time),
//! in a column beside SQLite's (`make bench-scale` starts a throwaway
//! cluster for it, `scripts/bench-scale.sh`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::latency::{ms, percentile};

/// Where the database at scale lives when `--db` is not given (git-ignored).
pub const DEFAULT_SCALE_DB: &str = "sqlite://data/scale.db";

#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The database at scale: `--db`, else `DATABASE_URL`, else
    /// [`DEFAULT_SCALE_DB`] (what `main` gives [`BenchConfig::with_args`]).
    pub db: String,
    /// The pool size of the databases at scale (`DATABASE_MAX_CONNECTIONS`).
    pub max_connections: u32,
    /// A PostgreSQL database measured at scale beside `db`.
    pub pg: Option<String>,
    pub advisors: usize,
    pub reviews: usize,
    pub samples: usize,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            db: DEFAULT_SCALE_DB.to_string(),
            max_connections: crate::db::DEFAULT_MAX_CONNECTIONS,
            pg: None,
            advisors: 100_000,
            reviews: 1_000_000,
            samples: 200,
        }
    }
}

impl BenchConfig {
    /// The flags of `server seed` / `server bench-scale` over `base` (the
    /// configuration's database and pool size).
    pub fn with_args(base: BenchConfig, args: crate::cli::commands::ScaleArgs) -> BenchConfig {
        BenchConfig {
            db: args.db.unwrap_or(base.db),
            pg: args.pg.or(base.pg),
            advisors: args.advisors,
            reviews: args.reviews,
            samples: args.samples,
            ..base
        }
    }
}

/// What one request is measured as, and its target (p95 unless said).
struct Case {
    label: &'static str,
    target: Target,
}

#[derive(Clone, Copy)]
enum Target {
    P95(f64),
    P50(f64),
}

const CASES: [Case; 10] = [
    Case {
        label: "GET /api/v1/advisors（最大的学校+专业，第 1 页，综合）",
        target: Target::P95(10.0),
    },
    Case {
        label: "同上，sort=funding",
        target: Target::P95(10.0),
    },
    Case {
        label: "同一接口，约 50 位导师的学校+专业",
        target: Target::P95(10.0),
    },
    Case {
        label: "SSR /ranking（最大的学校+专业）",
        target: Target::P95(20.0),
    },
    Case {
        label: "GET /api/v1/advisors/{id}",
        target: Target::P95(5.0),
    },
    Case {
        label: "对话一轮「我想考北京大学计算机系」",
        target: Target::P50(2.0),
    },
    Case {
        label: "对话一轮，推荐「……想做机器学习，导师温和一点」",
        target: Target::P50(2.0),
    },
    Case {
        label: "GET /api/v1/search，一个姓（如「张」）",
        target: Target::P95(10.0),
    },
    Case {
        label: "同上，拼音首字母（如「zs」）",
        target: Target::P95(10.0),
    },
    Case {
        label: "同上，全名的拼音（如「zhangsan」）",
        target: Target::P95(10.0),
    },
];

/// p50 and p95 of each case, in [`CASES`]' order.
type Timings = Vec<(Duration, Duration)>;

/// Opens the database at `url`, seeds it at scale if it is empty, and
/// measures it: (advisors, reviews, timings).
async fn at_scale(url: &str, config: &BenchConfig) -> Result<(i64, i64, Timings), String> {
    let pool = crate::db::connect_with(url, config.max_connections)
        .await
        .map_err(|e| e.to_string())?;
    crate::db::migrate(&pool).await.map_err(|e| e.to_string())?;
    // A database seeded before the name search had its terms.
    crate::store::search::index_missing_in(&pool)
        .await
        .map_err(|e| e.to_string())?;
    if crate::store::advisor_total(&pool)
        .await
        .map_err(|e| e.to_string())?
        == 0
    {
        let started = Instant::now();
        let (a, r) = crate::demo::seed_at_scale(&pool, config.advisors, config.reviews)
            .await
            .map_err(|e| e.to_string())?;
        println!(
            "{}：写入 {a} 位导师、{r} 条评价，用时 {:.1} s",
            crate::db::redacted(url),
            started.elapsed().as_secs_f64()
        );
    }
    let advisors = crate::store::advisor_total(&pool)
        .await
        .map_err(|e| e.to_string())?;
    let reviews = crate::store::site_stats(&pool)
        .await
        .map_err(|e| e.to_string())?
        .review_count;
    let timings = measure(pool.clone(), config.samples).await;
    pool.close().await;
    Ok((advisors, reviews, timings?))
}

/// Seeds the databases at scale if they are empty, measures them and a
/// fresh demo, and renders the table. `Err` for what stops the measurement.
pub async fn run(config: &BenchConfig) -> Result<String, String> {
    let (advisors, reviews, at_scale) = self::at_scale(&config.db, config).await?;
    let postgres = match &config.pg {
        Some(url) => Some(self::at_scale(url, config).await?),
        None => None,
    };

    let dir = std::env::temp_dir().join(format!("advisor-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (demo_pool, _) = crate::startup::open_with(
        &format!("sqlite://{}/demo.db", dir.display()),
        crate::startup::Seeding::Demo,
    )
    .await
    .map_err(|e| e.to_string())?;
    let demo = measure(demo_pool.clone(), config.samples).await;
    demo_pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
    let demo = demo?;

    let mut out = format!(
        "规模：{advisors} 位导师、{reviews} 条评价（{}）；每个请求 {} 次，单位 ms\n",
        crate::db::redacted(&config.db),
        config.samples
    );
    if let Some((a, r, _)) = &postgres {
        out.push_str(&format!(
            "PostgreSQL：{a} 位导师、{r} 条评价（{}）\n",
            config
                .pg
                .as_deref()
                .map(crate::db::redacted)
                .unwrap_or_default()
        ));
    }
    let pg_head = if postgres.is_some() {
        (" PostgreSQL 规模数据 p50 / p95 |", " --- |")
    } else {
        ("", "")
    };
    out.push_str(&format!(
        "\n| 请求 | 演示数据 p50 / p95 | 规模数据 p50 / p95 | 目标 | 达标 |{}\n\
         | --- | --- | --- | --- | --- |{}\n",
        pg_head.0, pg_head.1
    ));
    let mut all_met = true;
    for (i, case) in CASES.iter().enumerate() {
        let (d50, d95) = demo[i];
        let (s50, s95) = at_scale[i];
        let (target, met) = match case.target {
            Target::P95(t) => (format!("p95 ≤ {t}"), s95.as_secs_f64() * 1000.0 <= t),
            Target::P50(t) => (format!("p50 ≤ {t}"), s50.as_secs_f64() * 1000.0 <= t),
        };
        all_met &= met;
        let pg = match &postgres {
            Some((_, _, t)) => format!(" {} / {} |", ms(t[i].0), ms(t[i].1)),
            None => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} / {} | {} / {} | {target} | {} |{pg}\n",
            case.label,
            ms(d50),
            ms(d95),
            ms(s50),
            ms(s95),
            if met { "是" } else { "否" }
        ));
    }
    out.push_str(if all_met {
        "\n全部达标。\n"
    } else {
        "\n有未达标的项目。\n"
    });
    Ok(out)
}

/// Serves the site over `pool` on a loopback port and times every case.
async fn measure(pool: crate::db::Pool, samples: usize) -> Result<Timings, String> {
    let site = Arc::new(
        crate::site::Site::load(pool.clone())
            .await
            .map_err(|e| e.to_string())?,
    );
    let (school, major) = crate::demo::scale::BIG_PAIR;
    let big = site
        .catalog()
        .resolve_school(school)
        .found()
        .map(|s| s.id)
        .zip(site.catalog().resolve_major(major).found().map(|m| m.id))
        .ok_or("找不到最大的学校+专业")?;
    let (small_school, small_major) = crate::store::rankings::pair_near_size(&pool, 50)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("没有导师")?;
    let small = (
        site.catalog()
            .school_by_id(small_school)
            .map(|s| s.name.clone())
            .unwrap_or_default(),
        site.catalog()
            .major_by_id(small_major)
            .map(|m| m.name.clone())
            .unwrap_or_default(),
    );
    let big_page =
        crate::store::rankings::page(&pool, big.0, big.1, app::model::SortKey::Overall, 50, 0)
            .await
            .map_err(|e| e.to_string())?;
    let detail_ids: Vec<i64> = big_page.iter().map(|a| a.id).collect();
    // Search keys as students type them: a surname, the initials, the
    // whole name in pinyin (each advisor's first spelling).
    let spelled = |name: &str, initials: bool| {
        let n = name.chars().count();
        crate::text::names::terms(name)
            .into_iter()
            .filter(|t| t.pos == 0 && t.text.is_ascii())
            .find(|t| (t.text.len() == n) == initials)
            .map(|t| t.text)
            .unwrap_or_default()
    };
    let surnames: Vec<String> = big_page
        .iter()
        .filter_map(|a| a.name.chars().next().map(String::from))
        .collect();
    let initials: Vec<String> = big_page.iter().map(|a| spelled(&a.name, true)).collect();
    let pinyin: Vec<String> = big_page.iter().map(|a| spelled(&a.name, false)).collect();
    if detail_ids.is_empty() {
        return Err("最大的学校+专业没有导师".into());
    }

    let (addr, server) = crate::serve_on_loopback(site).await?;
    let base = format!("http://{addr}");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;

    let ranking = |extra: &'static [(&'static str, &'static str)], s: &str, m: &str| {
        let mut q = vec![
            ("school".to_string(), s.to_string()),
            ("major".to_string(), m.to_string()),
        ];
        q.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        q
    };
    let mut timings = Vec::with_capacity(CASES.len());
    for (i, _) in CASES.iter().enumerate() {
        let mut times = Vec::with_capacity(samples);
        // A warm-up round that is not counted, then the samples.
        for n in 0..samples + samples / 10 + 1 {
            let client = format!("10.99.{}.{}", n / 256 % 256, n % 256);
            let request = match i {
                0 => {
                    http.get(format!("{base}/api/v1/advisors"))
                        .query(&ranking(&[], school, major))
                }
                1 => http.get(format!("{base}/api/v1/advisors")).query(&ranking(
                    &[("sort", "funding")],
                    school,
                    major,
                )),
                2 => http.get(format!("{base}/api/v1/advisors")).query(&ranking(
                    &[],
                    &small.0,
                    &small.1,
                )),
                3 => http
                    .get(format!("{base}/ranking"))
                    .query(&ranking(&[], school, major)),
                4 => http.get(format!(
                    "{base}/api/v1/advisors/{}",
                    detail_ids[n % detail_ids.len()]
                )),
                5 => http
                    .post(format!("{base}/api/v1/chat"))
                    .json(&serde_json::json!({"message": "我想考北京大学计算机系"})),
                7..=9 => {
                    let keys = [&surnames, &initials, &pinyin][i - 7];
                    http.get(format!("{base}/api/v1/search"))
                        .query(&[("q", keys[n % keys.len()].as_str())])
                }
                _ => http
                    .post(format!("{base}/api/v1/chat"))
                    .json(&serde_json::json!({
                        "message": "我想考北京大学计算机系，想做机器学习，导师温和一点"
                    })),
            }
            .header("x-forwarded-for", &client);
            let started = Instant::now();
            let reply = request.send().await.map_err(|e| e.to_string())?;
            let status = reply.status();
            let body = reply.bytes().await.map_err(|e| e.to_string())?;
            let took = started.elapsed();
            if !status.is_success() {
                server.abort();
                return Err(format!(
                    "{}：{status} {}",
                    CASES[i].label,
                    String::from_utf8_lossy(&body)
                ));
            }
            if n > samples / 10 {
                times.push(took);
            }
        }
        timings.push((percentile(&mut times, 0.5), percentile(&mut times, 0.95)));
    }
    server.abort();
    Ok(timings)
}
