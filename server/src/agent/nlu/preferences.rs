//! What the student wants from an advisor: personality, research style and
//! funding.
//!
//! - A preference word sets its value; a negated one ("不要太严格") is
//!   reported as rejected and, where opposites.txt has a rule, sets the
//!   opposite (严格 → 温和, 放养 → 负责, 紧张 → 充足, 充足 → 一般).
//! - Funding also comes from a money word plus a level word in the same
//!   clause ("经费多一点" → 充足, "钱无所谓" → 一般, "经费不要太少" → 充足);
//!   a 一般-level word wins ("多少都行").
//! - A value said directly beats one derived from a negation; among values
//!   of the same standing the first one said wins, or the last one when the
//!   sentence is a correction ("温和一点，算了还是严格的吧").
//! - Preference words in a clause that asks about a referenced advisor
//!   ("他脾气好吗", "第一个严格吗") describe that advisor, not the student's
//!   wish, and are ignored.

use super::lexicon::{Lexicons, PrefSlot, Tag};
use super::negation;
use super::tokens::Text;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Prefs {
    pub personality: Option<String>,
    pub research_style: Option<String>,
    pub funding: Option<String>,
    /// (position, canonical value)
    pub rejected: Vec<(usize, String)>,
    /// A preference was rejected with 不是 ("不是温和，是负责").
    pub replaced: bool,
}

/// The funding value that means "no particular wish"; its level words win.
const FUNDING_ANY: &str = "一般";

/// (value index, said directly) in order of mention.
type Found = Vec<(usize, bool)>;

/// Funding read from money + level words in each clause that names money
/// but no funding preference word.
fn funding_levels(text: &Text, lex: &Lexicons, ignored: &[bool], found: &mut Found) {
    let mut done_clauses: Vec<usize> = Vec::new();
    for t in &text.tokens {
        if !t.tags.contains(&Tag::FundingTopic) {
            continue;
        }
        let clause = text.clause_index(t.start);
        if done_clauses.contains(&clause) || ignored.get(clause).copied().unwrap_or(false) {
            continue;
        }
        done_clauses.push(clause);
        let (cs, ce) = text.clause(t.start);
        let has_word = text.clause_tokens(t.start).any(|i| {
            text.tokens[i]
                .pref()
                .is_some_and(|p| lex.pref(p).0 == PrefSlot::Funding)
        });
        if has_word {
            continue;
        }
        let mut levels: Vec<(usize, bool)> = Vec::new();
        let mut p = cs;
        while p < ce {
            if text.in_strong(p) {
                p += 1;
                continue;
            }
            let hit = lex.funding_levels.iter().find(|(w, _)| {
                text.chars[p..ce].starts_with(w) && (p..p + w.len()).all(|q| !text.in_strong(q))
            });
            match hit {
                Some((w, idx)) => {
                    levels.push((*idx, negation::negator_before(text, lex, p).is_some()));
                    p += w.len();
                }
                None => p += 1,
            }
        }
        let any = levels
            .iter()
            .find(|(idx, negated)| !negated && lex.pref(*idx).1 == FUNDING_ANY);
        let chosen = match any {
            Some(&(idx, _)) => Some(idx),
            None => levels.iter().rev().find_map(|&(idx, negated)| {
                if negated {
                    lex.opposites.get(&idx).copied()
                } else {
                    Some(idx)
                }
            }),
        };
        if let Some(idx) = chosen {
            found.push((idx, true));
        }
    }
}

/// Reads the preferences. `ignored[c]` marks clauses that ask about a
/// referenced advisor.
pub(crate) fn extract(
    text: &Text,
    lex: &Lexicons,
    neg: &[bool],
    ignored: &[bool],
    dismissed: &[(usize, usize, super::correction::Named)],
    prefer_last: bool,
) -> Prefs {
    let mut out = Prefs::default();
    let mut found: Found = Vec::new();
    for (i, t) in text.tokens.iter().enumerate() {
        let Some(idx) = t.pref() else { continue };
        if dismissed.iter().any(|&(s, e, _)| t.start < e && s < t.end) {
            // "北航太卷，不如去北邮": the reason an option was turned
            // down, not a wish about the advisor.
            continue;
        }
        if ignored
            .get(text.clause_index(t.start))
            .copied()
            .unwrap_or(false)
        {
            continue;
        }
        if neg[i] {
            out.rejected.push((t.start, lex.pref(idx).1.to_string()));
            out.replaced |= negation::replaced(text, lex, i);
            if let Some(&opp) = lex.opposites.get(&idx) {
                found.push((opp, false));
            }
        } else {
            found.push((idx, true));
        }
    }
    funding_levels(text, lex, ignored, &mut found);
    for slot in [
        PrefSlot::Personality,
        PrefSlot::ResearchStyle,
        PrefSlot::Funding,
    ] {
        let of_slot = || found.iter().filter(|(idx, _)| lex.pref(*idx).0 == slot);
        let pick = |direct_only: bool| {
            let mut it = of_slot().filter(|(_, direct)| *direct || !direct_only);
            if prefer_last {
                it.next_back()
            } else {
                it.next()
            }
        };
        let value = pick(true)
            .or_else(|| pick(false))
            .map(|(idx, _)| lex.pref(*idx).1.to_string());
        match slot {
            PrefSlot::Personality => out.personality = value,
            PrefSlot::ResearchStyle => out.research_style = value,
            PrefSlot::Funding => out.funding = value,
        }
    }
    out
}
