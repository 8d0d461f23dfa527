//! The coach's topic sets, built once from coach.txt: the words that name
//! each dimension (and the advisor as a whole), the facts that judge one,
//! the words that name one only when a judgement binds to them, and what
//! a heading or a bare number may name. The reader (`reader.rs`) reads
//! with them; they are apart because what names a dimension is the
//! lexicon's business, and how a message is read the reader's.

use super::dimension::{Aspect, Dimension};
use super::lexicon::CoachLexicon;
use crate::text::opinion::Topics;
use crate::text::utterance::WordList;

/// What names and judges each dimension.
pub(super) struct TopicSets {
    pub topics: Topics<Aspect>,
    pub dims: Topics<Dimension>,
    /// What a score edit is for: `dims` and the words that name a
    /// dimension with a judgement, since a move or a number is one ("钱给个
    /// 二", "人那块再高点").
    pub edited: Topics<Dimension>,
    /// The dimensions' own names ("学术", "经费"), without the facts that
    /// name one too ("延毕", "早八晚十"): what a bare number follows.
    pub names: Topics<Dimension>,
    /// What a heading may name: the dimensions' names and the words that
    /// name one only with a judgement ("人：老好了", "钱：巨多").
    pub heads: Topics<Dimension>,
    pub costly: Vec<String>,
    /// `overall.of_topic` (`layout::whole_of_topic`).
    pub of_topic: WordList,
    /// Each dimension's names as a whole (`whole.*`: 学术, 经费), folded.
    wholes: Vec<(Dimension, Vec<String>)>,
}

impl TopicSets {
    pub fn new(lex: &CoachLexicon) -> TopicSets {
        let mut topics = Topics::new();
        let mut dims = Topics::new();
        let mut names = Topics::new();
        let mut heads = Topics::new();
        let mut edited = Topics::new();
        for (d, words) in &lex.dimensions {
            for w in words {
                topics.add(w, Aspect::Dim(*d), None);
                dims.add(w, *d, None);
                edited.add(w, *d, None);
                names.add(w, *d, None);
                heads.add(w, *d, None);
            }
        }
        for (d, words) in &lex.weak {
            for w in words {
                topics.add_weak(w, Aspect::Dim(*d));
                heads.add(w, *d, None);
                edited.add(w, *d, None);
            }
        }
        for (kind, d, words) in &lex.judging {
            let aspect = d.map_or(Aspect::Overall, Aspect::Dim);
            for w in words {
                topics
                    .add_judging(w, aspect, kind)
                    .unwrap_or_else(|| panic!("coach.txt: unknown kind {kind}"));
                if let Some(d) = d {
                    dims.add(w, *d, None);
                    edited.add(w, *d, None);
                }
            }
        }
        for w in &lex.overall {
            topics.add(w, Aspect::Overall, None);
        }
        topics.set_general(Aspect::Overall);
        // Demands on the research are rigor ("对论文要求很高": academic
        // praise); excessive demands are how students are treated.
        topics.set_demands(
            vec![Aspect::Dim(Dimension::Academic)],
            Aspect::Dim(Dimension::Relationship),
        );
        TopicSets {
            topics,
            dims,
            edited,
            names,
            heads,
            costly: lex
                .costly
                .iter()
                .map(|w| crate::text::fold::fold(w))
                .collect(),
            of_topic: WordList::from_terms(&lex.overall_of_topic),
            wholes: lex
                .wholes
                .iter()
                .map(|(d, words)| {
                    (
                        *d,
                        words.iter().map(|w| crate::text::fold::fold(w)).collect(),
                    )
                })
                .collect(),
        }
    }

    /// Whether not knowing `topic`, named here by `here`, is about one part
    /// of it that the student's judgements (each topic with the words it
    /// was named by, `judged_by`) did not cover: "按时毕业应该没问题，去向的
    /// 话不清楚" (毕业 judged, 去向 not known). Named as a whole ("学术这块我
    /// 不好评价"), it is all of it.
    pub fn unknown_is_a_part(
        &self,
        topic: Aspect,
        here: &[String],
        judged_by: &[(Aspect, String)],
    ) -> bool {
        let Aspect::Dim(d) = topic else {
            return false;
        };
        let judged: Vec<&String> = judged_by
            .iter()
            .filter(|(a, _)| *a == topic)
            .map(|(_, w)| w)
            .collect();
        let whole = |w: &String| {
            self.wholes
                .iter()
                .any(|(x, words)| *x == d && words.contains(w))
        };
        !here.is_empty()
            && !judged.is_empty()
            && here.iter().all(|w| !judged.contains(&w) && !whole(w))
    }
}

#[cfg(test)]
mod tests {
    use super::super::reader::Reader;
    use super::Dimension;

    fn score(r: &Reader, text: &str, d: Dimension) -> Option<u8> {
        r.read(text).get(d).map(|s| s.value)
    }

    #[test]
    fn not_knowing_a_part_keeps_the_part_judged() {
        let r = Reader::load();
        // 毕业 judged, 去向 not known: the judgement stands.
        assert_eq!(
            score(
                &r,
                "按时毕业应该没问题，去向的话不清楚",
                Dimension::Prospects
            ),
            Some(4)
        );
        // Named whole, not knowing it takes back what was said of it.
        assert_eq!(
            score(
                &r,
                "导师是业内挺有名的设计师。学术这块我不好评价",
                Dimension::Academic
            ),
            None
        );
        // The student's own exam is not the group's prospects.
        assert_eq!(
            score(
                &r,
                "二战终于上岸了，写点东西给后来的人",
                Dimension::Prospects
            ),
            None
        );
    }
}
