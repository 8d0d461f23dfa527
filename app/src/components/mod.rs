//! Small presentational pieces shared by the pages.

mod agent_panel;
mod charts;
mod helpful;
pub mod icons;
mod my_review;
mod name_search;
mod pager;
mod rating;
mod search;

pub use agent_panel::{early as agent_panel_early, endpoint as recording_endpoint, AgentPanel};
pub use charts::{series_color, DimensionBars, Histogram, RadarChart, RadarSeries};
pub use helpful::HelpfulButton;
pub use my_review::DeleteMine;
pub use name_search::NameSearch;
pub use pager::Pager;
pub use rating::{Stars, TagList};
pub use search::SearchForm;
