//! The demo database as seeded: size, aliases the issue names, aggregates that
//! agree with the reviews, and the Bayesian ranking on real data.

use crate::common;

use app::model::{RankingView, SortKey};
use server::catalog::Resolution;

#[tokio::test]
async fn the_demo_data_is_large_enough_to_feel_real() {
    let site = common::site().await;
    let pool = site.pool();
    let count = |sql: &'static str| async move {
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(pool)
            .await
            .unwrap()
    };
    assert!(count("SELECT COUNT(*) FROM schools").await >= 30);
    assert!(count("SELECT COUNT(*) FROM majors").await >= 20);
    assert!(count("SELECT COUNT(*) FROM advisors").await >= 1500);
    assert!(count("SELECT COUNT(*) FROM reviews").await >= 15000);
    assert_eq!(
        count("SELECT COUNT(*) FROM review_tags WHERE tag NOT IN (SELECT name FROM tags)").await,
        0
    );
}

#[tokio::test]
async fn the_aliases_students_use_resolve() {
    let site = common::site().await;
    let c = site.catalog();
    let schools = [
        ("北大", "北京大学"),
        ("清华", "清华大学"),
        ("国科大", "中国科学院大学"),
        ("复旦", "复旦大学"),
        ("上交", "上海交通大学"),
        ("西交", "西安交通大学"),
        ("浙大", "浙江大学"),
        ("南大", "南京大学"),
        ("中科大", "中国科学技术大学"),
        ("哈工大", "哈尔滨工业大学"),
        ("华科", "华中科技大学"),
        ("武大", "武汉大学"),
        ("中山", "中山大学"),
        ("中大", "中山大学"),
        ("北航", "北京航空航天大学"),
        ("同济", "同济大学"),
        ("南开", "南开大学"),
        ("厦大", "厦门大学"),
        ("川大", "四川大学"),
        ("成电", "电子科技大学"),
        ("北邮", "北京邮电大学"),
        ("ＰＫＵ", "北京大学"),
    ];
    for (alias, name) in schools {
        assert_eq!(
            c.resolve_school(alias).found().map(|s| s.name.as_str()),
            Some(name),
            "{alias}"
        );
    }
    let majors = [
        ("计算机", "计算机科学与技术"),
        ("软工", "软件工程"),
        ("AI", "人工智能"),
        ("通信", "通信工程"),
        ("自动化", "自动化"),
        ("金融", "金融学"),
        ("法学", "法学"),
        ("临床", "临床医学"),
        ("机械", "机械工程"),
        ("材料", "材料科学与工程"),
        ("数学", "数学"),
        ("物理", "物理学"),
    ];
    for (alias, name) in majors {
        assert_eq!(
            c.resolve_major(alias).found().map(|m| m.name.as_str()),
            Some(name),
            "{alias}"
        );
    }
    match c.resolve_school("交大") {
        Resolution::Ambiguous(list) => assert_eq!(list.len(), 4),
        other => panic!("交大 must be ambiguous, got {other:?}"),
    }
}

#[tokio::test]
async fn stored_aggregates_agree_with_the_reviews() {
    let site = common::site().await;
    let mismatches: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM advisors a LEFT JOIN ( \
            SELECT advisor_id, COUNT(*) n, CAST(SUM(overall) AS BIGINT) so, CAST(SUM(funding) AS BIGINT) sf, CAST(SUM(CASE WHEN overall = 5 THEN 1 ELSE 0 END) AS BIGINT) h5 \
            FROM reviews WHERE status = 'published' GROUP BY advisor_id) r ON r.advisor_id = a.id \
         WHERE a.review_count != COALESCE(r.n, 0) OR a.sum_overall != COALESCE(r.so, 0) \
            OR a.sum_funding != COALESCE(r.sf, 0) OR a.hist_5 != COALESCE(r.h5, 0)",
    )
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert_eq!(mismatches, 0);
    let (site_n, advisor_n): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT review_count FROM site_stats), (SELECT CAST(SUM(review_count) AS BIGINT) FROM advisors)",
    )
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert_eq!(site_n, advisor_n);
}

/// In every ranking on the site, an advisor with at most two reviews never
/// stands above one with thirty or more reviews averaging at least 4.5.
#[tokio::test]
async fn few_perfect_reviews_never_outrank_many_good_ones_anywhere() {
    let site = common::site().await;
    let pairs: Vec<(String, String)> = sqlx::query_as(
        "SELECT DISTINCT s.name, m.name FROM advisors a JOIN schools s ON s.id = a.school_id \
         JOIN majors m ON m.id = a.major_id",
    )
    .fetch_all(site.pool())
    .await
    .unwrap();
    let mut checked = 0;
    for (school, major) in pairs {
        let RankingView::Ranking(page) = site
            .ranking(&school, &major, SortKey::Overall, 1)
            .await
            .unwrap()
        else {
            panic!("{school}/{major} should rank");
        };
        let mut seen_thin = false;
        for a in &page.advisors {
            if a.review_count <= 2 {
                seen_thin = true;
            }
            if seen_thin && a.review_count >= 30 && a.rating >= 4.5 {
                panic!(
                    "{school}/{major}: {} ({} reviews, {}) ranked below a thin advisor",
                    a.name, a.review_count, a.rating
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 100, "only {checked} rankings");
}

/// Every SQLite connection of the pool gets the settings a web server
/// wants (the Any driver reads only the URL, so `db::connect` sets them on
/// each new connection).
#[tokio::test]
async fn sqlite_connections_get_the_servers_settings() {
    if common::database::backend() != server::db::Backend::Sqlite {
        return;
    }
    let site = common::site().await;
    let mut conn = site.pool().acquire().await.unwrap();
    let busy = server::db::BUSY_TIMEOUT_MS.to_string();
    for (pragma, want) in [
        ("journal_mode", "wal"),
        ("synchronous", "1"),
        ("foreign_keys", "1"),
        ("busy_timeout", busy.as_str()),
        ("cache_size", "-16384"),
    ] {
        let row = sqlx::query(&format!("PRAGMA {pragma}"))
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        let got: String = sqlx::Row::try_get::<String, _>(&row, 0)
            .or_else(|_| sqlx::Row::try_get::<i64, _>(&row, 0).map(|v| v.to_string()))
            .unwrap();
        assert_eq!(got, want, "PRAGMA {pragma}");
    }
}
