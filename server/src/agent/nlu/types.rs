//! The public data types of the NLU layer: what the caller passes in (catalog
//! names) and what one analysed utterance looks like. Kept apart from the
//! rules so the shape of the API can be read in one place.

/// Names the catalog knows, passed in by the caller (they come from the database).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameSet {
    pub canonical: String,
    pub aliases: Vec<String>,
}

impl NameSet {
    /// Convenience constructor (tests and callers building sets by hand).
    pub fn new(canonical: &str, aliases: &[&str]) -> NameSet {
        NameSet {
            canonical: canonical.to_string(),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
        }
    }
}

/// A school or major named in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// Exactly one catalog entry: its canonical name.
    One(String),
    /// The words said name several entries ("交大"); candidates are canonical
    /// names in the order the caller listed them.
    Ambiguous {
        said: String,
        candidates: Vec<String>,
    },
    /// Several entries, each one the student would accept ("北大或者清华都行",
    /// "清华考不上就考北航"): canonical names in the order said. Code asks
    /// which to look at first rather than choosing for the student.
    Either(Vec<String>),
    /// Words that only sound like a name (a recognizer's homophone, a
    /// slip of the input method), too unsure to fill the field: the
    /// student is asked which one was meant. `said` is the text as it came.
    Heard {
        said: String,
        candidates: Vec<String>,
    },
}

/// An advisor the student points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference {
    /// 0-based position in the list on screen: 第一个 → 0.
    Ordinal(usize),
    /// 0-based position from the end: 最后一个 → 0, 倒数第二个 → 1.
    FromEnd(usize),
    /// 中间那个: the one in the middle of the list (of an odd length).
    Middle,
    /// 他 / 这位老师 / 刚才那个 …: the advisor being talked about.
    Pronoun,
    /// An advisor name from `known_names` (as the caller spelled it).
    Name(String),
}

/// What the student asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Act {
    /// Nothing beyond slots ("北大计算机").
    #[default]
    None,
    AskAbout,
    AskReviews,
    OpenDetail,
    Recommend,
    ListAdvisors,
    Compare,
    /// Figures of the school + major: distribution, averages, the best.
    Statistics,
    Thanks,
    Goodbye,
    WantExam,
    Help,
    Faq,
    /// "我刚才说的是哪个学校": what the agent holds, read back from the form.
    ReadBack,
    /// "中山大学怎么样", "计算机专业好就业吗": the school or major itself,
    /// answered from the site's data; nothing goes into the form unasked.
    AboutPlace,
    Skip,
    /// 你好 / 在吗 with nothing else.
    Greet,
}

/// One utterance, understood.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Analysis {
    /// The normalised text the rules ran on.
    pub normalized: String,
    pub school: Option<Slot>,
    pub major: Option<Slot>,
    /// Looks like a school name but is not in the catalog ("霍格沃茨大学").
    pub unknown_school: Option<String>,
    /// Looks like a major name but is not in the catalog ("魔法学").
    pub unknown_major: Option<String>,
    /// Canonical direction from the lexicon, else the student's own words
    /// when a clear pattern says it is a direction (at most 12 characters).
    pub research_direction: Option<String>,
    /// 温和 / 严格 / 放养 / 负责.
    pub personality: Option<String>,
    /// 理论型 / 工程型 / 产业型.
    pub research_style: Option<String>,
    /// 充足 / 一般 / 紧张: what the student wants.
    pub funding: Option<String>,
    /// 学硕 / 专硕 / 直博.
    pub degree_type: Option<String>,
    /// The year the student would start ("2027").
    pub enrollment_year: Option<String>,
    /// Canonical values the student explicitly rejected, in order of mention.
    pub rejected: Vec<String>,
    /// The student replaces an earlier value.
    pub correction: bool,
    /// Advisors referred to, in order of mention.
    pub references: Vec<Reference>,
    /// Where in `normalized` the advisors the student means begin: after
    /// a correction ("不是秦老师，是李晨帆老师"), those said before it are
    /// not meant; else 0.
    pub references_from: usize,
    pub act: Act,
    /// Id of the matched FAQ entry.
    pub faq: Option<String>,
    /// "这两个" / "他俩": two advisors pointed at together (a comparison
    /// takes them from the conversation or the page).
    pub pair: bool,
    /// The sentence ends in a bare 呢 ("第二个呢", "那清华呢"): it asks the
    /// previous question again about something else.
    pub follow_up: bool,
    /// Fields the student puts off ("计算机，学校再说": `["school"]`): not
    /// asked for again this turn.
    pub postponed: Vec<&'static str>,
    /// What the message says that code did not understand (`coverage`):
    /// empty when code read it whole, and a model has nothing to add.
    pub unexplained: Vec<String>,
}

impl Analysis {
    /// A wish for the form besides school and major: a direction, a
    /// preference, a degree type or an enrollment year.
    pub fn names_wishes(&self) -> bool {
        self.research_direction.is_some()
            || self.personality.is_some()
            || self.research_style.is_some()
            || self.funding.is_some()
            || self.degree_type.is_some()
            || self.enrollment_year.is_some()
    }
}
