#![allow(clippy::await_holding_lock)] // rendering tests take turns on purpose (see common::render_serially)
//! Server-side rendering: each page's HTML comes from the server with its
//! data in it (so it works without JavaScript) and the right status code.

mod common;

use axum::http::StatusCode;
use common::{app, get};

#[tokio::test]
async fn the_home_page_renders_with_search_and_popular_schools() {
    let _serial = common::render_serially();
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
    let _serial = common::render_serially();
    let (app, _) = app().await;
    let r = get(&app, "/ranking?school=北大&major=计算机").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("北京大学 · 计算机科学与技术 导师排行"));
    assert!(r.body.contains("张三"));
    assert!(r.body.contains("李四"));
}

#[tokio::test]
async fn the_detail_page_renders_profile_histogram_and_reviews() {
    let _serial = common::render_serially();
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
    let _serial = common::render_serially();
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
    let _serial = common::render_serially();
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
