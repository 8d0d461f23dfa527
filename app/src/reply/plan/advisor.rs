//! The calls that lead to an advisor's page: `get_advisor_detail` (hand
//! over the detail and open it), `get_advisor_reviews` (the reviews, at
//! their anchor) and `submit_review` (keep the new review's edit token and
//! show it). Pure.

use serde_json::Value;

use super::{go, param, result, Here, Step};
use crate::model::{AdvisorDetail, ReviewsResult};
use crate::pages::encode;
use crate::protocol::ToolCall;

pub(super) fn plan_detail(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let detail = result::<AdvisorDetail>(call);
    let Some(id) = detail
        .as_ref()
        .map(|d| d.id.clone())
        .or_else(|| param(call, "advisor_id"))
    else {
        return;
    };
    let href = format!("/advisor/{}", encode(&id));
    if here.path == href {
        return;
    }
    if let Some(detail) = detail {
        steps.push(Step::PutDetail(Box::new(detail)));
    }
    go(href, None, here, steps);
}

pub(super) fn plan_reviews(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let reviews = result::<ReviewsResult>(call).map(|r| r.page);
    let Some(id) = reviews
        .as_ref()
        .map(|r| r.advisor_id.clone())
        .or_else(|| param(call, "advisor_id"))
    else {
        return;
    };
    let path = format!("/advisor/{}", encode(&id));
    if here.path != path {
        let page = reviews.as_ref().map(|r| r.page).unwrap_or(1);
        let href = if page > 1 {
            format!("{path}?page={page}#reviews")
        } else {
            format!("{path}#reviews")
        };
        if let Some(reviews) = reviews {
            steps.push(Step::PutReviews(reviews));
        }
        go(href, None, here, steps);
    }
    // The router scrolls to the hash only if the list is already rendered;
    // this catches the case where it renders a moment later.
    steps.push(Step::ScrollTo("reviews"));
}

/// A review the coach published: keep its edit token, show it on the
/// advisor's page.
pub(super) fn plan_posted(call: &ToolCall, here: &mut Here, steps: &mut Vec<Step>) {
    let Some(result) = call.result.as_ref() else {
        return;
    };
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let review = result.get("review");
    let review_id = text(review.and_then(|r| r.get("id")));
    let advisor_id = text(review.and_then(|r| r.get("advisor_id")))
        .or_else(|| text(call.params.get("advisor_id")));
    let (Some(review_id), Some(advisor_id)) = (review_id, advisor_id) else {
        return;
    };
    if let Some(token) = text(result.get("edit_token")) {
        steps.push(Step::KeepEditToken {
            review_id: review_id.clone(),
            token,
        });
    }
    let href = format!(
        "/advisor/{}?posted={}#review-{}",
        encode(&advisor_id),
        encode(&review_id),
        encode(&review_id)
    );
    go(href, None, here, steps);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::plan;
    use super::*;
    use crate::reply::fixtures::{call, detail_json, home, navigations, reviews_json};

    #[test]
    fn advisor_detail_is_handed_over_unless_already_open() {
        let calls = [call(
            "get_advisor_detail",
            json!({"advisor_id": "12345"}),
            Some(detail_json("12345")),
        )];
        let plan_home = plan(&calls, &home());
        assert!(matches!(&plan_home.steps[0], Step::PutDetail(d) if d.id == "12345"));
        assert_eq!(plan_home.steps[1], Step::Navigate("/advisor/12345".into()));

        let open = Here {
            path: "/advisor/12345".into(),
            url: "/advisor/12345".into(),
            ranking: None,
        };
        assert!(plan(&calls, &open).steps.is_empty());
    }

    #[test]
    fn reviews_navigate_to_the_anchor_or_scroll_when_on_the_page() {
        let calls = [call(
            "get_advisor_reviews",
            json!({"advisor_id": "12345"}),
            Some(reviews_json("12345", 1)),
        )];
        let from_home = plan(&calls, &home());
        assert!(matches!(&from_home.steps[0], Step::PutReviews(r) if r.advisor_id == "12345"));
        assert_eq!(
            from_home.steps[1],
            Step::Navigate("/advisor/12345#reviews".into())
        );
        assert_eq!(from_home.steps[2], Step::ScrollTo("reviews"));

        let open = Here {
            path: "/advisor/12345".into(),
            url: "/advisor/12345?page=2".into(),
            ranking: None,
        };
        assert_eq!(plan(&calls, &open).steps, vec![Step::ScrollTo("reviews")]);
    }

    #[test]
    fn detail_then_reviews_of_the_same_advisor_navigate_once() {
        let calls = [
            call("get_advisor_detail", json!({}), Some(detail_json("7"))),
            call("get_advisor_reviews", json!({}), Some(reviews_json("7", 1))),
        ];
        let plan = plan(&calls, &home());
        assert_eq!(navigations(&plan), vec!["/advisor/7"]);
        assert_eq!(plan.steps.last(), Some(&Step::ScrollTo("reviews")));
    }

    #[test]
    fn a_published_review_keeps_its_token_and_is_shown() {
        let call = ToolCall {
            tool: "submit_review".into(),
            params: json!({"advisor_id": "7", "advisor_name": "张三"}),
            result: Some(
                json!({"review": {"id": "42", "advisor_id": "7"}, "edit_token": "s3cret"}),
            ),
        };
        let steps = plan(&[call], &Here::after_navigating("/", None)).steps;
        assert_eq!(
            steps,
            vec![
                Step::KeepEditToken {
                    review_id: "42".into(),
                    token: "s3cret".into()
                },
                Step::Navigate("/advisor/7?posted=42#review-42".into()),
            ]
        );
    }
}
