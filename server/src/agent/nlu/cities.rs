//! The city a student puts beside a school's short name ("上海的交大",
//! "合肥那个科大", "交大，西安那个", "浙大，在西安的那个"). A short name is
//! two characters a recognizer easily mishears (交大 written 浙大), while the
//! city beside it is said on purpose: so the city picks among the schools an
//! alias names, and a school that is not in the city named beside it is not
//! filled silently — the student is asked between it and the schools of
//! that city whose short names sound alike (the same length, the same last
//! character: 浙大 beside 上海 → 浙江大学 or 上海交通大学).
//!
//! Only a city attached to the name counts: right before it (across 的 or
//! a filler the normalizer dropped), or as the whole next clause ("，西安
//! 那个"). A city said as background ("我本科在上海，想考浙大") qualifies
//! nothing. The cities are the catalog's (`Lexicons::with_cities`).

use super::lexicon::Lexicons;
use super::tokens::Text;
use super::types::Slot;
use crate::text::utterance::{chars, WordList, DE};

/// The city of the catalog said attached to the school name at
/// `start..end` of `text`, if any.
fn attached(text: &Text, lex: &Lexicons, start: usize, end: usize) -> Option<String> {
    let cities = &lex.city_words;
    // Before: "上海的交大", "合肥科大" (那个 already dropped).
    let before = if start > 0 && text.chars[start - 1] == DE {
        start - 1
    } else {
        start
    };
    let (cs, ce) = text.clause(start);
    if let Some(len) = cities.suffix_at(&text.chars, before, cs) {
        return Some(text.string(before - len, before));
    }
    // After, as the whole next clause: "交大，西安那个", "浙大，在西安的那个".
    if ce != end || ce >= text.chars.len() {
        return None;
    }
    let (ns, ne) = text.clause(ce + 1);
    let next = &text.chars[ns..ne];
    let from = lex.lists.city_lead.skip_run(next, 0);
    let mut to = next.len();
    while let Some(n) = lex.lists.city_follow.suffix_at(next, to, from) {
        to -= n;
    }
    let said = next.get(from..to)?;
    cities.has(said).then(|| said.iter().collect())
}

/// `slot`, the school named at `start..end`, read with the city attached
/// to it (see the module doc).
pub(super) fn qualify(text: &Text, lex: &Lexicons, start: usize, end: usize, slot: Slot) -> Slot {
    let Some(city) = attached(text, lex, start, end) else {
        return slot;
    };
    let in_city = |name: &str| lex.city_of(name) == Some(city.as_str());
    match slot {
        Slot::Ambiguous { said, candidates } => {
            let here: Vec<String> = candidates.iter().filter(|c| in_city(c)).cloned().collect();
            match here.as_slice() {
                [one] => Slot::One(one.clone()),
                _ => Slot::Ambiguous { said, candidates },
            }
        }
        // Heard near several: the city said on purpose picks among them.
        Slot::Heard { said, candidates } => {
            let here: Vec<String> = candidates.iter().filter(|c| in_city(c)).cloned().collect();
            match here.as_slice() {
                [one] => Slot::One(one.clone()),
                _ => Slot::Heard { said, candidates },
            }
        }
        Slot::One(name) if !in_city(&name) && lex.city_of(&name).is_some() => {
            let said = text.string(start, end);
            let alike = lex.schools_sounding_alike(&said, &city);
            if alike.is_empty() {
                return Slot::One(name);
            }
            Slot::Heard {
                said,
                candidates: std::iter::once(name).chain(alike).collect(),
            }
        }
        other => other,
    }
}

impl Lexicons {
    /// With the city of each school (in the order of the schools it was
    /// built with; `cities`).
    pub fn with_cities(mut self, cities: Vec<String>) -> Lexicons {
        self.city_words = WordList::from_terms(&cities);
        self.school_cities = cities;
        self.school_cities.resize(self.schools.len(), String::new());
        self
    }

    /// The city of the school named `school` (canonical), when known.
    pub(crate) fn city_of(&self, school: &str) -> Option<&str> {
        let i = self.schools.iter().position(|s| s == school)?;
        Some(self.school_cities[i].as_str()).filter(|c| !c.is_empty())
    }

    /// The schools of `city` with a name as long as `said` and ending in
    /// the same character (浙大 → 交大 in 上海): what a short name misheard
    /// may have been, in catalog order.
    pub(crate) fn schools_sounding_alike(&self, said: &str, city: &str) -> Vec<String> {
        let said = chars(said);
        let mut out: Vec<String> = Vec::new();
        for (name, i) in &self.school_names {
            let alike = name.len() == said.len() && name.last() == said.last() && *name != said;
            if alike && self.school_cities[*i] == city && !out.contains(&self.schools[*i]) {
                out.push(self.schools[*i].clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fixture;
    use super::super::{analyze, Slot};

    fn school(text: &str) -> Option<Slot> {
        analyze(text, fixture::lexicons(), &[]).school
    }

    fn one(name: &str) -> Option<Slot> {
        Some(Slot::One(name.to_string()))
    }

    #[test]
    fn a_city_beside_a_short_name_picks_the_school() {
        assert_eq!(school("上海的交大，材料"), one("上海交通大学"));
        assert_eq!(school("西安那个交大的电气"), one("西安交通大学"));
        assert_eq!(school("交大，西安那个，电气"), one("西安交通大学"));
        assert_eq!(school("交大，在西安的那个"), one("西安交通大学"));
        // A city said as background picks nothing.
        assert!(matches!(
            school("我本科在西安，想考交大"),
            Some(Slot::Ambiguous { .. })
        ));
    }

    #[test]
    fn a_school_not_in_the_city_beside_it_is_asked_about() {
        let Some(Slot::Heard { candidates, .. }) = school("上海的浙大，材料") else {
            panic!("{:?}", school("上海的浙大，材料"));
        };
        assert_eq!(candidates, ["浙江大学", "上海交通大学"]);
        // Background, or the school's own city: as said.
        assert_eq!(school("我本科在上海，想考浙大"), one("浙江大学"));
        assert_eq!(school("杭州的浙大"), one("浙江大学"));
    }
}
