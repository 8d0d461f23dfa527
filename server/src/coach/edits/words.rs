//! The words of coach.txt a score edit is read by, and what they find
//! after a dimension's name: the same as another's ("跟人那块一样"), the
//! same move again ("钱也是"), a score that stays ("前途不变").

use super::said::AFTER_BARE;
use super::Dimension;
use crate::text::utterance::WordList;

/// The words of coach.txt the edits are read by.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// A clause that says the one before was not meant (`retract`).
    pub retract: Vec<String>,
    /// What makes an edit every score's (`edit.all`: 都, 全给).
    pub all: Vec<String>,
    /// What a score alone in its clause may follow (`edit.settle`: 还是).
    pub(super) settle: WordList,
    /// The advisor as a whole (`edit.whole`: 总体, 总评): a number after
    /// it is the overall, for no dimension named before.
    pub(super) whole: WordList,
    /// A score said to be too high (`edit.too_high`: 不用那么高, 给高了):
    /// one point down; too low (`edit.too_low`), one up.
    pub(super) too_high: WordList,
    pub(super) too_low: WordList,
    /// Between a score and its judging words (`edit.before_overshoot`).
    pub(super) before_overshoot: WordList,
    /// Before a score in a question, asking back at it (`edit.rhetorical`:
    /// 还给, 凭什么给): no edit.
    pub(super) rhetorical: WordList,
    /// After a name: the same as another's (`edit.like`), the same move as
    /// before (`edit.too`), the score stays (`edit.keep`), and what is read
    /// past between the name and them (`edit.filler`).
    pub(super) like: WordList,
    pub(super) too: WordList,
    pub(super) keep: WordList,
    pub(super) back: WordList,
    pub(super) filler: WordList,
    /// The scores not named yet (`edit.rest`: 其他, 剩下的): before 都,
    /// every dimension the message has not named ("学术别动 其他都给四").
    pub(super) rest: WordList,
    /// A clause that ends calling its move a mistake (`edit.mistake`: 改错
    /// 了): that move is the one taken back, not made again.
    pub(super) mistake: Vec<String>,
    /// After a score, that it is wrong, no way said (`edit.rejected`:
    /// "这都给2分说不过去"): that score is not set.
    pub(super) rejected: WordList,
    /// Before the names of a clause's edits, that only they change
    /// (`edit.only`: 只改): the others stay.
    pub(super) only: WordList,
    /// A dimension's short name, only before a bare score (`label.*`: 钱 in
    /// "学术4 钱3"; "腾讯2人" counts people).
    pub(super) labels: WordList,
}

impl Words {
    pub fn new(lex: &crate::coach::lexicon::CoachLexicon) -> Words {
        Words {
            retract: lex.retract.clone(),
            all: lex.edit_all.clone(),
            settle: WordList::from_terms(&lex.edit_settle),
            whole: WordList::from_terms(&lex.edit_whole),
            too_high: WordList::from_terms(&lex.edit_too_high),
            too_low: WordList::from_terms(&lex.edit_too_low),
            before_overshoot: WordList::from_terms(&lex.edit_before_overshoot),
            rhetorical: WordList::from_terms(&lex.edit_rhetorical),
            like: WordList::from_terms(&lex.edit_like),
            too: WordList::from_terms(&lex.edit_too),
            keep: WordList::from_terms(&[lex.edit_keep.as_slice(), &lex.edit_back].concat()),
            back: WordList::from_terms(&lex.edit_back),
            filler: WordList::from_terms(&lex.edit_filler),
            rest: WordList::from_terms(&lex.edit_rest),
            mistake: lex.edit_mistake.clone(),
            rejected: WordList::from_terms(&lex.edit_rejected),
            only: WordList::from_terms(&lex.edit_only),
            labels: WordList::from_terms(
                &lex.labels
                    .iter()
                    .flat_map(|(_, t)| t.clone())
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Where what is said of the name ending at `end` begins: past the
    /// fillers ("钱那块").
    pub(super) fn after_name(&self, chars: &[char], end: usize) -> usize {
        self.filler.skip_run(chars, end)
    }

    /// "学术改成跟人那块一样", "跟学术一样吧": (the dimension set, the one
    /// whose score it takes) — the one named before 跟, else `carry`.
    pub(super) fn alike(
        &self,
        chars: &[char],
        spans: &[(usize, usize, Dimension)],
        carry: Option<Dimension>,
    ) -> Option<(Dimension, Dimension)> {
        spans.iter().find_map(|&(start, end, from)| {
            let lead = start.checked_sub(1)?;
            let linked = matches!(chars[lead], '跟' | '和' | '同' | '与' | '照');
            let same = self
                .like
                .prefix_at(chars, self.after_name(chars, end))
                .is_some();
            let to = spans
                .iter()
                .rev()
                .find(|(s, _, _)| *s < lead)
                .map(|(_, _, d)| *d)
                .or(carry)?;
            (linked && same && to != from).then_some((to, from))
        })
    }

    /// A clause that only says the score goes back, naming none
    /// ("还是原来的吧").
    pub(super) fn keep_alone(&self, chars: &[char], spans: &[(usize, usize, Dimension)]) -> bool {
        let at = self.settle.skip_run(chars, 0);
        spans.is_empty()
            && self
                .back
                .prefix_at(chars, at)
                .is_some_and(|len| chars[at + len..].iter().all(|c| AFTER_BARE.contains(*c)))
    }

    /// The dimensions a clause of names and a word after them names
    /// ("钱也是", "前途不变"): (those names, where the word ends), when
    /// nothing but particles follows.
    pub(super) fn names_then(
        &self,
        words: &WordList,
        chars: &[char],
        spans: &[(usize, usize, Dimension)],
    ) -> Option<Vec<Dimension>> {
        let (_, end, _) = spans.last()?;
        let at = self.after_name(chars, *end);
        let len = words.prefix_at(chars, at)?;
        let rest = &chars[at + len..];
        rest.iter()
            .all(|c| AFTER_BARE.contains(*c))
            .then(|| spans.iter().map(|(_, _, d)| *d).collect())
    }

    /// "其他方面我打四分", "剩下的3分": whether the rest named at `p`
    /// (past fillers and 我) is followed by a score or a word of setting,
    /// not by someone else ("其他老师").
    pub(super) fn rest_before_score(&self, chars: &[char], p: usize) -> bool {
        let Some(len) = self.rest.prefix_at(chars, p) else {
            return false;
        };
        let mut at = self.after_name(chars, p + len);
        if chars.get(at) == Some(&'我') {
            at += 1;
        }
        self.settle.prefix_at(chars, at).is_some()
            || crate::text::numbers::parse_number(chars, at)
                .is_some_and(|(n, _)| (1..=5).contains(&n))
    }

    /// "…其他不动": the rest named, then that they stay, at the clause's end.
    pub(super) fn rest_stays(&self, chars: &[char]) -> bool {
        (0..chars.len()).any(|p| {
            let Some(len) = self.rest.prefix_at(chars, p) else {
                return false;
            };
            let mut at = self.after_name(chars, p + len);
            if chars.get(at) == Some(&'都') {
                at += 1;
            }
            self.keep
                .prefix_at(chars, at)
                .is_some_and(|l| chars[at + l..].iter().all(|c| AFTER_BARE.contains(*c)))
        })
    }

    /// "四分太委屈他了": whether only the words that may stand between a
    /// score and its judging words lie from `from` to `to`.
    pub(super) fn only_before_overshoot(&self, chars: &[char], from: usize, to: usize) -> bool {
        to >= from && to - from <= 3 && self.before_overshoot.skip_run(&chars[..to], from) == to
    }

    /// "前途不用那么高", "关系给低了": a score said to overshoot, as a
    /// one-point move back → (points, length).
    pub(super) fn overshoot(&self, chars: &[char], i: usize) -> Option<(i8, usize)> {
        self.too_high
            .prefix_at(chars, i)
            .map(|l| (-1, l))
            .or_else(|| self.too_low.prefix_at(chars, i).map(|l| (1, l)))
    }
}
