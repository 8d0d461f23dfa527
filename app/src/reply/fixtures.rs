//! Test-only: the tool calls, results and places the tests of [`plan`](mod@super::plan)
//! and [`chips`](super::chips) are written with, shaped as the server sends them.

use serde_json::{json, Value};

use super::plan::{Here, Plan, Step};
use crate::protocol::{PageContext, PageKind, RankingFilters, ToolCall, VisibleAdvisor};

pub fn call(tool: &str, params: Value, result: Option<Value>) -> ToolCall {
    ToolCall {
        tool: tool.to_string(),
        params,
        result,
    }
}

pub fn ranking_json(school: &str, major: &str) -> Value {
    json!({
        "school": school, "major": major, "sort": "overall", "page": 1, "per_page": 20, "total": 1,
        "advisors": [{
            "id": "12345", "name": "张三", "title": "教授", "rank": 1, "rating": 4.5, "score": 4.4,
            "review_count": 30, "top_tags": ["温和"], "directions": ["机器学习"]
        }]
    })
}

pub fn recommend_json(school: &str, major: &str) -> Value {
    json!({
        "school": school, "major": major,
        "advisors": [{
            "id": "12345", "name": "张三", "title": "教授", "rating": 4.5, "review_count": 30,
            "score": 92.0, "reasons": ["主要研究机器学习"], "directions": ["机器学习"]
        }]
    })
}

pub fn detail_json(id: &str) -> Value {
    json!({
        "id": id, "name": "张三", "title": "教授", "school": "北京大学", "major": "计算机科学与技术",
        "bio": "", "directions": ["机器学习"], "review_count": 0, "averages": null, "score": 4.0,
        "rank": 1, "rank_total": 42, "histogram": [0, 0, 0, 0, 0], "tags": []
    })
}

pub fn reviews_json(id: &str, page: u32) -> Value {
    json!({
        "count": 0, "advisor_id": id, "page": page, "per_page": 10, "total": 0, "average": null, "reviews": []
    })
}

pub fn home() -> Here {
    Here {
        path: "/".into(),
        url: "/".into(),
        ranking: None,
    }
}

pub fn navigations(plan: &Plan) -> Vec<&str> {
    plan.steps
        .iter()
        .filter_map(|s| match s {
            Step::Navigate(h) => Some(h.as_str()),
            _ => None,
        })
        .collect()
}

/// A ranking of `school` (计算机科学与技术) listing `advisors`, ranked in order.
pub fn ranking(school: &str, advisors: &[&str]) -> PageContext {
    PageContext {
        current_page: PageKind::Ranking,
        visible_advisors: advisors
            .iter()
            .enumerate()
            .map(|(i, name)| VisibleAdvisor {
                id: (i + 1).to_string(),
                name: name.to_string(),
                title: "教授".into(),
                rating: 4.0,
                rank: i as u32 + 1,
            })
            .collect(),
        selected_advisor: None,
        ranking_filters: Some(RankingFilters {
            school: school.into(),
            major: "计算机科学与技术".into(),
        }),
    }
}
