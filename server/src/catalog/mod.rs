//! The catalog: schools and majors with every name students use for them,
//! loaded from the database once and held in memory. It turns what a student
//! typed or said ("北大", "上交", "计算机系", "ＰＫＵ") into canonical names, and
//! says so when a name is ambiguous ("交大") instead of guessing.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{RwLock, RwLockReadGuard};

use crate::db::Pool;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchoolEntry {
    pub id: i64,
    pub name: String,
    pub city: String,
    pub tier: String,
    pub popularity: i64,
    pub aliases: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MajorEntry {
    pub id: i64,
    pub name: String,
    pub category: String,
    pub aliases: Vec<String>,
}

/// The outcome of resolving a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution<T> {
    Found(T),
    /// Several entries fit; the student must choose (most popular first).
    Ambiguous(Vec<T>),
    Unknown,
}

impl<T> Resolution<T> {
    pub fn found(self) -> Option<T> {
        match self {
            Resolution::Found(t) => Some(t),
            _ => None,
        }
    }
}

/// Words before a name that do not change what is meant ("我想考北大").
const LEADING_NOISE: &[&str] = &[
    "我想考",
    "我要考",
    "想考",
    "打算考",
    "报考",
    "考",
    "读",
    "去",
];

/// Words around a name that do not change which school or major is meant.
const SCHOOL_NOISE: &[&str] = &["的", "本部", "研究生院", "校本部"];
const MAJOR_NOISE: &[&str] = &[
    "的",
    "专业",
    "学系",
    "系",
    "学院",
    "方向",
    "硕士",
    "研究生",
    "考研",
];

/// The key a school or major name is looked up by (`text::fold::key`:
/// width, script, case, no spaces or separators).
pub fn normalize(s: &str) -> String {
    crate::text::fold::key(s)
}

fn strip_noise(mut s: &str, noise: &[&str]) -> String {
    loop {
        let before = s;
        for n in noise {
            s = s.strip_suffix(n).unwrap_or(s);
        }
        if s == before {
            return s.to_string();
        }
    }
}

/// The other names of the catalog's entries, by canonical name: in English
/// and the Latin abbreviations (`server/lexicons/catalog_english.txt`), the
/// schools' former names (`server/lexicons/catalog_former.txt`), and the
/// majors' names in Taiwan, Hong Kong and Macau
/// (`server/lexicons/catalog_regional.txt`).
fn other_names() -> &'static HashMap<String, Vec<String>> {
    static NAMES: std::sync::OnceLock<HashMap<String, Vec<String>>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut out: HashMap<String, Vec<String>> = HashMap::new();
        for (file, text) in [
            (
                "catalog_english.txt",
                include_str!("../../lexicons/catalog_english.txt"),
            ),
            (
                "catalog_former.txt",
                include_str!("../../lexicons/catalog_former.txt"),
            ),
            (
                "catalog_regional.txt",
                include_str!("../../lexicons/catalog_regional.txt"),
            ),
        ] {
            for e in crate::text::lexfile::parse(file, text) {
                out.entry(e.key).or_default().extend(e.terms);
            }
        }
        out
    })
}

/// Each major's names said without a generic ending
/// (`server/lexicons/catalog_endings.txt`: 飞行器设计与工程 → 飞行器设计), added
/// to its aliases when at least three characters are left and no other
/// major has that name.
fn add_shortened(majors: &mut [MajorEntry]) {
    static ENDINGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let endings = ENDINGS.get_or_init(|| {
        let text = include_str!("../../lexicons/catalog_endings.txt");
        crate::text::lexfile::parse("catalog_endings.txt", text)
            .into_iter()
            .flat_map(|e| e.terms)
            .collect()
    });
    let taken: HashSet<String> = majors
        .iter()
        .flat_map(|m| std::iter::once(&m.name).chain(&m.aliases))
        .cloned()
        .collect();
    for m in majors.iter_mut() {
        let short: Vec<String> = std::iter::once(&m.name)
            .chain(&m.aliases)
            .filter_map(|n| endings.iter().find_map(|e| n.strip_suffix(e.as_str())))
            .filter(|s| s.chars().count() >= 3 && !taken.contains(*s))
            .map(str::to_string)
            .collect();
        add_aliases(&mut m.aliases, Some(&short));
    }
}

/// Adds the names of `extra` an entry does not have yet.
fn add_aliases(aliases: &mut Vec<String>, extra: Option<&Vec<String>>) {
    for term in extra.into_iter().flatten() {
        if !aliases.iter().any(|a| a.eq_ignore_ascii_case(term)) {
            aliases.push(term.clone());
        }
    }
}

/// An index from normalized names to entry positions.
#[derive(Debug, Default)]
struct NameIndex {
    keys: HashMap<String, Vec<usize>>,
}

impl NameIndex {
    fn insert(&mut self, name: &str, pos: usize) {
        let key = normalize(name);
        if key.is_empty() {
            return;
        }
        let slot = self.keys.entry(key).or_default();
        if !slot.contains(&pos) {
            slot.push(pos);
        }
    }

    fn exact(&self, key: &str) -> Option<&Vec<usize>> {
        self.keys.get(key)
    }

    /// Entries whose name or alias appears inside `text` with nothing else
    /// around it but noise words ("我想考北京大学的" → 北京大学, but "魔法学" is
    /// not "法学"); longest names only.
    fn contained(&self, text: &str, noise: &[&str]) -> Vec<usize> {
        let mut best_len = 0;
        let mut found: Vec<usize> = Vec::new();
        for (key, positions) in &self.keys {
            // One-character keys match too much inside free text.
            if key.chars().count() < 2 || !text.contains(key.as_str()) {
                continue;
            }
            let mut rest = text.replacen(key.as_str(), " ", 1);
            for n in LEADING_NOISE.iter().chain(noise) {
                rest = rest.replace(n, "");
            }
            if !rest.trim().is_empty() {
                continue;
            }
            let len = key.chars().count();
            if len > best_len {
                best_len = len;
                found.clear();
            }
            if len == best_len {
                for p in positions {
                    if !found.contains(p) {
                        found.push(*p);
                    }
                }
            }
        }
        found
    }

    /// Entries of which `text` is the beginning of a name ("北京航空" → 北航).
    fn prefixed(&self, text: &str) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        if text.chars().count() < 2 {
            return found;
        }
        for (key, positions) in &self.keys {
            if key.starts_with(text) {
                for p in positions {
                    if !found.contains(p) {
                        found.push(*p);
                    }
                }
            }
        }
        found
    }
}

/// Schools, majors, their aliases and which school offers which major.
#[derive(Debug, Default)]
pub struct Catalog {
    schools: Vec<SchoolEntry>,
    majors: Vec<MajorEntry>,
    school_index: NameIndex,
    major_index: NameIndex,
    /// (school id, major id) → number of advisors. A school offers a major
    /// exactly when it has advisors there (there is no table of pairs);
    /// the names never change while the site runs, this does (an import
    /// adds advisors): [`Catalog::set_offered`].
    offered: RwLock<HashMap<(i64, i64), i64>>,
}

impl Catalog {
    /// Builds the catalog from entries; `offered` maps (school id, major id)
    /// to the number of advisors of that pair.
    pub fn new(
        mut schools: Vec<SchoolEntry>,
        mut majors: Vec<MajorEntry>,
        offered: HashMap<(i64, i64), i64>,
    ) -> Catalog {
        let other = other_names();
        for s in &mut schools {
            add_aliases(&mut s.aliases, other.get(s.name.as_str()));
        }
        for m in &mut majors {
            add_aliases(&mut m.aliases, other.get(m.name.as_str()));
        }
        add_shortened(&mut majors);
        // Most popular first: ambiguity lists and suggestions follow this order.
        schools.sort_by(|a, b| b.popularity.cmp(&a.popularity).then(a.id.cmp(&b.id)));
        let mut school_index = NameIndex::default();
        for (pos, s) in schools.iter().enumerate() {
            school_index.insert(&s.name, pos);
            for a in &s.aliases {
                school_index.insert(a, pos);
            }
        }
        let mut major_index = NameIndex::default();
        for (pos, m) in majors.iter().enumerate() {
            major_index.insert(&m.name, pos);
            for a in &m.aliases {
                major_index.insert(a, pos);
            }
        }
        Catalog {
            schools,
            majors,
            school_index,
            major_index,
            offered: RwLock::new(offered),
        }
    }

    fn offered(&self) -> RwLockReadGuard<'_, HashMap<(i64, i64), i64>> {
        // A panic elsewhere while writing leaves a whole map behind.
        self.offered.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Replaces the advisor counts of the pairs (after advisors were added).
    pub fn set_offered(&self, offered: HashMap<(i64, i64), i64>) {
        *self.offered.write().unwrap_or_else(|e| e.into_inner()) = offered;
    }

    /// The advisor count of every pair that has advisors, from the database.
    pub async fn load_offered(pool: &Pool) -> Result<HashMap<(i64, i64), i64>, sqlx::Error> {
        crate::store::catalog::offered(pool).await
    }

    /// Loads the whole catalog from the database.
    pub async fn load(pool: &Pool) -> Result<Catalog, sqlx::Error> {
        use crate::store::catalog as stored;
        let school_rows = stored::schools(pool).await?;
        let mut school_aliases: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for (alias, id) in stored::school_aliases(pool).await? {
            school_aliases.entry(id).or_default().push(alias);
        }
        let schools = school_rows
            .into_iter()
            .map(|(id, name, city, tier, popularity)| SchoolEntry {
                id,
                name,
                city,
                tier,
                popularity,
                aliases: school_aliases.remove(&id).unwrap_or_default(),
            })
            .collect();

        let major_rows = stored::majors(pool).await?;
        let mut major_aliases: BTreeMap<i64, Vec<String>> = BTreeMap::new();
        for (alias, id) in stored::major_aliases(pool).await? {
            major_aliases.entry(id).or_default().push(alias);
        }
        let majors = major_rows
            .into_iter()
            .map(|(id, name, category)| MajorEntry {
                id,
                name,
                category,
                aliases: major_aliases.remove(&id).unwrap_or_default(),
            })
            .collect();

        let offered = Catalog::load_offered(pool).await?;
        Ok(Catalog::new(schools, majors, offered))
    }

    /// Every school, most popular first.
    pub fn schools(&self) -> &[SchoolEntry] {
        &self.schools
    }

    pub fn majors(&self) -> &[MajorEntry] {
        &self.majors
    }

    pub fn school_by_id(&self, id: i64) -> Option<&SchoolEntry> {
        self.schools.iter().find(|s| s.id == id)
    }

    pub fn major_by_id(&self, id: i64) -> Option<&MajorEntry> {
        self.majors.iter().find(|m| m.id == id)
    }

    /// Number of advisors of a school (all majors).
    pub fn school_advisor_count(&self, school_id: i64) -> i64 {
        self.offered()
            .iter()
            .filter(|((s, _), _)| *s == school_id)
            .map(|(_, n)| *n)
            .sum()
    }

    /// Number of advisors of a (school, major) pair; 0 when not offered.
    pub fn advisor_count(&self, school_id: i64, major_id: i64) -> i64 {
        self.offered()
            .get(&(school_id, major_id))
            .copied()
            .unwrap_or(0)
    }

    /// The majors a school offers, in catalog order.
    pub fn majors_of(&self, school_id: i64) -> Vec<&MajorEntry> {
        let offered = self.offered();
        self.majors
            .iter()
            .filter(|m| offered.contains_key(&(school_id, m.id)))
            .collect()
    }

    /// Resolves a school name: canonical name, alias, name with noise words,
    /// the longest name contained in the text, or the beginning of a name.
    pub fn resolve_school(&self, input: &str) -> Resolution<&SchoolEntry> {
        resolve(&self.school_index, &self.schools, input, SCHOOL_NOISE)
    }

    /// Resolves a major name the same way ("计算机系" → 计算机科学与技术).
    pub fn resolve_major(&self, input: &str) -> Resolution<&MajorEntry> {
        resolve(&self.major_index, &self.majors, input, MAJOR_NOISE)
    }

    /// Resolves a major among those one school offers: an ambiguous name that
    /// fits only one of its majors is no longer ambiguous there.
    pub fn resolve_major_at(&self, school_id: i64, input: &str) -> Resolution<&MajorEntry> {
        match self.resolve_major(input) {
            Resolution::Ambiguous(list) => {
                let offered = self.offered();
                let here: Vec<_> = list
                    .iter()
                    .copied()
                    .filter(|m| offered.contains_key(&(school_id, m.id)))
                    .collect();
                match here.len() {
                    0 => Resolution::Ambiguous(list),
                    1 => Resolution::Found(here[0]),
                    _ => Resolution::Ambiguous(here),
                }
            }
            other => other,
        }
    }
}

fn resolve<'a, T>(
    index: &NameIndex,
    entries: &'a [T],
    input: &str,
    noise: &[&str],
) -> Resolution<&'a T> {
    let key = normalize(input);
    if key.is_empty() {
        return Resolution::Unknown;
    }
    let stripped = strip_noise(&key, noise);
    let positions = index
        .exact(&key)
        .or_else(|| index.exact(&stripped))
        .cloned()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| {
            let contained = index.contained(&key, noise);
            if contained.is_empty() {
                index.prefixed(&stripped)
            } else {
                contained
            }
        });
    let mut positions: Vec<usize> = positions
        .into_iter()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    positions.sort_unstable();
    match positions.len() {
        0 => Resolution::Unknown,
        1 => Resolution::Found(&entries[positions[0]]),
        _ => Resolution::Ambiguous(positions.into_iter().map(|p| &entries[p]).collect()),
    }
}

#[cfg(test)]
mod tests;
