//! The compare page's data (`/compare?ids=…`) and how its `ids=` parameter
//! is read, the same for the page, the JSON API and the agent.

use serde::{Deserialize, Serialize};

use super::advisor::AdvisorDetail;

/// Advisors side by side (`/compare?ids=…`), in the order the ids were
/// given, each with everything its detail page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct Comparison {
    pub advisors: Vec<AdvisorDetail>,
}

impl Comparison {
    /// The fewest advisors a comparison makes sense for.
    pub const MIN: usize = 2;
    /// The most advisors that still fit side by side on a phone.
    pub const MAX: usize = 4;

    /// Splits the `ids=` parameter. Students and the agent write lists with
    /// ASCII or Chinese commas, with or without spaces; empty pieces (a
    /// trailing comma) are dropped. Validation is left to the server.
    pub fn split_ids(raw: &str) -> Vec<String> {
        raw.split([',', '，', '、', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_ids_split_on_any_comma_and_drop_empty_pieces() {
        assert_eq!(Comparison::split_ids("12,34"), vec!["12", "34"]);
        assert_eq!(
            Comparison::split_ids(" 12 ，34、 56,, "),
            vec!["12", "34", "56"]
        );
        assert!(Comparison::split_ids("").is_empty());
        assert!(Comparison::split_ids(" , ").is_empty());
        assert_eq!(Comparison::split_ids("abc,1"), vec!["abc", "1"]);
    }
}
