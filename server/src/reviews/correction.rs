//! Requests for a correction or removal (`/correction`): a named person —
//! the advisor, a student, anyone who knows a page is wrong — asks the
//! moderators to look. They join the moderation queue: the admin's lists
//! show the open requests beside the reported reviews, and marking one
//! handled writes a line in the same audit log as hiding a review.
//!
//! Why a request of its own and not a report: a report is anonymous, one
//! per client and review, and about a review; a correction is about any
//! page (an advisor's name, school, a review), comes from someone who says
//! who they are and wants an answer, so it carries a contact.
//!
//! One check ([`validate`]) for every field at once, then a per-client rate
//! limit, then one row. A refused request stores nothing but the short-lived
//! draft the form shows again (`super::form::Drafts`).

use app::error::ApiError;
use app::model::correction::{
    CorrectionForm, CorrectionInput, CorrectionRequest, MAX_CONTACT, MAX_DETAILS, MAX_SUBJECT,
    MIN_DETAILS, REQUESTERS,
};
use app::policy::Quota;

use super::form::Drafts;
use super::moderation::Act;
use super::submit::visible;
use crate::site::Site;
use crate::store::corrections as store;

/// At most this many requests per client in the short and the long window.
pub const BURST: Quota = Quota {
    count: 3,
    minutes: 10,
};
pub const DAILY: Quota = Quota {
    count: 10,
    minutes: 24 * 60,
};
/// Open requests the admin's list shows.
pub const LISTED: i64 = 50;
/// A contact shorter than this is no e-mail address or phone number.
const MIN_CONTACT: usize = 5;

/// (field, message) errors; the field `form` is the whole form's.
pub type FieldErrors = Vec<(String, String)>;

/// The request as it will be stored: what a reader could not see removed
/// (bidirectional overrides, controls), each field trimmed.
pub fn clean(input: CorrectionInput) -> CorrectionInput {
    let tidy = |s: &str| visible(s).trim().to_string();
    CorrectionInput {
        subject: tidy(&input.subject),
        requester: tidy(&input.requester),
        details: tidy(&input.details),
        contact: tidy(&input.contact),
    }
}

/// Everything wrong with a (cleaned) request, in the order of the form.
pub fn validate(input: &CorrectionInput) -> FieldErrors {
    let mut out: FieldErrors = Vec::new();
    let mut push = |field: &str, message: String| out.push((field.to_string(), message));
    let count = |s: &str| s.chars().count();
    match count(&input.subject) {
        0 => push("subject", "请填写导师姓名或页面链接。".into()),
        n if n > MAX_SUBJECT => push(
            "subject",
            format!("导师姓名或页面链接最多 {MAX_SUBJECT} 个字，现在是 {n} 个字。"),
        ),
        _ => {}
    }
    if !REQUESTERS.contains(&input.requester.as_str()) {
        push("requester", "请选择你的身份：导师本人、学生或其他。".into());
    }
    match count(&input.details) {
        0 => push("details", "请写明哪里有误，希望怎样更正或删除。".into()),
        n if n < MIN_DETAILS => push(
            "details",
            format!("请至少写 {MIN_DETAILS} 个字说明情况，现在是 {n} 个字。"),
        ),
        n if n > MAX_DETAILS => push(
            "details",
            format!("说明最多 {MAX_DETAILS} 个字，现在是 {n} 个字。"),
        ),
        _ => {}
    }
    match count(&input.contact) {
        0 => push(
            "contact",
            "请留下联系方式（邮箱或电话），管理员需要回复你。".into(),
        ),
        n if n < MIN_CONTACT => push("contact", "联系方式太短了，请留下邮箱或电话。".into()),
        n if n > MAX_CONTACT => push(
            "contact",
            format!("联系方式最多 {MAX_CONTACT} 个字，现在是 {n} 个字。"),
        ),
        _ => {}
    }
    out
}

/// Form fields → the request (a missing field is empty).
pub fn from_fields(fields: &[(String, String)]) -> CorrectionInput {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    CorrectionInput {
        subject: get("subject"),
        requester: get("requester"),
        details: get("details"),
        contact: get("contact"),
    }
}

fn unavailable(e: sqlx::Error) -> ApiError {
    tracing::error!(error = %e, "correction request storage failed");
    ApiError::unavailable("申诉暂时无法保存，请稍后再试。")
}

/// Checks and stores a request from `client_key`; its id. A wrong field is
/// a 400 naming it, too many requests a 429 on the field `form`; nothing is
/// stored then.
pub async fn submit(
    site: &Site,
    input: CorrectionInput,
    client_key: &str,
) -> Result<i64, ApiError> {
    let input = clean(input);
    if let Some((field, message)) = validate(&input).into_iter().next() {
        return Err(ApiError::bad_request("invalid_correction", message).with_field(&field));
    }
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    for quota in [BURST, DAILY] {
        let n = crate::store::limits::written_since(
            &mut tx,
            crate::store::limits::Written::CorrectionRequests,
            client_key,
            &quota.modifier(),
        )
        .await
        .map_err(unavailable)?;
        if n >= quota.count {
            let mut e = ApiError::bad_request(
                "rate_limited",
                format!(
                    "提交太频繁了：{} 内最多提交 {} 次申诉，请稍后再试。",
                    quota.window_zh(),
                    quota.count
                ),
            )
            .with_field("form");
            e.status = 429;
            return Err(e);
        }
    }
    let id = store::insert(
        &mut tx,
        &input.subject,
        &input.requester,
        &input.details,
        &input.contact,
        client_key,
    )
    .await
    .map_err(unavailable)?;
    tx.commit().await.map_err(unavailable)?;
    tracing::info!(request = id, "correction request received");
    Ok(id)
}

/// Keeps a refused request for the form to show again (each field cut a
/// little past its limit, so "too long" can still be shown and fixed).
pub async fn keep_draft(
    site: &Site,
    input: &CorrectionInput,
    errors: FieldErrors,
) -> Result<String, ApiError> {
    let cut = |s: &str, max: usize| s.chars().take(max + 200).collect::<String>();
    let kept = CorrectionInput {
        subject: cut(&input.subject, MAX_SUBJECT),
        requester: cut(&input.requester, 0),
        details: cut(&input.details, MAX_DETAILS),
        contact: cut(&input.contact, MAX_CONTACT),
    };
    Drafts::new(site.pool().clone())
        .put_json(&serde_json::to_string(&kept).unwrap_or_default(), errors)
        .await
}

/// The form of `/correction`: a kept draft's values and errors, or empty.
pub async fn form(site: &Site, draft: Option<&str>) -> CorrectionForm {
    let Some(id) = draft else {
        return CorrectionForm::default();
    };
    let Some((values, errors)) = Drafts::new(site.pool().clone()).get_json(id).await else {
        return CorrectionForm::default();
    };
    match serde_json::from_str::<CorrectionInput>(&values) {
        Ok(values) => CorrectionForm { values, errors },
        Err(_) => CorrectionForm::default(),
    }
}

/// The open requests, newest first, as the admin's list shows them.
pub async fn open(site: &Site) -> Result<Vec<CorrectionRequest>, ApiError> {
    let mut conn = site.pool().acquire().await.map_err(unavailable)?;
    let rows = store::open(&mut conn, LISTED).await.map_err(unavailable)?;
    Ok(rows
        .into_iter()
        .map(|r| CorrectionRequest {
            id: r.id.to_string(),
            subject: r.subject,
            requester: r.requester,
            details: r.details,
            contact: r.contact,
            created_at: r.created_at,
        })
        .collect())
}

/// Marks request `id` handled, with a line in the audit log (also when it
/// already was). Returns whether it was open.
pub async fn resolve(site: &Site, id: &str, act: &Act) -> Result<bool, ApiError> {
    let id = id
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            ApiError::bad_request("invalid_id", "申诉编号格式不正确。").with_field("id")
        })?;
    let mut tx = crate::db::begin_write(site.pool())
        .await
        .map_err(unavailable)?;
    let Some(status) = store::status(&mut tx, id).await.map_err(unavailable)? else {
        return Err(ApiError::not_found(
            "unknown_correction",
            "没有找到这条申诉。",
        ));
    };
    let open = status == "open";
    if open {
        store::mark_handled(&mut tx, id, &act.actor)
            .await
            .map_err(unavailable)?;
    }
    let reason: String = act.reason.trim().chars().take(500).collect();
    crate::store::moderation::audit(&mut tx, &act.actor, "resolve_correction", id, open, &reason)
        .await
        .map_err(unavailable)?;
    tx.commit().await.map_err(unavailable)?;
    Ok(open)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> CorrectionInput {
        CorrectionInput {
            subject: "北京大学 张三".into(),
            requester: "本人".into(),
            details: "页面上写的研究方向不对，我不做量子计算。".into(),
            contact: "zhangsan@example.com".into(),
        }
    }

    #[test]
    fn a_good_request_passes_and_every_field_is_checked_at_once() {
        assert!(validate(&clean(good())).is_empty());
        let bad = clean(CorrectionInput {
            subject: "  ".into(),
            requester: "路人".into(),
            details: "不对".into(),
            contact: "".into(),
        });
        let fields: Vec<String> = validate(&bad).into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["subject", "requester", "details", "contact"]);
        for (_, message) in validate(&bad) {
            assert!(message
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        }
        let mut long = good();
        long.details = "很".repeat(MAX_DETAILS + 1);
        assert_eq!(validate(&long)[0].0, "details");
    }

    #[test]
    fn hidden_controls_are_removed_and_fields_trimmed() {
        let mut r = good();
        r.subject = " \u{202E}张三 ".into();
        assert_eq!(clean(r).subject, "张三");
    }
}
