//! `Lexicons`: every word list loaded once and compiled into one trie, so an
//! utterance is read in a single leftmost-longest pass over schools, majors
//! (both from the database), research directions, preference words, cue words
//! and reference words together. Word lists live in `server/lexicons/*.txt`
//! and the FAQ in `prompts/embedded/faq.txt`; this file only knows the keys.
//!
//! It stands on `words` (the spelling terms are stored in, word lists) and
//! on the sub-lexicons it holds — `faq`'s parsed entries, `enrollment`'s
//! words — none of which imports it back; `normalize`, `tokens` and every
//! rule after them import it.

use std::collections::HashMap;

use super::faq::{self, FaqEntry};
pub(crate) use super::lists::Lists;
use super::types::NameSet;
use crate::text::lexfile;
use crate::text::sound::SoundIndex;
use crate::text::trie::Trie;
use crate::text::utterance::{chars, WordList};

/// The groups of the sound index (`sound`): which characters are common
/// is judged among names of one kind.
pub(crate) const SCHOOL_SOUNDS: u8 = 0;
pub(crate) const MAJOR_SOUNDS: u8 = 1;
pub(crate) const DIRECTION_SOUNDS: u8 = 2;

const DIRECTIONS: &str = include_str!("../../../lexicons/directions.txt");
const PREFERENCES: &str = include_str!("../../../lexicons/preferences.txt");
const OPPOSITES: &str = include_str!("../../../lexicons/opposites.txt");
const CUES: &str = include_str!("../../../lexicons/cues.txt");
const REFERENCES: &str = include_str!("../../../lexicons/references.txt");
const FILLERS: &str = include_str!("../../../lexicons/fillers.txt");
const CONCEPTS: &str = include_str!("../../../lexicons/direction_concepts.txt");
pub(crate) const FAQ: &str = include_str!("../../../../prompts/embedded/faq.txt");

/// Cue classes of `cues.txt` that take part in the longest-match pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Cue {
    Compare,
    CompareWeak,
    Choose,
    Difference,
    Pair,
    OpenDetail,
    OpenDetailRef,
    AskReviews,
    AskReviewsRef,
    AskAbout,
    Recommend,
    List,
    Stats,
    Thanks,
    Goodbye,
    Greet,
    WantExam,
    Help,
    Skip,
    ReadBack,
    PlaceQuestion,
    Negator,
    NegatorAfter,
    Replace,
    Coord,
    Correction,
    Still,
    Background,
    BackgroundAfter,
    Alternative,
    IntroDirection,
    IntroMajor,
    IntroSchool,
    SuffixDirection,
    SuffixMajor,
    InterestOpen,
    InterestClose,
}

const CUE_KEYS: &[(&str, Cue)] = &[
    ("act.compare", Cue::Compare),
    ("act.compare_weak", Cue::CompareWeak),
    ("act.choose", Cue::Choose),
    ("act.difference", Cue::Difference),
    ("pair", Cue::Pair),
    ("act.open_detail", Cue::OpenDetail),
    ("act.open_detail_ref", Cue::OpenDetailRef),
    ("act.ask_reviews", Cue::AskReviews),
    ("act.ask_reviews_ref", Cue::AskReviewsRef),
    ("act.ask_about", Cue::AskAbout),
    ("act.recommend", Cue::Recommend),
    ("act.list", Cue::List),
    ("act.stats", Cue::Stats),
    ("act.thanks", Cue::Thanks),
    ("act.goodbye", Cue::Goodbye),
    ("act.greet", Cue::Greet),
    ("act.want_exam", Cue::WantExam),
    ("act.help", Cue::Help),
    ("act.skip", Cue::Skip),
    ("act.read_back", Cue::ReadBack),
    ("act.place_question", Cue::PlaceQuestion),
    ("negator", Cue::Negator),
    ("negator.replace", Cue::Replace),
    ("negator.after", Cue::NegatorAfter),
    ("coord", Cue::Coord),
    ("correction", Cue::Correction),
    ("still", Cue::Still),
    ("background", Cue::Background),
    ("background.after", Cue::BackgroundAfter),
    ("alternative", Cue::Alternative),
    ("intro.direction", Cue::IntroDirection),
    ("intro.major", Cue::IntroMajor),
    ("intro.school", Cue::IntroSchool),
    ("suffix.direction", Cue::SuffixDirection),
    ("suffix.major", Cue::SuffixMajor),
    ("interest.open", Cue::InterestOpen),
    ("interest.close", Cue::InterestClose),
];

impl Cue {
    /// Cues that ask for something (they can be negated: "不用推荐了").
    pub fn is_act(self) -> bool {
        matches!(
            self,
            Cue::Compare
                | Cue::CompareWeak
                | Cue::Choose
                | Cue::Difference
                | Cue::OpenDetail
                | Cue::OpenDetailRef
                | Cue::AskReviews
                | Cue::AskReviewsRef
                | Cue::AskAbout
                | Cue::Recommend
                | Cue::List
                | Cue::Stats
                | Cue::Help
                | Cue::WantExam
                | Cue::ReadBack
                | Cue::PlaceQuestion
        )
    }
}

/// The three preference slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PrefSlot {
    Personality,
    ResearchStyle,
    Funding,
}

/// What a matched term means. A term may carry several tags ("人工智能" is a
/// major and a direction; "交大" four schools); roles.rs picks one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tag {
    School(usize),
    Major(usize),
    Direction(usize),
    /// Index into `Lexicons::prefs`.
    Pref(usize),
    FundingTopic,
    Pronoun,
    /// 0-based ordinal said without 第 ("榜首", "老二").
    Ordinal(usize),
    /// 0-based position from the end ("最后一个").
    FromEnd(usize),
    /// The middle of the list ("中间那个").
    Middle,
    Cue(Cue),
    /// Means nothing, but hides the shorter words inside it.
    Block,
    /// Index into the caller's `known_names`.
    Name(usize),
    /// Beside names found only by sound: not sure enough to fill a field,
    /// so the student is asked (`heard`).
    Heard,
}

/// How a filler word is dropped (see fillers.txt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filler {
    Always,
    ClauseFinal,
    ClauseInitial,
    /// Dropped at the start of a clause, and the sentence is a question
    /// ("请问…", "想问一下…"): what a recognizer that ends it with "。"
    /// leaves of its question mark.
    AskInitial,
    Soft,
}

/// Every matcher, built once at server start.
#[derive(Debug, Clone, PartialEq)]
pub struct Lexicons {
    pub(crate) trie: Trie<Tag>,
    pub(crate) fillers: Trie<Filler>,
    pub(crate) schools: Vec<String>,
    /// Every name of each school (canonical and aliases), by index.
    pub(crate) school_names: Vec<(Vec<char>, usize)>,
    /// The city of each school, by index (empty when not known), and the
    /// cities as words (`Lexicons::with_cities`).
    pub(crate) school_cities: Vec<String>,
    pub(crate) city_words: WordList,
    pub(crate) majors: Vec<String>,
    /// Every name of each major (canonical and aliases), by index, for
    /// reading a shortened one (`patterns`: 应统 for 应用统计).
    pub(crate) major_names: Vec<(Vec<char>, usize)>,
    pub(crate) directions: Vec<String>,
    /// Preference values: (slot, canonical value), indexed by `Tag::Pref`.
    pub(crate) prefs: Vec<(PrefSlot, String)>,
    /// Negated preference → the preference it turns into.
    pub(crate) opposites: HashMap<usize, usize>,
    /// Funding level words (longest first) → preference index.
    pub(crate) funding_levels: Vec<(Vec<char>, usize)>,
    pub(crate) lists: Lists,
    pub(crate) faq: Vec<FaqEntry>,
    pub(crate) enrollment: super::enrollment::EnrollmentLexicon,
    /// Schools, majors and directions by sound and typed pinyin.
    pub(crate) sound: SoundIndex<Tag>,
    /// The words of what each direction is about (`direction_concepts.txt`):
    /// (index into `directions`, words).
    pub(crate) concepts: Vec<(usize, WordList)>,
    /// The reference words of three characters or more (最后那位, 刚才那个),
    /// by their first character, for reading them in homophones
    /// (`references::heard_at`).
    pub(crate) reference_words: HashMap<char, Vec<(Vec<char>, Tag)>>,
    /// The correction cues of cues.txt (不对, 算了 …), for reading one a
    /// recognizer wrote in other characters where a clause of its own
    /// places it (`correction::heard_markers`).
    pub(crate) correction_words: Vec<Vec<char>>,
    /// Majors by the work they lead to (`major_work.txt`).
    pub(crate) majors_by_work: super::major_work::MajorsByWork,
}

fn pref_key(key: &str) -> Option<(PrefSlot, &str)> {
    let (slot, value) = key.split_once('/')?;
    let slot = match slot {
        "personality" => PrefSlot::Personality,
        "research_style" => PrefSlot::ResearchStyle,
        "funding" => PrefSlot::Funding,
        _ => return None,
    };
    Some((slot, value))
}

/// The shortest reference word read in homophones: a bare 那个 or 那位
/// written 哪个 is a question ("哪位老师最好"), 最后哪位 is not.
const HEARD_REFERENCE_MIN: usize = 3;

fn numbered(key: &str, prefix: &str) -> Option<usize> {
    key.strip_prefix(prefix)?.parse().ok()
}

impl Lexicons {
    /// Builds every matcher once (called at server start); schools and majors
    /// come from the DB, everything else from the lexicon files.
    pub fn new(schools: &[NameSet], majors: &[NameSet]) -> Lexicons {
        let mut lex = Lexicons {
            trie: Trie::new(),
            fillers: Trie::new(),
            schools: schools.iter().map(|s| s.canonical.clone()).collect(),
            school_names: Vec::new(),
            school_cities: vec![String::new(); schools.len()],
            city_words: WordList::default(),
            majors: majors.iter().map(|m| m.canonical.clone()).collect(),
            major_names: Vec::new(),
            directions: Vec::new(),
            prefs: Vec::new(),
            opposites: HashMap::new(),
            funding_levels: Vec::new(),
            lists: Lists::default(),
            faq: faq::parse(FAQ),
            enrollment: super::enrollment::EnrollmentLexicon::load(),
            sound: SoundIndex::new(),
            concepts: Vec::new(),
            reference_words: HashMap::new(),
            correction_words: Vec::new(),
            majors_by_work: Default::default(),
        };
        for (i, s) in schools.iter().enumerate() {
            for name in std::iter::once(&s.canonical).chain(&s.aliases) {
                lex.trie.insert(&chars(name), Tag::School(i));
                lex.school_names.push((chars(name), i));
                lex.sound.insert_in(name, Tag::School(i), SCHOOL_SOUNDS);
            }
        }
        for (i, m) in majors.iter().enumerate() {
            for name in std::iter::once(&m.canonical).chain(&m.aliases) {
                lex.trie.insert(&chars(name), Tag::Major(i));
                lex.major_names.push((chars(name), i));
                lex.sound.insert_in(name, Tag::Major(i), MAJOR_SOUNDS);
            }
        }
        lex.majors_by_work = super::major_work::MajorsByWork::load(&lex.majors);
        lex.load_directions();
        lex.load_concepts();
        lex.load_preferences();
        lex.load_cues();
        lex.load_references();
        lex.load_fillers();
        lex
    }

    /// Canonical research directions known from the lexicon (for chips/validation).
    pub fn directions(&self) -> Vec<&str> {
        self.directions.iter().map(String::as_str).collect()
    }

    /// The spoken answer of FAQ entry `id`.
    pub fn faq_answer(&self, id: &str) -> Option<&str> {
        self.faq
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.answer.as_str())
    }

    /// Ids of all FAQ entries, in file order.
    pub fn faq_ids(&self) -> Vec<&str> {
        self.faq.iter().map(|e| e.id.as_str()).collect()
    }

    fn load_directions(&mut self) {
        for e in lexfile::parse("directions.txt", DIRECTIONS) {
            let idx = self.directions.len();
            self.directions.push(e.key.clone());
            self.trie.insert(&chars(&e.key), Tag::Direction(idx));
            self.sound
                .insert_in(&e.key, Tag::Direction(idx), DIRECTION_SOUNDS);
            for t in &e.terms {
                self.trie.insert(&chars(t), Tag::Direction(idx));
                self.sound
                    .insert_in(t, Tag::Direction(idx), DIRECTION_SOUNDS);
            }
        }
    }

    fn load_concepts(&mut self) {
        for e in lexfile::parse("direction_concepts.txt", CONCEPTS) {
            let Some(idx) = self.directions.iter().position(|d| *d == e.key) else {
                panic!(
                    "direction_concepts.txt: {:?} is not in directions.txt",
                    e.key
                );
            };
            self.concepts.push((idx, WordList::from_terms(&e.terms)));
        }
    }

    /// The direction the student's own words are about: the one whose
    /// concept words occur most (twice at least), and more than any other's.
    pub(crate) fn concept_direction(&self, words: &str) -> Option<&str> {
        let chars = chars(words);
        let mut scores: Vec<(usize, usize)> = self
            .concepts
            .iter()
            .map(|(idx, list)| {
                let hits = (0..chars.len())
                    .filter(|&i| list.prefix_at(&chars, i).is_some())
                    .count();
                (hits, *idx)
            })
            .filter(|&(hits, _)| hits > 0)
            .collect();
        scores.sort_by_key(|s| std::cmp::Reverse(s.0));
        // Two words of the concept at least: one alone (文字 in 古文字释读)
        // is as likely a field of its own the student named.
        match scores.as_slice() {
            [(a, idx)] if *a >= 2 => Some(self.directions[*idx].as_str()),
            [(a, idx), (b, _), ..] if *a >= 2 && a > b => Some(self.directions[*idx].as_str()),
            _ => None,
        }
    }

    fn pref_index(&mut self, slot: PrefSlot, value: &str) -> usize {
        match self
            .prefs
            .iter()
            .position(|(s, v)| *s == slot && v == value)
        {
            Some(i) => i,
            None => {
                self.prefs.push((slot, value.to_string()));
                self.prefs.len() - 1
            }
        }
    }

    fn load_preferences(&mut self) {
        for e in lexfile::parse("preferences.txt", PREFERENCES) {
            if e.key == "funding_topic" {
                for t in &e.terms {
                    self.trie.insert(&chars(t), Tag::FundingTopic);
                }
            } else if let Some(value) = e.key.strip_prefix("funding_level/") {
                let idx = self.pref_index(PrefSlot::Funding, value);
                for t in &e.terms {
                    self.funding_levels.push((chars(t), idx));
                }
            } else if let Some((slot, value)) = pref_key(&e.key) {
                let idx = self.pref_index(slot, value);
                for t in &e.terms {
                    self.trie.insert(&chars(t), Tag::Pref(idx));
                }
            } else {
                panic!("preferences.txt: unknown key {:?}", e.key);
            }
        }
        self.funding_levels
            .sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        for e in lexfile::parse("opposites.txt", OPPOSITES) {
            let resolve = |lex: &mut Lexicons, key: &str| {
                let (slot, value) =
                    pref_key(key).unwrap_or_else(|| panic!("opposites.txt: bad key {key:?}"));
                lex.pref_index(slot, value)
            };
            let from = resolve(self, &e.key);
            for t in &e.terms {
                let to = resolve(self, t);
                self.opposites.insert(from, to);
            }
        }
    }

    fn load_cues(&mut self) {
        for e in lexfile::parse("cues.txt", CUES) {
            if let Some(&(_, cue)) = CUE_KEYS.iter().find(|(k, _)| *k == e.key) {
                for t in &e.terms {
                    self.trie.insert(&chars(t), Tag::Cue(cue));
                    if cue == Cue::Correction {
                        self.correction_words.push(chars(t));
                    }
                }
            } else if e.key == "block" {
                for t in &e.terms {
                    self.trie.insert(&chars(t), Tag::Block);
                }
            } else if let Some(list) = self.lists.slot(&e.key) {
                *list = WordList::from_terms(&e.terms);
            } else {
                panic!("cues.txt: unknown key {:?}", e.key);
            }
        }
    }

    fn load_references(&mut self) {
        for e in lexfile::parse("references.txt", REFERENCES) {
            let tag = match e.key.as_str() {
                "pronoun" => Some(Tag::Pronoun),
                "not_pronoun" => Some(Tag::Block),
                "middle" => Some(Tag::Middle),
                k => numbered(k, "from_end.")
                    .map(Tag::FromEnd)
                    .or_else(|| numbered(k, "ordinal.").map(Tag::Ordinal)),
            };
            if let Some(tag) = tag {
                for t in &e.terms {
                    let word = chars(t);
                    self.trie.insert(&word, tag);
                    if tag != Tag::Block && word.len() >= HEARD_REFERENCE_MIN {
                        self.reference_words
                            .entry(word[0])
                            .or_default()
                            .push((word, tag));
                    }
                }
            } else if let Some(list) = self.lists.slot(&e.key) {
                *list = WordList::from_terms(&e.terms);
            } else {
                panic!("references.txt: unknown key {:?}", e.key);
            }
        }
    }

    fn load_fillers(&mut self) {
        for e in lexfile::parse("fillers.txt", FILLERS) {
            let kind = match e.key.as_str() {
                "always" => Filler::Always,
                "clause_final" => Filler::ClauseFinal,
                "clause_initial" => Filler::ClauseInitial,
                "ask_initial" => Filler::AskInitial,
                "soft" => Filler::Soft,
                k => panic!("fillers.txt: unknown key {k:?}"),
            };
            for t in &e.terms {
                self.fillers.insert(&chars(t), kind);
            }
        }
    }

    /// The canonical value of preference `idx`.
    pub(crate) fn pref(&self, idx: usize) -> (PrefSlot, &str) {
        let (slot, value) = &self.prefs[idx];
        (*slot, value.as_str())
    }
}
