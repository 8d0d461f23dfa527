//! Read models: what the pages, the JSON API and the agent's tool results show
//! of schools, majors, advisors and reviews. Ids travel as strings on the wire,
//! as the protocol's examples do (`"id": "12345"`).

use serde::{Deserialize, Serialize};

use crate::protocol::VisibleAdvisor;

pub mod admin;

/// What a ranking can be sorted by: the overall score, one of the four
/// dimensions students rate on 导师评价网, or the number of reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortKey {
    #[default]
    Overall,
    Academic,
    Funding,
    Relationship,
    Prospects,
    Reviews,
}

impl SortKey {
    pub const ALL: [SortKey; 6] = [
        SortKey::Overall,
        SortKey::Academic,
        SortKey::Funding,
        SortKey::Relationship,
        SortKey::Prospects,
        SortKey::Reviews,
    ];

    /// Parses the `sort=` query parameter; an empty value means the default.
    pub fn from_param(s: &str) -> Option<SortKey> {
        match s.trim() {
            "" | "overall" => Some(SortKey::Overall),
            "academic" => Some(SortKey::Academic),
            "funding" => Some(SortKey::Funding),
            "relationship" => Some(SortKey::Relationship),
            "prospects" => Some(SortKey::Prospects),
            "reviews" => Some(SortKey::Reviews),
            _ => None,
        }
    }

    pub fn as_param(self) -> &'static str {
        match self {
            SortKey::Overall => "overall",
            SortKey::Academic => "academic",
            SortKey::Funding => "funding",
            SortKey::Relationship => "relationship",
            SortKey::Prospects => "prospects",
            SortKey::Reviews => "reviews",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            SortKey::Overall => "综合评分",
            SortKey::Academic => "学术水平",
            SortKey::Funding => "科研经费",
            SortKey::Relationship => "师生关系",
            SortKey::Prospects => "学生前途",
            SortKey::Reviews => "评价数量",
        }
    }
}

/// A school with the names students use for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct School {
    pub id: String,
    pub name: String,
    pub city: String,
    pub tier: String,
    pub aliases: Vec<String>,
    pub advisor_count: i64,
}

/// A major as offered by one school (or site-wide when no school is given).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Major {
    pub id: String,
    pub name: String,
    pub category: String,
    pub aliases: Vec<String>,
    pub advisor_count: i64,
}

/// One row of a ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisorCard {
    pub id: String,
    pub name: String,
    pub title: String,
    /// 1-based position in the ranking under its current sort.
    pub rank: u32,
    /// Plain mean of the overall scores, one decimal (0 when unrated).
    pub rating: f64,
    /// The Bayesian average the ranking is ordered by.
    pub score: f64,
    pub review_count: i64,
    pub top_tags: Vec<String>,
    pub directions: Vec<String>,
}

impl AdvisorCard {
    /// The card as the page context reports it to the agent.
    pub fn to_visible(&self) -> VisibleAdvisor {
        VisibleAdvisor {
            id: self.id.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            rating: self.rating,
            rank: self.rank,
        }
    }
}

/// One page of a ranking for a (school, major), both canonical names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingPage {
    pub school: String,
    pub major: String,
    pub sort: SortKey,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    pub advisors: Vec<AdvisorCard>,
}

impl RankingPage {
    pub fn page_count(&self) -> u32 {
        (self.total.div_ceil(self.per_page.max(1) as u64)).max(1) as u32
    }
}

/// What a ranking request resolves to. A student's words may name no known
/// school, several (交大), or a school without that major; each gets a page of
/// its own rather than a guess.
///
/// Only the ranking page's server function carries it (the JSON API answers
/// with the page or an error), so it keeps serde's default, externally tagged
/// form: an internally tagged enum (`tag = "kind"`) is read through serde's
/// buffered `Content`, which compiled a second deserializer of every variant
/// into the page's WASM (issue 13).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankingView {
    Ranking(RankingPage),
    /// The school words name several schools: the student chooses.
    ChooseSchool {
        query: String,
        candidates: Vec<String>,
    },
    /// The school is known; the major is missing or not offered there.
    ChooseMajor {
        school: String,
        /// The major asked for that this school does not have, if any.
        unknown_major: Option<String>,
        majors: Vec<Major>,
    },
    /// No school matches.
    UnknownSchool {
        query: String,
    },
}

/// Averages of the five scores (1–5), one decimal; `None` without reviews.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DimensionAverages {
    pub academic: f64,
    pub funding: f64,
    pub relationship: f64,
    pub prospects: f64,
    pub overall: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagCount {
    pub tag: String,
    pub count: i64,
}

/// The detail page of one advisor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisorDetail {
    pub id: String,
    pub name: String,
    pub title: String,
    pub school: String,
    pub major: String,
    pub bio: String,
    pub directions: Vec<String>,
    pub review_count: i64,
    pub averages: Option<DimensionAverages>,
    /// Bayesian average of the overall score (what rankings sort by).
    pub score: f64,
    /// Position in the overall ranking of its school and major.
    pub rank: u32,
    /// How many advisors that ranking has.
    pub rank_total: u64,
    /// Counts of overall scores 1..=5 (index 0 is the count of 1-star reviews).
    pub histogram: [i64; 5],
    /// Tags by how often reviewers chose them, most frequent first.
    pub tags: Vec<TagCount>,
    /// 是否推荐报考: of the reviews that answered, how many said yes.
    #[serde(default)]
    pub recommend: RecommendShare,
}

/// The answers to 是否推荐报考 over an advisor's published reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecommendShare {
    pub yes: i64,
    pub answered: i64,
}

impl RecommendShare {
    /// The share of yes in whole percent; `None` when nobody answered.
    pub fn percent(self) -> Option<i64> {
        (self.answered > 0).then(|| (self.yes * 100 + self.answered / 2) / self.answered)
    }
}

/// Advisors side by side (`/compare?ids=…`), in the order the ids were
/// given, each with everything its detail page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// An advisor named in statistics, with the number that put them there (a
/// review count, or an average on one dimension).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisorRef {
    pub id: String,
    pub name: String,
    pub value: f64,
}

/// The advisor with the highest average on one dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DimensionBest {
    /// `academic`, `funding`, `relationship` or `prospects` (as `sort=` names them).
    pub dimension: String,
    /// 学术水平, 科研经费, 师生关系 or 学生前途.
    pub label: String,
    /// `value` is the plain average on that dimension, one decimal.
    pub advisor: AdvisorRef,
}

/// What the reviews of one (school, major) add up to, read from the
/// aggregates on the advisor rows (never by scanning reviews).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingStats {
    /// Advisors of the (school, major), reviewed or not.
    pub advisors: u64,
    /// Published reviews of those advisors.
    pub reviews: i64,
    /// Plain mean of every overall score, one decimal; `None` without reviews.
    pub average: Option<f64>,
    /// Counts of overall scores 1..=5 (index 0 is the count of 1-star reviews).
    pub histogram: [i64; 5],
    /// The advisor with the most reviews (`value` is the count); `None`
    /// without reviews.
    pub most_reviewed: Option<AdvisorRef>,
    /// The best advisor on each of the four dimensions, in the order
    /// 学术水平, 科研经费, 师生关系, 学生前途, among advisors with at least
    /// [`RankingStats::MIN_REVIEWS`] reviews: empty when nobody has that many.
    pub best: Vec<DimensionBest>,
}

impl RankingStats {
    /// Reviews an advisor needs to be named best on a dimension: two glowing
    /// reviews are an anecdote, not a reputation.
    pub const MIN_REVIEWS: i64 = 3;
}

impl AdvisorDetail {
    /// The advisor as a page listing it (the compare page) reports it to the
    /// agent: `rating` is the plain overall average (0 without reviews).
    pub fn to_visible(&self) -> VisibleAdvisor {
        VisibleAdvisor {
            id: self.id.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            rating: self.averages.as_ref().map_or(0.0, |a| a.overall),
            rank: self.rank,
        }
    }
}

/// One published review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub id: String,
    pub advisor_id: String,
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
    pub tags: Vec<String>,
    pub text: String,
    pub relation: String,
    pub created_at: String,
    /// 是否推荐报考, when the writer answered.
    #[serde(default)]
    pub recommend: Option<bool>,
    /// How many readers said the review helped them (有用).
    #[serde(default)]
    pub helpful: i64,
    /// Whether the client reading it is one of them.
    #[serde(default)]
    pub voted: bool,
}

/// The five scores of a review, 1–5 (`POST /api/v1/advisors/{id}/reviews`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ratings {
    pub academic: u8,
    pub funding: u8,
    pub relationship: u8,
    pub prospects: u8,
    pub overall: u8,
}

/// A review as the writer sends it (the protocol's "Reviews API" body).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewReview {
    pub ratings: Ratings,
    #[serde(default)]
    pub tags: Vec<String>,
    pub text: String,
    pub relation: String,
    /// 是否推荐报考 (optional: `null` or absent is "not answered").
    #[serde(default)]
    pub recommend: Option<bool>,
}

/// What the review form needs: the advisor, the site's tags, and — after a
/// refused submission — what was entered and what was wrong, by field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewForm {
    pub advisor_id: String,
    pub advisor_name: String,
    pub school: String,
    pub major: String,
    pub tags: Vec<String>,
    pub values: Option<NewReview>,
    /// (field, message): `ratings.academic`, `tags`, `text`, `relation`, …
    pub errors: Vec<(String, String)>,
    /// The review being edited (its writer's browser holds the token).
    #[serde(default)]
    pub editing: Option<String>,
}

/// A stored review and the secret token its writer edits or deletes it with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PostedReview {
    pub review: Review,
    pub edit_token: String,
}

/// A page of an advisor's published reviews, in the order and with the
/// filter it was asked for (`total` counts the filtered reviews).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewPage {
    pub advisor_id: String,
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    pub average: Option<f64>,
    pub reviews: Vec<Review>,
    #[serde(default)]
    pub query: ReviewQuery,
}

/// The order of an advisor's reviews: 最新 or 最有用.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewSort {
    #[default]
    Newest,
    Helpful,
}

impl ReviewSort {
    pub const ALL: [ReviewSort; 2] = [ReviewSort::Newest, ReviewSort::Helpful];

    /// Parses `sort=`; empty is the default.
    pub fn from_param(s: &str) -> Option<ReviewSort> {
        match s.trim() {
            "" | "newest" => Some(ReviewSort::Newest),
            "helpful" => Some(ReviewSort::Helpful),
            _ => None,
        }
    }

    pub fn as_param(self) -> &'static str {
        match self {
            ReviewSort::Newest => "newest",
            ReviewSort::Helpful => "helpful",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ReviewSort::Newest => "最新",
            ReviewSort::Helpful => "最有用",
        }
    }
}

/// Which reviews of an advisor, in which order: the detail page's links
/// (`?sort=helpful&relation=在读&tag=…`) and the JSON API's parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ReviewQuery {
    #[serde(default)]
    pub page: u32,
    #[serde(default)]
    pub sort: ReviewSort,
    /// 在读 / 已毕业 / 了解 (`vocabulary::RELATIONS`).
    #[serde(default)]
    pub relation: Option<String>,
    #[serde(default)]
    pub tag: Option<String>,
}

impl ReviewQuery {
    /// The first page, newest first, unfiltered.
    pub fn first(page: u32) -> ReviewQuery {
        ReviewQuery {
            page,
            ..ReviewQuery::default()
        }
    }

    /// The query string of this query (without `?`), `page` left out on the
    /// first page: what the detail page links to.
    pub fn to_query_string(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.sort != ReviewSort::Newest {
            parts.push(format!("sort={}", self.sort.as_param()));
        }
        if let Some(r) = &self.relation {
            parts.push(format!("relation={}", crate::text::url_encode(r)));
        }
        if let Some(t) = &self.tag {
            parts.push(format!("tag={}", crate::text::url_encode(t)));
        }
        if self.page > 1 {
            parts.push(format!("page={}", self.page));
        }
        parts.join("&")
    }
}

/// What the name search found (`/search?q=`, `GET /api/v1/search`):
/// advisors by name, pinyin or initials; schools and majors by name or alias.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    pub query: String,
    pub advisors: Vec<AdvisorHit>,
    pub schools: Vec<SchoolHit>,
    pub majors: Vec<MajorHit>,
}

impl SearchResults {
    pub fn is_empty(&self) -> bool {
        self.advisors.is_empty() && self.schools.is_empty() && self.majors.is_empty()
    }
}

/// An advisor the search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdvisorHit {
    pub id: String,
    pub name: String,
    pub title: String,
    pub school: String,
    pub major: String,
    /// Bayesian overall score, one decimal (what rankings sort by).
    pub score: f64,
    pub review_count: i64,
    /// exact / start / inside: how the name matched.
    pub matched: String,
}

/// A school the search found, by its name or one of its aliases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SchoolHit {
    pub name: String,
    /// The name or alias that matched (北大 for 北京大学).
    pub matched: String,
    pub advisor_count: i64,
}

/// A major the search found, with the schools that have most advisors in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MajorHit {
    pub name: String,
    pub matched: String,
    pub schools: Vec<String>,
}

impl ReviewPage {
    pub fn page_count(&self) -> u32 {
        (self.total.div_ceil(self.per_page.max(1) as u64)).max(1) as u32
    }
}

/// The home page's data: every school, most popular first (the page shows the
/// first few and suggests from all of them with their aliases), and site totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HomeData {
    pub schools: Vec<School>,
    pub school_count: i64,
    pub advisor_count: i64,
    pub review_count: i64,
}

/// One advisor recommended by `recommend_advisors`, with an explainable score
/// and the reasons a student hears ("主要研究机器学习，学生评价温和").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendedAdvisor {
    pub id: String,
    pub name: String,
    pub title: String,
    pub rating: f64,
    pub review_count: i64,
    /// 0–100: how well the advisor fits the student's form.
    pub score: f64,
    pub reasons: Vec<String>,
    pub directions: Vec<String>,
}

/// The result of `recommend_advisors`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendResult {
    pub school: String,
    pub major: String,
    pub advisors: Vec<RecommendedAdvisor>,
}

/// The result of `get_advisor_reviews`: the protocol's `count`, `average` and
/// `reviews`, plus the page they belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewsResult {
    pub count: u64,
    #[serde(flatten)]
    pub page: ReviewPage,
}

/// One message of a conversation as the panel shows it after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `user`, `assistant` or `system` (an event such as a persona switch).
    pub role: String,
    pub content: String,
    #[serde(default)]
    pub agent: Option<String>,
}

/// A stored conversation: what the panel restores after a reload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatHistory {
    pub session_id: String,
    pub agent: String,
    pub messages: Vec<ChatMessage>,
    pub form: crate::protocol::UserForm,
    /// The chips still waiting for an answer (the last `present_options`), if any.
    pub options: Option<crate::protocol::ToolCall>,
    /// When the session was opened (seed 000 §5.2 `start_time`), ISO 8601 UTC.
    #[serde(default)]
    pub start_time: String,
    /// The page the student was on at the last turn, as the panel sent it.
    #[serde(default)]
    pub page_context: crate::protocol::PageContext,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_keys_round_trip_through_the_query_parameter() {
        for key in SortKey::ALL {
            assert_eq!(SortKey::from_param(key.as_param()), Some(key));
        }
        assert_eq!(SortKey::from_param(""), Some(SortKey::Overall));
        assert_eq!(SortKey::from_param("score; DROP TABLE"), None);
    }

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

    #[test]
    fn page_count_rounds_up_and_is_never_zero() {
        let page = RankingPage {
            school: "x".into(),
            major: "y".into(),
            sort: SortKey::Overall,
            page: 1,
            per_page: 20,
            total: 41,
            advisors: vec![],
        };
        assert_eq!(page.page_count(), 3);
        let empty = RankingPage { total: 0, ..page };
        assert_eq!(empty.page_count(), 1);
    }
}
