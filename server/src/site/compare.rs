//! Advisors side by side (`/compare`, the agent's comparison): which ids
//! make a comparison, and the error for each that does not.

use app::error::ApiError;
use app::model::Comparison;

use super::{parse_advisor_id, Site};

impl Site {
    /// Advisors side by side, in the order given: 2 to 4 distinct advisor
    /// ids (repeats count once). Each id must be a positive integer
    /// (`invalid_id`) naming an advisor (`unknown_advisor`, 404); too few or
    /// too many distinct ids is `invalid_ids`.
    pub async fn compare(&self, ids: &[String]) -> Result<Comparison, ApiError> {
        let count_error = || {
            ApiError::bad_request(
                "invalid_ids",
                format!(
                    "请选择 {} 到 {} 位导师进行对比。",
                    Comparison::MIN,
                    Comparison::MAX
                ),
            )
            .with_field("ids")
        };
        let mut wanted: Vec<i64> = Vec::with_capacity(Comparison::MAX);
        for raw in ids {
            let id = parse_advisor_id(raw).ok_or_else(|| {
                ApiError::bad_request(
                    "invalid_id",
                    format!("导师编号“{}”无效，必须是正整数。", shown(raw)),
                )
                .with_field("ids")
            })?;
            if !wanted.contains(&id) {
                wanted.push(id);
            }
            // A list far too long is refused before it costs anything.
            if wanted.len() > Comparison::MAX {
                return Err(count_error());
            }
        }
        if wanted.len() < Comparison::MIN {
            return Err(count_error());
        }
        let mut advisors = Vec::with_capacity(wanted.len());
        for id in wanted {
            let detail = self.advisor_detail(&id.to_string()).await?.ok_or_else(|| {
                ApiError::not_found("unknown_advisor", format!("没有找到编号为 {id} 的导师。"))
                    .with_field("ids")
            })?;
            advisors.push(detail);
        }
        Ok(Comparison { advisors })
    }
}

/// An id as a message may quote it: a long one is cut, so a garbage
/// parameter does not come back whole.
fn shown(raw: &str) -> String {
    const LIMIT: usize = 20;
    let raw = raw.trim();
    if raw.chars().count() > LIMIT {
        format!("{}…", raw.chars().take(LIMIT).collect::<String>())
    } else {
        raw.to_string()
    }
}
