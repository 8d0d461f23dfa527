//! The pages' data: the server functions of `app::api` answered by the
//! site's read services, the search, the review form and the admin's lists
//! (behind the admin's token check, `super::admin`). An adapter above
//! `site`, `search` and `reviews`, so none of them has to know the others.

use app::error::ApiError;
use app::model::{
    AdvisorDetail, Comparison, HomeData, RankingStats, RankingView, ReviewPage, ReviewQuery,
    SearchResults, SortKey,
};

use crate::site::Site;

/// The pages read through this implementation of the app's data trait.
#[async_trait::async_trait]
impl app::api::SiteData for Site {
    async fn home(&self) -> Result<HomeData, ApiError> {
        Site::home(self).await
    }

    async fn ranking(
        &self,
        school: &str,
        major: &str,
        sort: SortKey,
        page: u32,
    ) -> Result<RankingView, ApiError> {
        Site::ranking(self, school, major, sort, page).await
    }

    async fn advisor(&self, id: &str) -> Result<Option<AdvisorDetail>, ApiError> {
        self.advisor_detail(id).await
    }

    async fn reviews(
        &self,
        id: &str,
        query: ReviewQuery,
        viewer: Option<String>,
    ) -> Result<Option<ReviewPage>, ApiError> {
        Site::reviews(self, id, &query, viewer.as_deref()).await
    }

    async fn search(&self, query: &str) -> Result<SearchResults, ApiError> {
        Site::search(self, query, crate::search::MAX_ADVISORS).await
    }

    async fn review_form(
        &self,
        advisor_id: &str,
        draft: Option<&str>,
        edit: Option<&str>,
    ) -> Result<Option<app::model::ReviewForm>, ApiError> {
        crate::reviews::form::review_form(self, advisor_id, draft, edit).await
    }

    async fn compare(&self, ids: &[String]) -> Result<Comparison, ApiError> {
        Site::compare(self, ids).await
    }

    async fn ranking_stats(
        &self,
        school: &str,
        major: &str,
    ) -> Result<Option<RankingStats>, ApiError> {
        self.ranking_stats_by_name(school, major).await
    }

    async fn admin(
        &self,
        request: &axum::http::request::Parts,
        after: Option<String>,
    ) -> Result<app::model::admin::AdminLists, ApiError> {
        super::admin::page_lists(self, request, after.as_deref()).await
    }

    async fn correction_form(
        &self,
        draft: Option<&str>,
    ) -> Result<app::model::correction::CorrectionForm, ApiError> {
        Ok(crate::reviews::correction::form(self, draft).await)
    }
}
