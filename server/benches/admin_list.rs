//! The admin list at a million reviews: builds a scratch database (the demo
//! data plus 1,000,000 reviews written "on the site", 2 % of them reported
//! 1–5 times), then prints the time of the first page of reported reviews,
//! of a page deep in the list (keyset), of the recent list, and of the old
//! query that grouped every report (for comparison). Target ≤ 50 ms a page.
//! Run: `cargo bench -p server --bench admin_list`. Printed, never asserted.

use std::time::{Duration, Instant};

use server::reviews::admin::{self, Cursor};
use server::site::Site;

const REVIEWS: i64 = 1_000_000;

fn best_of(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort();
    (samples[0], samples[samples.len() / 2])
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = std::env::temp_dir().join(format!("advisor-admin-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}/bench.db", dir.display());
        let started = Instant::now();
        let (pool, _) = server::startup::open(&url).await.unwrap();
        println!("demo database: {:?}", started.elapsed());

        let started = Instant::now();
        sqlx::query(
            "INSERT INTO reviews (advisor_id, academic, funding, relationship, prospects, overall, \
                 text, relation, created_at, status, client_key) \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) \
             SELECT (SELECT MIN(id) FROM advisors) + i % 2000, 1 + i % 5, 1 + i % 4, 1 + i % 3, 1 + i % 5, 1 + i % 5, \
                    '第 ' || i || ' 条评价：学术水平不错，经费一般，组会认真。', '在读', \
                    strftime('%Y-%m-%dT%H:%M:%SZ', '2025-01-01', '+' || (i / 10) || ' minutes'), \
                    'published', 'k:bench-' || (i % 250) || '-' || (i % 200) \
             FROM n",
        )
        .bind(REVIEWS)
        .execute(&pool)
        .await
        .unwrap();
        let max_id: i64 = sqlx::query_scalar("SELECT MAX(id) FROM reviews")
            .fetch_one(&pool)
            .await
            .unwrap();
        // 2 % reported, 1–5 times each, at different times.
        sqlx::query(
            "INSERT INTO review_reports (review_id, client_key, reason, created_at) \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?), \
                  k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 5) \
             SELECT ? - i * 50, 'k:bench-report-' || j || '-' || (i % 200), '不实', \
                    strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || (i * 7 % 100000) || ' seconds') \
             FROM n JOIN k ON k.j <= 1 + i % 5",
        )
        .bind(REVIEWS / 50)
        .bind(max_id)
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("ANALYZE").execute(&pool).await.unwrap();
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews")
            .fetch_one(&pool)
            .await
            .unwrap();
        let reported: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reviews WHERE report_count > 0")
            .fetch_one(&pool)
            .await
            .unwrap();
        println!(
            "{total} reviews, {reported} reported, built in {:?}",
            started.elapsed()
        );

        let site = Site::load(pool.clone()).await.unwrap();
        let mut first = Vec::new();
        let mut deep = Vec::new();
        let mut recent = Vec::new();
        let mut cursor: Option<Cursor> = None;
        for round in 0..20 {
            let t = Instant::now();
            let (page, next) = admin::reported(&site, None, admin::PAGE).await.unwrap();
            first.push(t.elapsed());
            assert_eq!(page.len() as i64, admin::PAGE);
            // Walk 10 pages further each round: the cost of a page deep in the list.
            let mut c = if round == 0 { next } else { cursor.clone() };
            for _ in 0..10 {
                let t = Instant::now();
                let (_, n) = admin::reported(&site, c.as_ref(), admin::PAGE).await.unwrap();
                deep.push(t.elapsed());
                c = n;
            }
            cursor = c;
            let t = Instant::now();
            admin::recent(&site, admin::PAGE).await.unwrap();
            recent.push(t.elapsed());
        }
        let (b, m) = best_of(&mut first);
        println!("reported, first page of {}:   best {b:>9.3?}  median {m:>9.3?}", admin::PAGE);
        let (b, m) = best_of(&mut deep);
        println!("reported, keyset page (up to 200 deep): best {b:>9.3?}  median {m:>9.3?}");
        let (b, m) = best_of(&mut recent);
        println!("recent reviews:                best {b:>9.3?}  median {m:>9.3?}");

        let t = Instant::now();
        let _: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT r.id, COUNT(p.id) AS reports FROM reviews r JOIN advisors a ON a.id = r.advisor_id \
             LEFT JOIN review_reports p ON p.review_id = r.id \
             GROUP BY r.id HAVING COUNT(p.id) > 0 ORDER BY reports DESC, r.id DESC LIMIT 100",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        println!("the old grouped query (before): {:?}", t.elapsed());
        pool.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    });
}
