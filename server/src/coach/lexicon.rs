//! The coach's words (`server/lexicons/coach.txt`), parsed once.

use std::collections::HashMap;

use super::dimension::Dimension;
use crate::text::fold::fold;
use crate::text::lexfile;

const LEXICON: &str = include_str!("../../lexicons/coach.txt");

#[derive(Debug, Default)]
pub struct CoachLexicon {
    pub start: Vec<String>,
    pub done: Vec<String>,
    /// Back to the draft after something else ("继续写").
    pub resume: Vec<String>,
    /// Words of the review itself, for a question about it ("评价", "草稿").
    pub topic_review: Vec<String>,
    pub question: Vec<String>,
    pub vague: Vec<String>,
    pub concrete: Vec<String>,
    pub positive: Vec<String>,
    pub negative: Vec<String>,
    pub strong: Vec<String>,
    /// What a question about publishing asks: editing afterwards, who sees it.
    pub topic_edit: Vec<String>,
    pub topic_visible: Vec<String>,
    pub relations: Vec<(String, Vec<String>)>,
    /// 是否推荐报考: words of no, words of yes.
    pub recommend_no: Vec<String>,
    pub recommend_yes: Vec<String>,
    /// Actions a model's line must not claim (only code performs them).
    pub claims: Vec<String>,
    /// Costly cities ("在上海"): a monthly sum in the hundreds set beside
    /// one reads as little.
    pub costly: Vec<String>,
    /// What says the clause before was not meant ("开玩笑的"): its score
    /// edits are taken back.
    pub retract: Vec<String>,
    /// What makes an edit every score's ("都", "全给").
    pub edit_all: Vec<String>,
    /// What a score alone in its clause may follow ("还是2吧").
    pub edit_settle: Vec<String>,
    /// The advisor as a whole in a line of scores (`edit.whole`: 总评):
    /// a number after it is for no dimension.
    pub edit_whole: Vec<String>,
    /// A score said to be too high or too low (`edit.too_high`,
    /// `edit.too_low`): one point back.
    pub edit_too_high: Vec<String>,
    pub edit_too_low: Vec<String>,
    /// What may stand between a score and the words that judge it too low
    /// or too high (`edit.before_overshoot`: 太, 有点, 真的).
    pub edit_before_overshoot: Vec<String>,
    /// Before a score in a question that asks back at it (`edit.rhetorical`).
    pub edit_rhetorical: Vec<String>,
    /// After a dimension's name, a score the same as another's (`edit.like`:
    /// 一样) or the same move as the clause before (`edit.too`: 也是), and
    /// the words read past between the name and them (`edit.filler`: 那块).
    pub edit_like: Vec<String>,
    pub edit_too: Vec<String>,
    pub edit_filler: Vec<String>,
    pub edit_rest: Vec<String>,
    pub edit_mistake: Vec<String>,
    /// Words after a score that call it wrong without saying which way
    /// (`edit.rejected`: 说不过去): the score is not set.
    pub edit_rejected: Vec<String>,
    /// Before the names a clause edits, that only they change (`edit.only`).
    pub edit_only: Vec<String>,
    /// After a dimension's name, that its score stays (`edit.keep`: 不变),
    /// or goes back to the draft's, said alone too (`edit.back`: 原来的).
    pub edit_keep: Vec<String>,
    pub edit_back: Vec<String>,
    pub dimensions: Vec<(Dimension, Vec<String>)>,
    /// Words that name a dimension only when a judgement binds to them.
    pub weak: Vec<(Dimension, Vec<String>)>,
    /// A dimension's short name only before a bare score (`label.<key>`:
    /// 钱 in "学术4 钱3"), where it names nothing else.
    pub labels: Vec<(Dimension, Vec<String>)>,
    /// A dimension's names as a whole (`whole.<key>`: 学术, 经费), beside
    /// the words naming one part of it (论文, 补助).
    pub wholes: Vec<(Dimension, Vec<String>)>,
    /// Facts that name a dimension and judge it: (kind, dimension, words),
    /// kind one of `positive`, `bad`, `activity`, `bottom` (`good.*` is
    /// `positive`; `bottom.*` a fact that is strong criticism by itself);
    /// no dimension (`good.overall`): the advisor as a whole ("好导师").
    pub judging: Vec<(String, Option<Dimension>, Vec<String>)>,
    /// Words of a judgement of the advisor as a whole.
    pub overall: Vec<String>,
    /// Those of them that sum up the topic just named instead, when a
    /// clause starts with one after it ("就业的话，整体还不错").
    pub overall_of_topic: Vec<String>,
    pub tags: Vec<(String, Vec<String>)>,
}

impl CoachLexicon {
    pub fn load() -> CoachLexicon {
        let mut lex = CoachLexicon::default();
        let mut tags: HashMap<String, Vec<String>> = HashMap::new();
        let mut tag_order = Vec::new();
        for e in lexfile::parse("coach.txt", LEXICON) {
            let terms: Vec<String> = e.terms.iter().map(|t| fold(t)).collect();
            match e.key.as_str() {
                "start" => lex.start = terms,
                "done" => lex.done = terms,
                "resume" => lex.resume = terms,
                "topic.review" => lex.topic_review = terms,
                "question" => lex.question = terms,
                "vague" => lex.vague = terms,
                "concrete" => lex.concrete = terms,
                "positive" => lex.positive = terms,
                "negative" => lex.negative = terms,
                "strong" => lex.strong = terms,
                "topic.edit" => lex.topic_edit = terms,
                "topic.visible" => lex.topic_visible = terms,
                "recommend.no" => lex.recommend_no = terms,
                "recommend.yes" => lex.recommend_yes = terms,
                "claims" => lex.claims = terms,
                "costly" => lex.costly = terms,
                "retract" => lex.retract = terms,
                "edit.all" => lex.edit_all = terms,
                "edit.settle" => lex.edit_settle = terms,
                "edit.whole" => lex.edit_whole = terms,
                "edit.too_high" => lex.edit_too_high = terms,
                "edit.too_low" => lex.edit_too_low = terms,
                "edit.before_overshoot" => lex.edit_before_overshoot = terms,
                "edit.rhetorical" => lex.edit_rhetorical = terms,
                "edit.like" => lex.edit_like = terms,
                "edit.too" => lex.edit_too = terms,
                "edit.filler" => lex.edit_filler = terms,
                "edit.rest" => lex.edit_rest = terms,
                "edit.mistake" => lex.edit_mistake = terms,
                "edit.rejected" => lex.edit_rejected = terms,
                "edit.only" => lex.edit_only = terms,
                "edit.keep" => lex.edit_keep = terms,
                "edit.back" => lex.edit_back = terms,
                "overall" => lex.overall = terms,
                "overall.of_topic" => lex.overall_of_topic = terms,
                k => {
                    let dim = |d: &str| {
                        Dimension::from_key(d)
                            .unwrap_or_else(|| panic!("coach.txt: unknown dimension {d}"))
                    };
                    if let Some(d) = k.strip_prefix("weak.") {
                        lex.weak.push((dim(d), terms));
                        continue;
                    }
                    if let Some(d) = k.strip_prefix("label.") {
                        lex.labels.push((dim(d), terms));
                        continue;
                    }
                    if let Some(d) = k.strip_prefix("whole.") {
                        lex.wholes.push((dim(d), terms));
                        continue;
                    }
                    let judging = [
                        ("good.", "positive"),
                        ("bad.", "bad"),
                        ("activity.", "activity"),
                        ("bottom.", "bottom"),
                    ];
                    if let Some((d, kind)) = judging
                        .iter()
                        .find_map(|(p, kind)| k.strip_prefix(p).map(|d| (d, *kind)))
                    {
                        let d = (d != "overall").then(|| dim(d));
                        lex.judging.push((kind.to_string(), d, terms));
                        continue;
                    }
                    if let Some(r) = k.strip_prefix("relation.") {
                        lex.relations.push((r.to_string(), terms));
                    } else if let Some(d) = k.strip_prefix("dim.") {
                        let d = Dimension::from_key(d)
                            .unwrap_or_else(|| panic!("coach.txt: unknown dimension {d}"));
                        lex.dimensions.push((d, terms));
                    } else if let Some(t) = k.strip_prefix("tag.") {
                        tag_order.push(t.to_string());
                        tags.insert(t.to_string(), terms);
                    } else {
                        panic!("coach.txt: unknown key {k}");
                    }
                }
            }
        }
        lex.tags = tag_order
            .into_iter()
            .map(|t| {
                let terms = tags.remove(&t).unwrap_or_default();
                (t, terms)
            })
            .collect();
        lex
    }

    /// Whether any term of `list` occurs in `text` (folded).
    pub fn any(list: &[String], text: &str) -> bool {
        list.iter()
            .any(|t| !t.is_empty() && text.contains(t.as_str()))
    }

    /// The first term of `list` found in `text` (folded).
    pub fn first<'a>(list: &'a [String], text: &str) -> Option<&'a str> {
        list.iter()
            .find(|t| !t.is_empty() && text.contains(t.as_str()))
            .map(String::as_str)
    }
}
