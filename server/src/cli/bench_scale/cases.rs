//! What `server bench-scale` times: the reads students make most and a
//! review written, each with its target at scale (p95 unless it says p50),
//! sent over HTTP to a server of its own ([`super::child`]). The name
//! searches cover every kind of query: a surname, a whole name in
//! characters, a surname in pinyin (the query that grew with the data), two
//! letters, initials, a whole name in pinyin, characters and pinyin mixed.

use std::time::{Duration, Instant};

use crate::latency::percentile;

/// A case: its label and its target.
pub struct Case {
    pub label: &'static str,
    pub target: Target,
}

#[derive(Clone, Copy)]
pub enum Target {
    P95(f64),
    P50(f64),
}

const fn p95(label: &'static str, ms: f64) -> Case {
    Case {
        label,
        target: Target::P95(ms),
    }
}

pub const CASES: [Case; 16] = [
    p95("GET /api/v1/advisors（最大的学校+专业，第 1 页）", 2.0),
    p95("同上，最后一页", 2.0),
    p95("同上，sort=funding", 2.0),
    p95("同一接口，约 50 位导师的学校+专业", 2.0),
    p95("SSR /ranking（最大的学校+专业）", 5.0),
    p95("GET /api/v1/advisors/{id}", 2.0),
    Case {
        label: "对话一轮「我想考北京大学计算机系」",
        target: Target::P50(2.0),
    },
    Case {
        label: "对话一轮，推荐「……想做机器学习，导师温和一点」",
        target: Target::P50(2.0),
    },
    p95("搜索：一个姓（「张」）", 10.0),
    p95("搜索：汉字全名", 10.0),
    p95("搜索：姓的拼音（「zhang」「wang」）", 10.0),
    p95("搜索：两个字母（「zh」）", 10.0),
    p95("搜索：拼音首字母（「zs」）", 10.0),
    p95("搜索：全名拼音（「zhangsan」）", 10.0),
    p95("搜索：汉字加拼音（「张san」）", 10.0),
    p95("POST 一条评价（聚合同一事务）", 5.0),
];

/// What the requests ask for, read from the database before the server
/// starts.
pub struct Inputs {
    pub big: (String, String),
    pub small: (String, String),
    pub detail_ids: Vec<i64>,
    /// Search keys per search case, in [`CASES`]' order from the first
    /// search.
    pub keys: [Vec<String>; 7],
}

/// The first search case.
const FIRST_SEARCH: usize = 8;

/// The inputs of a database: its biggest pair's first page of advisors
/// gives the ids and the names searched for.
pub async fn inputs(pool: &crate::db::Pool) -> Result<Inputs, String> {
    let site = crate::site::Site::load(pool.clone())
        .await
        .map_err(|e| e.to_string())?;
    let (school, major) = crate::demo::scale::BIG_PAIR;
    let catalog = site.catalog();
    let big = catalog
        .resolve_school(school)
        .found()
        .map(|s| s.id)
        .zip(catalog.resolve_major(major).found().map(|m| m.id))
        .ok_or("找不到最大的学校+专业")?;
    let (small_school, small_major) = crate::store::rankings::pair_near_size(pool, 50)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("没有导师")?;
    let name_of = |s: i64, m: i64| {
        (
            catalog
                .school_by_id(s)
                .map(|s| s.name.clone())
                .unwrap_or_default(),
            catalog
                .major_by_id(m)
                .map(|m| m.name.clone())
                .unwrap_or_default(),
        )
    };
    let page =
        crate::store::rankings::page(pool, big.0, big.1, app::model::SortKey::Overall, 50, 0)
            .await
            .map_err(|e| e.to_string())?;
    if page.is_empty() {
        return Err("最大的学校+专业没有导师".into());
    }
    let names: Vec<&str> = page.iter().map(|a| a.name.as_str()).collect();
    Ok(Inputs {
        big: name_of(big.0, big.1),
        small: name_of(small_school, small_major),
        detail_ids: page.iter().map(|a| a.id).collect(),
        keys: search_keys(&names),
    })
}

/// The search keys of `names`, as students type them, per search case.
fn search_keys(names: &[&str]) -> [Vec<String>; 7] {
    use crate::text::names::readings;
    let mut keys: [Vec<String>; 7] = Default::default();
    for name in names {
        let chars: Vec<char> = name.chars().collect();
        let syllables: Vec<String> = chars
            .iter()
            .map(|&c| readings(c, false).remove(0))
            .collect();
        let surname = syllables[0].clone();
        let rest: String = syllables[1..].concat();
        let initials: String = syllables.iter().filter_map(|s| s.chars().next()).collect();
        keys[0].push(chars[0].to_string());
        keys[1].push(name.to_string());
        keys[2].push(surname.clone());
        keys[3].push(surname.chars().take(2).collect());
        keys[4].push(initials);
        keys[5].push(format!("{surname}{rest}"));
        keys[6].push(format!("{}{rest}", chars[0]));
    }
    keys
}

/// p50 and p95 of each case, in [`CASES`]' order.
pub type Timings = Vec<(Duration, Duration)>;

/// Times every case against the server at `base`, `samples` times each
/// after an uncounted tenth.
pub async fn measure(base: &str, inputs: &Inputs, samples: usize) -> Result<Timings, String> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;
    let ranking = |s: &str, m: &str, extra: &[(&str, String)]| {
        let mut q = vec![
            ("school".to_string(), s.to_string()),
            ("major".to_string(), m.to_string()),
        ];
        q.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
        q
    };
    let (school, major) = (&inputs.big.0, &inputs.big.1);
    let first: serde_json::Value = http
        .get(format!("{base}/api/v1/advisors"))
        .query(&ranking(school, major, &[]))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    let per_page = first["per_page"].as_i64().unwrap_or(20).max(1);
    let last_page = ((first["total"].as_i64().unwrap_or(1) + per_page - 1) / per_page).max(1);
    let run = std::process::id() as usize;
    let mut timings = Vec::with_capacity(CASES.len());
    for (i, case) in CASES.iter().enumerate() {
        let mut times = Vec::with_capacity(samples);
        for n in 0..samples + samples / 10 + 1 {
            // A review is checked against what its client wrote before:
            // each run writes as clients of its own.
            let client = match i {
                15 => format!("10.{}.{}.{}", 200 + run % 50, n / 256 % 256, n % 256),
                _ => format!("10.{}.{}.{}", 100 + i, n / 256 % 256, n % 256),
            };
            let request = match i {
                0 => http.get(format!("{base}/api/v1/advisors")).query(&ranking(school, major, &[])),
                1 => http
                    .get(format!("{base}/api/v1/advisors"))
                    .query(&ranking(school, major, &[("page", last_page.to_string())])),
                2 => http
                    .get(format!("{base}/api/v1/advisors"))
                    .query(&ranking(school, major, &[("sort", "funding".into())])),
                3 => http
                    .get(format!("{base}/api/v1/advisors"))
                    .query(&ranking(&inputs.small.0, &inputs.small.1, &[])),
                4 => http.get(format!("{base}/ranking")).query(&ranking(school, major, &[])),
                5 => http.get(format!(
                    "{base}/api/v1/advisors/{}",
                    inputs.detail_ids[n % inputs.detail_ids.len()]
                )),
                6 => http
                    .post(format!("{base}/api/v1/chat"))
                    .json(&serde_json::json!({"message": "我想考北京大学计算机系"})),
                7 => http.post(format!("{base}/api/v1/chat")).json(&serde_json::json!({
                    "message": "我想考北京大学计算机系，想做机器学习，导师温和一点"
                })),
                15 => http
                    .post(format!(
                        "{base}/api/v1/advisors/{}/reviews",
                        inputs.detail_ids[n % inputs.detail_ids.len()]
                    ))
                    .json(&serde_json::json!({
                        "ratings": {"academic": 1 + n % 5, "funding": 1 + (n / 5) % 5,
                                    "relationship": 1 + (n / 25) % 5, "prospects": 3, "overall": 1 + (n / 3) % 5},
                        "tags": ["负责"],
                        "text": format!("第{n}条规模测试评价：导师指导认真，组会规律，经费情况说得过去。"),
                        "relation": "在读",
                    })),
                _ => {
                    let keys = &inputs.keys[i - FIRST_SEARCH];
                    http.get(format!("{base}/api/v1/search"))
                        .query(&[("q", keys[n % keys.len()].as_str())])
                }
            }
            .header("x-forwarded-for", &client);
            let started = Instant::now();
            let reply = request.send().await.map_err(|e| e.to_string())?;
            let status = reply.status();
            let body = reply.bytes().await.map_err(|e| e.to_string())?;
            let took = started.elapsed();
            if !status.is_success() {
                return Err(format!(
                    "{}：{status} {}",
                    case.label,
                    String::from_utf8_lossy(&body)
                ));
            }
            if n > samples / 10 {
                times.push(took);
            }
        }
        timings.push((percentile(&mut times, 0.5), percentile(&mut times, 0.95)));
    }
    Ok(timings)
}
