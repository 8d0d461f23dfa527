//! `POST /api/v1/advisors/{id}/reviews` exactly as the protocol's "Reviews
//! API" says: 201 with the stored review and its edit token; every broken
//! rule a 4xx naming it, in Chinese, with nothing stored; duplicates and
//! rate limits per client; aggregates that move in the same transaction and
//! equal a recomputation from the reviews.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use common::{app, get, has_chinese, request as send};

async fn post(
    app: &axum::Router,
    advisor: &str,
    body: &Value,
    client: &str,
) -> (StatusCode, Value) {
    send(
        app,
        "POST",
        &format!("/api/v1/advisors/{advisor}/reviews"),
        &[("x-forwarded-for", client)],
        Some(body),
    )
    .await
}

/// Posts a good review as `client`: its id and edit token.
async fn post_one(app: &axum::Router, advisor: &str, client: &str) -> (String, String) {
    let text = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
    let (status, posted) = post(app, advisor, &common::review_json(text), client).await;
    assert_eq!(status, StatusCode::CREATED, "{posted}");
    (
        posted["review"]["id"].as_str().unwrap().to_string(),
        posted["edit_token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_good_review_is_stored_with_its_aggregates_and_listed_first() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let before = get(&app, &format!("/api/v1/advisors/{id}")).await.json();
    let text = "导师学术水平很高，每周组会都会认真指导，经费一般但够用，2023年入学。";
    let (status, body) = post(&app, &id, &common::review_json(text), "10.0.0.1").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["review"]["text"], text);
    assert_eq!(body["review"]["tags"], json!(["温和", "负责"]));
    assert_eq!(body["edit_token"].as_str().unwrap().len(), 32);

    let after = get(&app, &format!("/api/v1/advisors/{id}")).await.json();
    assert_eq!(
        after["review_count"].as_i64().unwrap(),
        before["review_count"].as_i64().unwrap() + 1
    );
    let list = get(&app, &format!("/api/v1/advisors/{id}/reviews"))
        .await
        .json();
    assert_eq!(list["reviews"][0]["text"], text, "newest first");

    // The incremental aggregates equal a recomputation from the reviews.
    common::assert_aggregates_match_recomputation(&site).await;
}

#[tokio::test]
async fn every_broken_rule_is_named_in_chinese_and_nothing_is_stored() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let stored = common::review_count(&site).await;
    let long = "很好".repeat(1001);
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            common::review_json("有问题可以打我电话13812345678，学术水平很高"),
            "contains_phone",
            "text",
        ),
        (
            common::review_json("他的身份证号11010519491231002X我见过，学术很强"),
            "contains_id_number",
            "text",
        ),
        (
            common::review_json("想了解可以发邮件到zhangsan@pku.edu.cn，老师很负责"),
            "contains_email",
            "text",
        ),
        (
            common::review_json("听说老师最近在闹离婚，心情不好，经常发脾气骂人"),
            "private_life",
            "text",
        ),
        (
            common::review_json("这个老师就是个人渣，千万不要报他的研究生啊"),
            "insult",
            "text",
        ),
        (
            common::review_json("师兄李明被他骂哭了好几次，组里氛围很压抑"),
            "names_student",
            "text",
        ),
        (common::review_json("太短了"), "too_short", "text"),
        (common::review_json(&long), "too_long", "text"),
        (
            json!({"ratings": {"academic": 6, "funding": 3, "relationship": 5, "prospects": 4, "overall": 4},
                   "tags": [], "text": "导师学术水平很高，每周组会都会认真指导。", "relation": "在读"}),
            "invalid_rating",
            "ratings.academic",
        ),
        (
            json!({"ratings": {"academic": 4, "funding": 3, "relationship": 5, "prospects": 4, "overall": 4},
                   "tags": ["温和", "负责", "耐心", "严格"], "text": "导师学术水平很高，每周组会都会认真指导。", "relation": "在读"}),
            "too_many_tags",
            "tags",
        ),
        (
            json!({"ratings": {"academic": 4, "funding": 3, "relationship": 5, "prospects": 4, "overall": 4},
                   "tags": [], "text": "导师学术水平很高，每周组会都会认真指导。", "relation": "路人"}),
            "invalid_relation",
            "relation",
        ),
    ];
    for (body, code, field) in cases {
        let (status, reply) = post(&app, &id, &body, "10.0.0.2").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{code}: {reply}");
        assert_eq!(reply["error"]["code"], code, "{reply}");
        assert_eq!(reply["error"]["field"], field, "{reply}");
        assert!(has_chinese(reply["error"]["message"].as_str().unwrap()));
    }
    let (status, reply) = post(&app, &id, &json!({"text": 1}), "10.0.0.2").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(reply["error"]["code"], "invalid_request");
    let (status, reply) = post(
        &app,
        "99999999",
        &common::review_json("导师学术水平很高，每周组会都会认真指导。"),
        "10.0.0.2",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(reply["error"]["code"], "unknown_advisor");
    assert_eq!(common::review_count(&site).await, stored, "nothing stored");
}

#[tokio::test]
async fn the_same_text_again_is_a_duplicate_and_bursts_are_rate_limited() {
    let (app, _) = app().await;
    let id = common::zhang_id(&app).await;
    let text = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
    let (status, _) = post(&app, &id, &common::review_json(text), "10.0.0.3").await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, reply) = post(
        &app,
        &id,
        &common::review_json(&format!("{text}！")),
        "10.0.0.3",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(reply["error"]["code"], "duplicate");
    // Another writer may say the same.
    let (status, r4) = post(&app, &id, &common::review_json(text), "10.0.0.4").await;
    assert_eq!(status, StatusCode::CREATED, "{r4}");
    // Three reviews in ten minutes, then a pause is asked for.
    for t in [
        "另一位导师的评价：学术一般，经费充足，关系融洽，前途不错。",
        "第三条评价：组会很多，指导认真，补助按时发，毕业顺利。",
    ] {
        let (status, reply) = post(&app, &id, &common::review_json(t), "10.0.0.3").await;
        assert_eq!(status, StatusCode::CREATED, "{reply}");
    }
    let (status, reply) = post(
        &app,
        &id,
        &common::review_json("第四条评价：老师很忙，但每周都会抽时间和学生讨论课题。"),
        "10.0.0.3",
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(reply["error"]["code"], "rate_limited");
}

async fn aggregates(site: &server::site::Site, advisor: &str) -> (i64, i64) {
    sqlx::query_as("SELECT review_count, sum_overall FROM advisors WHERE id = $1")
        .bind(advisor.parse::<i64>().unwrap())
        .fetch_one(site.pool())
        .await
        .unwrap()
}

#[tokio::test]
async fn the_writer_edits_and_deletes_with_the_token_and_nobody_else_can() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let base = aggregates(&site, &id).await;
    let (rid, token) = post_one(&app, &id, "10.0.1.1").await;
    let uri = format!("/api/v1/reviews/{rid}");

    let mut edited =
        common::review_json("改一下：学术水平很高，组会认真，经费其实挺充足的，补助每月三千。");
    edited["ratings"]["overall"] = json!(5);
    let (status, body) = send(
        &app,
        "PUT",
        &uri,
        &[("x-edit-token", "wrong")],
        Some(&edited),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = send(
        &app,
        "PUT",
        &uri,
        &[("x-edit-token", &token)],
        Some(&edited),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(aggregates(&site, &id).await, (base.0 + 1, base.1 + 5));
    // An edit is checked by the same rules.
    let bad = common::review_json("改一下：有事打我电话13812345678，学术水平很高。");
    let (status, body) = send(&app, "PUT", &uri, &[("x-edit-token", &token)], Some(&bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["code"], "contains_phone");

    let (status, _) = send(&app, "DELETE", &uri, &[], None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = send(&app, "DELETE", &uri, &[("x-edit-token", &token)], None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(aggregates(&site, &id).await, base);
}

#[tokio::test]
async fn a_report_hides_nothing_but_the_admin_sees_it_and_can_hide_it() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let base = aggregates(&site, &id).await;
    let text = "这条评价会被举报：学术一般，组会很少，经费紧张，毕业去向一般。";
    let (_, posted) = post(&app, &id, &common::review_json(text), "10.0.2.1").await;
    let rid = posted["review"]["id"].as_str().unwrap().to_string();

    let (status, body) = send(
        &app,
        "POST",
        &format!("/api/v1/reviews/{rid}/report"),
        &[("x-forwarded-for", "10.0.2.2")],
        Some(&json!({"reason": "内容不实"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let list = get(&app, &format!("/api/v1/advisors/{id}/reviews"))
        .await
        .json();
    assert_eq!(list["reviews"][0]["text"], text, "a report hides nothing");

    let admin = "/api/v1/admin/reviews";
    assert_eq!(
        send(&app, "GET", admin, &[], None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(
            &app,
            "GET",
            admin,
            &[("authorization", "Bearer nope")],
            None
        )
        .await
        .0,
        StatusCode::FORBIDDEN
    );
    let auth = [("authorization", "Bearer test-admin")];
    let (status, lists) = send(&app, "GET", admin, &auth, None).await;
    assert_eq!(status, StatusCode::OK);
    let flagged = lists["flagged"].as_array().unwrap();
    assert_eq!(flagged[0]["id"].as_str(), Some(rid.as_str()));
    assert_eq!(flagged[0]["reports"], 1);
    assert_eq!(flagged[0]["reasons"], "内容不实");

    let hide = format!("/api/v1/admin/reviews/{rid}/hide");
    assert_eq!(
        send(&app, "POST", &hide, &[], None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&app, "POST", &hide, &auth, None).await.0,
        StatusCode::OK
    );
    let list = get(&app, &format!("/api/v1/advisors/{id}/reviews"))
        .await
        .json();
    assert_ne!(list["reviews"][0]["text"], text, "hidden");
    assert_eq!(aggregates(&site, &id).await, base, "aggregates follow");
    let restore = format!("/api/v1/admin/reviews/{rid}/restore");
    assert_eq!(
        send(&app, "POST", &restore, &auth, None).await.0,
        StatusCode::OK
    );
    assert_eq!(aggregates(&site, &id).await.0, base.0 + 1);

    // The admin page: 401 / 403 / the lists.
    assert_eq!(
        send(&app, "GET", "/admin", &[], None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        send(&app, "GET", "/admin?token=nope", &[], None).await.0,
        StatusCode::FORBIDDEN
    );
    // `?token=` becomes an HttpOnly cookie and a clean address.
    let login = app
        .clone()
        .oneshot(
            Request::get("/admin?token=test-admin")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert!(login.status().is_redirection());
    assert_eq!(login.headers()["location"], "/admin");
    let cookie = login.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("admin_token=test-admin;") && cookie.contains("HttpOnly"));
    let page = app
        .clone()
        .oneshot(
            Request::get("/admin")
                .header("cookie", "admin_token=test-admin")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let body = String::from_utf8(
        page.into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    assert!(body.contains("被举报的评价") && body.contains("内容不实"));
}

async fn post_form(
    app: &axum::Router,
    uri: &str,
    form: &str,
) -> (StatusCode, String, Option<String>) {
    let request = Request::post(uri)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("x-forwarded-for", "10.0.3.1")
        .body(Body::from(form.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let location = response
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let cookie = response
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string());
    (status, location, cookie)
}

fn form_body(text: &str) -> String {
    let text: String = text
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!(
        "academic=4&funding=3&relationship=5&prospects=4&overall=4&tags=%E6%B8%A9%E5%92%8C&text={text}&relation=%E5%9C%A8%E8%AF%BB"
    )
}

#[tokio::test]
async fn the_review_form_posts_without_javascript_and_shows_errors_by_field() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let page = get(&app, &format!("/advisor/{id}/review")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains(&format!("action=\"/reviews/new/{id}\"")),
        "a plain POST form"
    );
    assert!(page.body.contains("学术水平") && page.body.contains("name=\"relation\""));

    // A phone number: back to the form, the error next to the text, the text kept, nothing stored.
    let stored = common::review_count(&site).await;
    let bad = "学术水平很高，有事打我电话13812345678，每周组会都认真指导。";
    let (status, location, _) =
        post_form(&app, &format!("/reviews/new/{id}"), &form_body(bad)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(
        location.starts_with(&format!("/advisor/{id}/review?draft=")),
        "{location}"
    );
    let again = get(&app, &location).await;
    assert!(
        again.body.contains("data-testid=\"error-text\""),
        "{}",
        again.body
    );
    assert!(again.body.contains("手机号码"));
    assert!(
        again.body.contains("每周组会都认真指导"),
        "what was typed is kept"
    );
    assert_eq!(common::review_count(&site).await, stored);

    // A good one: to the review on the detail page, with the token in a cookie.
    let good = "学术水平很高，每周组会都认真指导，经费够用，老师对学生很耐心。";
    let (status, location, cookie) =
        post_form(&app, &format!("/reviews/new/{id}"), &form_body(good)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(
        location.starts_with(&format!("/advisor/{id}?posted=")),
        "{location}"
    );
    assert!(cookie.unwrap().starts_with("review-token-"));
    let detail = get(&app, &location).await;
    assert!(detail.body.contains(good));
    assert!(detail.body.contains("你的评价已发布"));

    // 举报 without JavaScript: back to the review, nothing hidden.
    let rid = location
        .split("posted=")
        .nth(1)
        .unwrap()
        .split('#')
        .next()
        .unwrap()
        .to_string();
    let (status, back, _) = post_form(
        &app,
        &format!("/reviews/{rid}/report"),
        &format!("advisor_id={id}"),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(back, format!("/advisor/{id}?reported={rid}#review-{rid}"));
    assert!(get(&app, &back).await.body.contains(good));
}

#[tokio::test]
async fn the_writer_edits_with_the_form_and_the_cookie_proves_it() {
    let (app, _) = app().await;
    let id = common::zhang_id(&app).await;
    let (rid, token) = post_one(&app, &id, "10.0.4.1").await;
    let form = get(&app, &format!("/advisor/{id}/review?edit={rid}")).await;
    assert!(form
        .body
        .contains(&format!("action=\"/reviews/{rid}/edit\"")));
    assert!(
        form.body.contains("每周组会都会认真指导"),
        "filled with the review"
    );

    let changed = "改过的评价：学术水平很高，组会认真，经费其实挺充足，补助每月三千。";
    let send = |cookie: Option<String>| {
        let mut request = Request::post(format!("/reviews/{rid}/edit"))
            .header("content-type", "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            request = request.header("cookie", c);
        }
        request.body(Body::from(form_body(changed))).unwrap()
    };
    let refused = app.clone().oneshot(send(None)).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let done = app
        .clone()
        .oneshot(send(Some(format!("review-token-{rid}={token}"))))
        .await
        .unwrap();
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    let list = get(&app, &format!("/api/v1/advisors/{id}/reviews"))
        .await
        .json();
    assert_eq!(list["reviews"][0]["text"], changed);
}

/// Contact details in every form, rumours and their look-alikes: each
/// sentence added to a valid review is refused with the right rule, the
/// message points at the part without repeating it, nothing is stored; the
/// look-alikes are published.
#[tokio::test]
async fn contact_details_in_every_form_and_rumours_are_refused_look_alikes_pass() {
    let (app, site) = app().await;
    let id = common::zhang_id(&app).await;
    let stored = common::review_count(&site).await;
    let base = "导师学术水平很高，每周组会都会认真指导，经费一般但够用。";
    for (added, code, part) in [
        (
            "有问题可以加老师微信 zhang_san88 咨询",
            "contains_contact",
            "微信 ",
        ),
        ("老师QQ 123456789，可以直接联系", "contains_contact", "QQ "),
        (
            "联系方式：一三八一二三四五六七八",
            "contains_phone",
            "一三八",
        ),
        (
            "具体看这个链接 http://example.com/abc 有详细情况",
            "contains_link",
            "htt",
        ),
        (
            "老师邮箱 zhangsan at pku dot edu dot cn",
            "contains_email",
            "zha",
        ),
        ("老师和某个女学生关系暧昧", "private_life", "暧昧"),
        ("听说他学术造假，论文数据都是编的", "hearsay", "听说他"),
    ] {
        let text = format!("{base}{added}");
        let (status, reply) = post(&app, &id, &common::review_json(&text), "10.0.5.1").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{added}: {reply}");
        assert_eq!(reply["error"]["code"], code, "{added}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        let at =
            base.chars().count() + added.find(part).map_or(0, |b| added[..b].chars().count()) + 1;
        assert!(
            message.starts_with(&format!(
                "第 {at} 个字起「{}",
                part.chars().take(3).collect::<String>()
            )),
            "{added}: {message}"
        );
        for secret in [
            "zhang_san88",
            "123456789",
            "一三八一二三四五六七八",
            "example.com",
            "pku dot",
        ] {
            assert!(!message.contains(secret), "{message}");
        }
    }
    assert_eq!(common::review_count(&site).await, stored, "nothing stored");
    for (i, fine) in [
        "组里有个微信群，通知都在群里发，2023年入学，每月补助3000元。",
        "老师邮件回复很快，课题组网站上有论文列表，办公室在1203。",
        "去年组里发了13篇论文，听说老师人很好，和学生关系很好。",
    ]
    .iter()
    .enumerate()
    {
        let (status, reply) = post(
            &app,
            &id,
            &common::review_json(fine),
            &format!("10.0.5.{}", i + 2),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{fine}: {reply}");
    }
}
