//! A general question about a school or a major ("中山大学怎么样",
//! "计算机专业好就业吗", "北大计算机难考吗"). Such a question is answered
//! directly instead of starting a search; here the answer is what the site
//! holds — the tool `get_place_facts` (`Site::place_facts`: city, tier,
//! advisors, reviews, averages, the first of the ranking), so every figure
//! spoken is in a tool result the facts check can see — and then an offer to
//! search. The form is not touched: the place is remembered as the offer
//! (`Memory::offer`), and only a yes to it ("好的", "看看导师排名") fills the
//! form.
//!
//! [`plan`] proposes the calls (pure); [`speak`] says the result. The
//! tool's name, the shape of its result ([`PlaceResult`], which the executor
//! builds) and the chip call come from [`super::tools`], the short names from
//! [`super::spoken_names`]; the narrator calls [`speak`], never the reverse.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use app::protocol::{ToolCall, UserForm};

use super::nlu::{Analysis, Slot};
use super::spoken_names::SpokenNames;
use super::tools::{chip_call, PlaceResult, GET_PLACE_FACTS};
use crate::catalog::Catalog;
use crate::text::lexfile;
use crate::text::templates::Templates;

const LEXICON: &str = include_str!("../../lexicons/places.txt");

/// The school and major a place answer offered to search, kept for one turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceOffer {
    #[serde(default)]
    pub school: Option<String>,
    #[serde(default)]
    pub major: Option<String>,
}

/// The words of `places.txt`.
#[derive(Debug)]
pub struct PlaceWords {
    /// A question about jobs and prospects ("好就业吗"): answered with the
    /// 学生前途 average.
    prospects: Vec<String>,
    /// The chips under the offer: accept, decline.
    offer_options: Vec<String>,
    offer_question: String,
}

impl PlaceWords {
    pub fn load() -> PlaceWords {
        let entries = lexfile::parse("places.txt", LEXICON);
        let terms = |key: &str| -> Vec<String> {
            entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| e.terms.clone())
                .unwrap_or_else(|| panic!("places.txt: no {key}"))
        };
        PlaceWords {
            prospects: terms("prospects")
                .iter()
                .map(|t| crate::catalog::normalize(t))
                .collect(),
            offer_options: terms("offer.options"),
            offer_question: terms("offer.question").remove(0),
        }
    }

    /// The chip a yes to the offer is sent as.
    pub fn accept_option(&self) -> &str {
        &self.offer_options[0]
    }

    fn is_offer(&self, call: &ToolCall) -> bool {
        call.params.get("question").and_then(Value::as_str) == Some(self.offer_question.as_str())
    }
}

fn one(slot: &Option<Slot>) -> Option<String> {
    match slot {
        Some(Slot::One(v)) => Some(v.clone()),
        _ => None,
    }
}

/// The calls that answer the place question of `a`: `get_place_facts`, and
/// the offer's chips unless the form already holds that place; with the
/// offer to remember.
pub fn plan(
    words: &PlaceWords,
    a: &Analysis,
    form: &UserForm,
) -> (Vec<ToolCall>, Option<PlaceOffer>) {
    let offer = PlaceOffer {
        school: one(&a.school),
        major: one(&a.major),
    };
    let topic = if words
        .prospects
        .iter()
        .any(|w| a.normalized.contains(w.as_str()))
    {
        "jobs"
    } else {
        "general"
    };
    let mut calls = vec![ToolCall {
        tool: GET_PLACE_FACTS.into(),
        params: json!({"school": offer.school, "major": offer.major, "topic": topic}),
        result: None,
    }];
    let held = offer
        .school
        .as_ref()
        .is_none_or(|s| form.school.as_ref() == Some(s))
        && offer
            .major
            .as_ref()
            .is_none_or(|m| form.major.as_ref() == Some(m));
    if held {
        return (calls, None);
    }
    calls.push(chip_call(
        &words.offer_question,
        words.offer_options.clone(),
        "general",
    ));
    (calls, Some(offer))
}

/// The spoken answer for `result`, with the offer's question when its
/// chips are among `calls` and it fits the spoken limit.
pub fn speak(
    result: &PlaceResult,
    calls: &[ToolCall],
    words: &PlaceWords,
    names: &SpokenNames,
    catalog: &Catalog,
    templates: &Templates,
    turn: u32,
) -> String {
    let said = |key: &str, vars: &[(&str, &str)]| templates.render(key, turn, vars);
    let f = &result.facts;
    let fig = |v: Option<f64>| v.map(|x| format!("{x:.1}")).unwrap_or_default();
    let best = |with_school: bool| -> String {
        f.best
            .iter()
            .map(|b| {
                if with_school {
                    format!("{}的{}", names.school_short(catalog, &b.school), b.name)
                } else {
                    b.name.clone()
                }
            })
            .collect::<Vec<_>>()
            .join("和")
    };
    let advisors = f.advisors.to_string();
    let reviews = f.reviews.to_string();
    let jobs = result.topic == "jobs";
    let voice = match (&result.school, &result.major) {
        (Some(school), None) => {
            let place = said(
                "place_school",
                &[
                    ("school", school),
                    ("city", result.city.as_deref().unwrap_or_default()),
                    ("tier", result.tier.as_deref().unwrap_or_default()),
                ],
            );
            let figures = if f.reviews == 0 {
                said("place_school_none", &[("advisors", &advisors)])
            } else if jobs {
                said(
                    "place_prospects",
                    &[("reviews", &reviews), ("prospects", &fig(f.prospects))],
                )
            } else {
                said(
                    "place_school_figures",
                    &[
                        ("advisors", &advisors),
                        ("reviews", &reviews),
                        ("average", &fig(f.average)),
                    ],
                )
            };
            format!("{place}{figures}")
        }
        (school, Some(major)) => {
            let place = match school {
                Some(s) => format!("{}{}", names.school_short(catalog, s), names.major(major)),
                None => names.major(major),
            };
            if f.reviews == 0 {
                said("place_none", &[("place", &place)])
            } else if jobs {
                said(
                    "place_major_prospects",
                    &[
                        ("major", &place),
                        ("reviews", &reviews),
                        ("prospects", &fig(f.prospects)),
                    ],
                )
            } else if school.is_some() {
                let key = if f.best.is_empty() {
                    "place_pair_plain"
                } else {
                    "place_pair"
                };
                said(
                    key,
                    &[
                        ("place", &place),
                        ("advisors", &advisors),
                        ("reviews", &reviews),
                        ("best", &best(false)),
                    ],
                )
            } else {
                let key = if f.best.is_empty() {
                    "place_major_plain"
                } else {
                    "place_major"
                };
                said(
                    key,
                    &[
                        ("major", &place),
                        ("schools", &f.schools.to_string()),
                        ("advisors", &advisors),
                        ("best", &best(true)),
                    ],
                )
            }
        }
        (None, None) => String::new(),
    };
    if !calls.iter().any(|c| words.is_offer(c)) {
        return crate::voice::fit(&voice);
    }
    let with_offer = format!("{voice}{}", said("place_offer", &[]));
    if crate::voice::len(&with_offer) <= crate::voice::MAX_CHARS {
        with_offer
    } else {
        crate::voice::fit(&voice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offer_chips_fit_the_chip_schema() {
        let w = PlaceWords::load();
        let q = w.offer_question.chars().count();
        assert!((5..=10).contains(&q), "question of {q} characters");
        assert!((2..=4).contains(&w.offer_options.len()));
        assert!(!w.prospects.is_empty());
    }

    #[test]
    fn the_form_is_never_among_the_calls_and_a_held_place_is_not_offered() {
        let w = PlaceWords::load();
        let a = Analysis {
            school: Some(Slot::One("中山大学".into())),
            normalized: "中山大学好就业吗".into(),
            ..Analysis::default()
        };
        let (calls, offer) = plan(&w, &a, &UserForm::default());
        assert_eq!(calls[0].tool, GET_PLACE_FACTS);
        assert_eq!(calls[0].params["topic"], "jobs");
        assert!(calls
            .iter()
            .all(|c| c.tool != super::super::tools::UPDATE_FORM));
        assert!(w.is_offer(&calls[1]));
        assert_eq!(offer.unwrap().school.as_deref(), Some("中山大学"));
        let form = UserForm {
            school: Some("中山大学".into()),
            ..UserForm::default()
        };
        let (calls, offer) = plan(&w, &a, &form);
        assert_eq!(calls.len(), 1);
        assert!(offer.is_none());
    }
}
