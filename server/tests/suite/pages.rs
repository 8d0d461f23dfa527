//! Server-side rendering: each page's HTML comes from the server with its
//! data in it (so it works without JavaScript) and the right status code.

use crate::common;

use axum::http::StatusCode;
use common::{app, get};

#[tokio::test]
async fn the_home_page_renders_with_search_and_popular_schools() {
    let (app, _) = app().await;
    let r = get(&app, "/").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("找导师，先看学生怎么说"));
    assert!(r.body.contains(r#"action="/ranking""#), "plain GET form");
    assert!(r.body.contains("北京大学"));
    assert!(r.body.contains("热门学校"));
    assert!(
        r.body.contains("/pkg/advisor-review.js"),
        "hydration script"
    );
}

#[tokio::test]
async fn the_ranking_page_renders_the_list_on_the_server() {
    let (app, _) = app().await;
    let r = get(&app, "/ranking?school=北大&major=计算机").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("北京大学 · 计算机科学与技术 导师排行"));
    assert!(r.body.contains("张三"));
    assert!(r.body.contains("李四"));
}

#[tokio::test]
async fn the_detail_page_renders_profile_histogram_and_reviews() {
    let (app, site) = app().await;
    let id: i64 = sqlx::query_scalar("SELECT id FROM advisors WHERE name = '张三'")
        .fetch_one(site.pool())
        .await
        .unwrap();
    let r = get(&app, &format!("/advisor/{id}")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("张三"));
    assert!(r.body.contains(r#"class="histogram""#));
    assert!(r.body.contains("学术水平"));
    assert!(r.body.contains(r#"class="review""#));
}

#[tokio::test]
async fn missing_things_get_a_404_page() {
    let (app, _) = app().await;
    for uri in [
        "/advisor/99999999",
        "/advisor/abc",
        "/ranking?school=霍格沃茨&major=魔法",
        "/no/such/page",
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(r.body.contains("404"), "{uri}");
    }
    let r = get(&app, "/ranking?school=北大&major=魔法学").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("暂无“魔法学”专业"));
}

#[tokio::test]
async fn ambiguous_school_and_missing_major_offer_choices() {
    let (app, _) = app().await;
    let r = get(&app, "/ranking?school=交大&major=计算机").await;
    assert_eq!(r.status, StatusCode::OK);
    for name in [
        "上海交通大学",
        "西安交通大学",
        "北京交通大学",
        "西南交通大学",
    ] {
        assert!(r.body.contains(name), "{name}");
    }
    let r = get(&app, "/ranking?school=北大").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("请选择专业"));
    assert!(r.body.contains("计算机科学与技术"));
}

/// The ids of 北京大学 / 计算机科学与技术's advisors, 张三 first.
async fn pku_cs_ids(site: &server::site::Site) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT a.id FROM advisors a JOIN schools s ON s.id = a.school_id \
         JOIN majors m ON m.id = a.major_id \
         WHERE s.name = '北京大学' AND m.name = '计算机科学与技术' \
         ORDER BY a.name != '张三', a.id",
    )
    .fetch_all(site.pool())
    .await
    .unwrap()
}

#[tokio::test]
async fn the_compare_page_draws_a_radar_with_one_polygon_per_advisor() {
    let (app, site) = app().await;
    let ids = pku_cs_ids(&site).await;
    assert!(ids.len() >= 3, "{ids:?}");
    // An advisor nobody has reviewed yet is drawn at 0 and says so.
    let fresh: i64 = sqlx::query_scalar(
        "INSERT INTO advisors (name, title, school_id, major_id, bio) \
         SELECT '新来的', '讲师', school_id, major_id, '' FROM advisors WHERE id = $1 RETURNING id",
    )
    .bind(ids[0])
    .fetch_one(site.pool())
    .await
    .unwrap();

    let uri = format!("/compare?ids={},{},{},{fresh}", ids[0], ids[1], ids[2]);
    let r = get(&app, &uri).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body.matches(r#"data-testid="radar-chart""#).count(), 1);
    assert_eq!(r.body.matches(r#"data-testid="radar-series""#).count(), 4);
    assert!(r.body.contains("<title>导师对比：张三"), "title");
    for id in &ids[..3] {
        assert!(r.body.contains(&format!(r#"href="/advisor/{id}""#)), "{id}");
    }
    for text in [
        "张三",
        "新来的",
        "（暂无评价）",
        "学术水平",
        "科研经费",
        "师生关系",
        "学生前途",
    ] {
        assert!(r.body.contains(text), "{text}");
    }
    // 张三 leads this group on 学术水平: his cell is marked as the best.
    assert!(r.body.contains(r#"class="compare-best""#));
    assert!(r.body.contains("机器学习"), "directions");
}

#[tokio::test]
async fn bad_compare_links_get_a_400_or_404_page() {
    let (app, site) = app().await;
    let ids = pku_cs_ids(&site).await;
    for uri in [
        "/compare".to_string(),
        format!("/compare?ids={}", ids[0]),
        format!("/compare?ids={},{}", ids[0], ids[0]),
        "/compare?ids=1,2,3,4,5".to_string(),
    ] {
        let r = get(&app, &uri).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(r.body.contains("请选择 2 到 4 位导师进行对比。"), "{uri}");
        assert!(!r.body.contains("radar-chart"), "{uri}");
    }
    let r = get(&app, &format!("/compare?ids={},abc", ids[0])).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("导师编号“abc”无效"));

    let r = get(&app, &format!("/compare?ids={},99999999", ids[0])).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("404"));
    assert!(r.body.contains("没有找到编号为 99999999 的导师。"));
}

#[tokio::test]
async fn the_ranking_page_shows_the_overview_of_its_school_and_major() {
    let (app, site) = app().await;
    let r = get(&app, "/ranking?school=北大&major=计算机&sort=funding").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.matches(r#"data-testid="ranking-stats""#).count(), 1);
    assert!(r.body.contains("数据概览"));
    let reviews: i64 = sqlx::query_scalar(
        "SELECT CAST(SUM(review_count) AS BIGINT) FROM advisors a JOIN schools s ON s.id = a.school_id \
         JOIN majors m ON m.id = a.major_id \
         WHERE s.name = '北京大学' AND m.name = '计算机科学与技术'",
    )
    .fetch_one(site.pool())
    .await
    .unwrap();
    assert!(r.body.contains(&format!("{reviews} 条")), "review count");
    assert!(r.body.contains(r#"class="histogram""#), "distribution");
    assert!(r.body.contains("评价最多"));
    // Overview links carry a number, so a bare name stays the ranking row's link.
    assert!(r.body.contains("张三 · "), "most reviewed and best advisor");
    for dimension in ["academic", "funding", "relationship", "prospects"] {
        assert!(
            r.body.contains(&format!(r#"data-dimension="{dimension}""#)),
            "{dimension}"
        );
    }
    assert!(r.body.contains("/compare?ids="), "a way to compare");

    // Pages that are not a ranking have no overview.
    let r = get(&app, "/ranking?school=交大&major=计算机").await;
    assert!(!r.body.contains("ranking-stats"));
}

/// Building a router lists the pages' routes by rendering the app with
/// resources suppressed, through a flag Leptos keeps for the whole process.
/// Were the list made for every router, a page rendering meanwhile (another
/// test, a second instance in the process) would wait on its resource for
/// ever; it is made once (`server::page_routes`), so pages keep rendering.
#[tokio::test]
async fn pages_render_while_other_routers_are_built() {
    let (app, site) = app().await;
    let builder = std::thread::spawn(move || {
        for _ in 0..20 {
            let _ = common::router(&site);
        }
    });
    let mut rendered = 0;
    while !builder.is_finished() || rendered < 20 {
        let q = ["张三", "北京大学", "zs", "计算机"][rendered % 4];
        let r = get(&app, &format!("/search?q={q}")).await;
        assert_eq!(r.status, StatusCode::OK, "/search?q={q}");
        rendered += 1;
    }
    builder.join().unwrap();
}
