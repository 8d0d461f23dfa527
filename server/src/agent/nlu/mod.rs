//! Rule-based language understanding for the voice agent: one utterance in,
//! one structured `Analysis` out, with no language model. The words live in
//! plain-text lexicons (`server/lexicons/`, `prompts/embedded/faq.txt`); the
//! Rust files hold the rules, one concern each. Text itself is read in
//! `crate::text`, as everywhere: the spelling of an utterance, its plain
//! word lists (`text::utterance`) and the leftmost-longest matcher every
//! lexicon goes through (`text::trie`).
//!
//! - `heard`       names the exact pass missed, by sound or typed pinyin
//!   (`text::sound`): a close one fills the slot, an unsure one is asked
//! - `lexicon`     `Lexicons`: loads the files and the catalog names into one trie
//! - `lists`       the plain word lists of cues.txt and references.txt, declared once
//! - `normalize`   `text::utterance`'s spelling, then fillers and "第一" → "第1"
//! - `tokens`      the token stream of one utterance, and clauses
//! - `merged`      a school's old name and the one it has now, read as one school
//! - `roles`       one meaning for terms with several (人工智能: major or direction)
//! - `patterns`    unknown schools/majors and directions in the student's words
//! - `negation`    what 不/别/不要/不是 apply to
//! - `slots`       school, major, direction, rejected values
//! - `cities`      the city said beside a school's short name
//! - `major_work`  a major described by its work (做芯片的那个专业)
//! - `preferences` personality, research style, funding
//! - `references`  第一个 / 最后一个 / 他 / names
//! - `correction`  算了 / 改成 / 还是…吧 / 不是…是…
//! - `enrollment`  degree type (学硕 / 专硕 / 直博) and enrollment year
//! - `faq`         FAQ file and matching (under `lexicon`, which holds it)
//! - `acts`        what the student asks for, with its precedence
//! - `coverage`    what none of the above read (a model is asked only then)
//! - `readings`    of a recognizer's readings of one recording, the one naming most
//!
//! Pipeline of `analyze`: normalise → scan → names heard → merged names →
//! resolve roles → unknown names → negation → references → correction cues
//! → slots → preferences → FAQ → act → coverage.

mod acts;
mod cities;
mod correction;
mod coverage;
pub mod enrollment;
mod faq;
mod heard;
mod lexicon;
mod lists;
mod major_work;
mod merged;
mod negation;
mod normalize;
mod patterns;
mod preferences;
pub mod readings;
mod references;
mod roles;
mod slots;
mod tokens;

mod types;

/// A name taken back whose replacement was not understood: in
/// "复旦，不对，是同系的自动化" the school was read only before the
/// correction, and after it stand words code did not read, or words that
/// only come near a school by sound (a recognizer's 同系 for 同济). 复旦 is
/// what the student no longer wants, so it is not filled; the student is
/// asked. A kind read after the correction, or a correction followed only
/// by what was read ("复旦的计算机，不对，是软件工程"), keeps what it read.
fn taken_back(t: &Text, lex: &Lexicons, corrections: &correction::Corrections, a: &mut Analysis) {
    let Some((after, kinds)) = corrections.taken_back() else {
        return;
    };
    // The replacement's own words: up to the end of the clause of the first
    // name read after the correction ("北邮软件工程，啊不是，是网安，帮我看下
    // 导师": the request after it replaces nothing).
    let named_after = t.tokens.iter().find(|tok| {
        tok.start >= after
            && matches!(
                tok.kind(lex),
                Some(tokens::Kind::School | tokens::Kind::Major | tokens::Kind::Direction)
            )
    });
    let until = named_after.map_or(t.chars.len(), |tok| t.clause(tok.start).1);
    let rest: String = t.chars[after..until].iter().collect();
    let unread_after = a.unexplained.iter().any(|f| rest.contains(f.as_str()));
    let read_after = |kind: tokens::Kind| {
        t.tokens
            .iter()
            .any(|tok| tok.start >= after && tok.kind(lex) == Some(kind))
    };
    let near_after = |group: u8| {
        !lex.sound
            .nearest(
                &t.chars[after..until],
                |i| !t.in_strong(after + i),
                group,
                1,
            )
            .is_empty()
    };
    if kinds.contains(&correction::Named::School)
        && !read_after(tokens::Kind::School)
        && (unread_after || near_after(lexicon::SCHOOL_SOUNDS))
    {
        a.school = None;
    }
    if kinds.contains(&correction::Named::Major)
        && !read_after(tokens::Kind::Major)
        && (unread_after || near_after(lexicon::MAJOR_SOUNDS))
    {
        a.major = None;
    }
}

/// Whether the clause at `pos` asks: its own question words or A-not-A,
/// or the question mark that ends the message, on its last clause.
fn clause_asks(text: &Text, lex: &Lexicons, pos: usize, question_mark: bool) -> bool {
    let (s, e) = text.clause(pos);
    faq::is_question(&text.chars[s..e], false, &lex.lists.question)
        || (question_mark && text.clause_index(pos) == text.clause_index(text.chars.len()))
}

/// Whether a clause holding one of the FAQ entry's words asks.
fn faq_asked(text: &Text, lex: &Lexicons, entry: &faq::FaqEntry, question_mark: bool) -> bool {
    entry.trigger_words().any(|w| {
        let mut from = 0;
        while let Some(pos) = crate::text::utterance::find_word(&text.chars, w, from) {
            if clause_asks(text, lex, pos, question_mark) {
                return true;
            }
            from = pos + 1;
        }
        false
    })
}

#[cfg(test)]
mod tests;

pub use lexicon::Lexicons;
pub use types::{Act, Analysis, NameSet, Reference, Slot};

use lexicon::Cue;
use tokens::Text;

/// Clauses (by index) that ask about a referenced advisor, or speak of what
/// is theirs ("范丽蓉老师的经费充足", as a recognizer wrote a question that
/// lost its 吗): their preference words describe that advisor, not the
/// student's wish.
fn advisor_question_clauses(
    text: &Text,
    lex: &Lexicons,
    positions: &[usize],
    question_mark: bool,
) -> Vec<bool> {
    let clauses = text.clause_index(text.chars.len()) + 1;
    let mut out = vec![false; clauses];
    for pos in positions {
        let c = text.clause_index(*pos);
        let asks = clause_asks(text, lex, *pos, question_mark)
            || text.clause_tokens(*pos).any(|t| {
                let t = &text.tokens[t];
                t.has_cue(Cue::AskAbout) || t.has_cue(Cue::AskReviews)
            });
        // The advisor's own: the reference, a person noun, then 的.
        let theirs = text.token_at(*pos).is_some_and(|t| {
            let mut end = text.tokens[t].end;
            end += lex
                .lists
                .person_noun
                .prefix_at(&text.chars, end)
                .unwrap_or(0);
            text.chars.get(end) == Some(&crate::text::utterance::DE)
        });
        out[c] |= asks || theirs;
    }
    out
}

/// Fields put off in a clause ("学校再说", "专业还没想好").
fn postponed(text: &Text, lex: &Lexicons) -> Vec<&'static str> {
    let l = &lex.lists;
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.chars.len() {
        let (s, e) = text.clause(start);
        let clause = &text.chars[s..e.max(s)];
        if l.postpone.occurs_in(clause) {
            if l.postpone_school.occurs_in(clause) && !out.contains(&"school") {
                out.push("school");
            }
            if l.postpone_major.occurs_in(clause) && !out.contains(&"major") {
                out.push("major");
            }
        }
        start = e.max(s) + 1;
    }
    out
}

/// The characters names are matched against in `text` (its normalised
/// form): a known name whose first character is not among them cannot be
/// in the message, neither whole nor as "张老师". Callers with thousands of
/// candidate names keep only those that could be.
pub fn matchable_chars(text: &str, lex: &Lexicons) -> std::collections::HashSet<char> {
    normalize::normalize(text, lex).text.chars().collect()
}

/// The FAQ as passages (id, trigger words, answer), for lookups outside the
/// agent's own matching (the review coach's knowledge tool).
pub fn faq_passages() -> Vec<(String, Vec<String>, String)> {
    faq::parse(lexicon::FAQ)
        .into_iter()
        .map(|e| {
            let words = e.words();
            (e.id, words, e.answer)
        })
        .collect()
}

/// Whether `text` is a question (a question mark, a final 呢, a question
/// word of cues.txt, an A-not-A form), after normalisation.
pub fn is_question(text: &str, lex: &Lexicons) -> bool {
    let norm = normalize::normalize(text, lex);
    let chars: Vec<char> = norm.text.chars().collect();
    faq::is_question(
        &chars,
        norm.question_mark || norm.follow_up,
        &lex.lists.question,
    )
}

/// Whether the message speaks of a person at all (导师, 老师, 他…): an ask
/// with nobody in particular named ("介绍一下") is about the advisor in
/// view; one that speaks of no person ("中期考核没过会怎样") is about
/// something else.
pub fn speaks_of_a_person(a: &Analysis, lex: &Lexicons) -> bool {
    let chars: Vec<char> = a.normalized.chars().collect();
    !a.references.is_empty()
        || lex.lists.person_noun.occurs_in(&chars)
        || lex.lists.pronoun_bare.occurs_in(&chars)
}

/// Whether the speaker asks for someone else, the applicant ("我女儿想考…",
/// "替我儿子问的"): what that person wishes for is the request.
pub fn asks_for_someone(a: &Analysis, lex: &Lexicons) -> bool {
    let chars: Vec<char> = a.normalized.chars().collect();
    lex.lists.asked_for.occurs_in(&chars)
}

/// One utterance → Analysis. `known_names` are advisor names the caller can
/// resolve (those on the page plus the current ranking), used for Name references.
pub fn analyze(text: &str, lex: &Lexicons, known_names: &[String]) -> Analysis {
    let norm = normalize::normalize(text, lex);
    let names: Vec<Vec<char>> = known_names
        .iter()
        .map(|n| crate::text::utterance::basic(n).chars().collect())
        .collect();
    let mut t = Text::scan(&norm.text, lex, &names);
    roles::major_heard_as_school(&mut t, lex);
    heard::add(&mut t, lex, &heard::names_index(&names));
    merged::read(&mut t, lex);
    roles::resolve(&mut t, lex);
    let unknown = patterns::unknown_names(&mut t, lex);
    let neg = negation::negated_tokens(&t, lex);
    let corrections = correction::read(&t, lex, &neg);
    let explicit_correction = corrections.explicit;
    let corrected_at = corrections.last_end.filter(|_| explicit_correction);
    let refs = references::find(&t, lex, known_names, &names, corrected_at);
    let pair = acts::names_a_pair(&t, &neg) && !refs.settled;
    let ignored = advisor_question_clauses(&t, lex, &refs.positions, norm.question_mark);
    let mut slots = slots::extract(&t, lex, &neg, explicit_correction);
    let dismissed = &corrections.dismissals;
    let mut prefs = preferences::extract(&t, lex, &neg, &ignored, dismissed, explicit_correction);
    let correction = explicit_correction || slots.replaced || prefs.replaced;
    if correction && !explicit_correction {
        // In a correction the later of two values is the one that stands.
        slots = slots::extract(&t, lex, &neg, true);
        prefs = preferences::extract(&t, lex, &neg, &ignored, dismissed, true);
    }

    let is_question = faq::is_question(
        &t.chars,
        norm.question_mark || norm.follow_up,
        &lex.lists.question,
    );
    let faq = faq::best(&lex.faq, &t.chars, is_question);
    let has_slot = slots.school.is_some()
        || slots.major.is_some()
        || slots.direction.is_some()
        || unknown.school.is_some()
        || unknown.major.is_some();
    let has_pref =
        prefs.personality.is_some() || prefs.research_style.is_some() || prefs.funding.is_some();
    let act = acts::classify(
        &t,
        lex,
        acts::Context {
            neg: &neg,
            pair,
            references: refs.refs.len(),
            faq: faq.is_some(),
            faq_asked: faq
                .is_some_and(|e| faq_asked(&t, lex, e, norm.question_mark || norm.follow_up)),
            question: faq::is_question(&t.chars, norm.question_mark, &lex.lists.question),
            has_slot,
            has_pref,
            place: matches!(slots.school, Some(Slot::One(_)))
                || matches!(slots.major, Some(Slot::One(_))),
            full_place: matches!(slots.school, Some(Slot::One(_)))
                && matches!(slots.major, Some(Slot::One(_))),
            direction: slots.direction.is_some(),
            jobs_question: is_question && lex.lists.place_jobs.occurs_in(&t.chars),
        },
    );

    let own_words_only = slots
        .direction
        .as_ref()
        .is_none_or(|d| !lex.directions.contains(d));
    if act == Act::None
        && is_question
        && own_words_only
        && slots.school.is_none()
        && slots.major.is_none()
        && unknown.school.is_none()
        && unknown.major.is_none()
        && refs.refs.is_empty()
        && !lex.lists.own_wish.occurs_in(&t.chars)
    {
        // A question that asks for nothing code answers, names no school,
        // major, known direction or advisor and speaks of no wish of the
        // student's own is about graduate study in general: its preference
        // words, and words read as a direction of its own, are its topic
        // ("研究生可以自己选课题吗", "学术会议一般谁出钱"), not a wish to
        // write into the form.
        prefs = preferences::Prefs::default();
        slots.direction = None;
    }

    let mut rejected: Vec<(usize, String)> =
        slots.rejected.into_iter().chain(prefs.rejected).collect();
    rejected.sort_by_key(|(pos, _)| *pos);
    // "不是北理的自动化，是北理的控制": a value negated and then said
    // again as the one meant is not rejected.
    let chosen: Vec<&String> = [&slots.school, &slots.major]
        .into_iter()
        .filter_map(|s| match s {
            Some(Slot::One(v)) => Some(v),
            _ => None,
        })
        .collect();
    let mut rejected_values: Vec<String> = Vec::new();
    for (_, v) in rejected {
        if !rejected_values.contains(&v) && !chosen.contains(&&v) {
            rejected_values.push(v);
        }
    }

    let degree_type = lex.enrollment.degree(&norm.text);
    let enrollment_year = lex.enrollment.year(&norm.text, enrollment::current_year());
    let mut a = Analysis {
        pair,
        normalized: norm.text,
        school: slots.school,
        major: slots.major,
        unknown_school: unknown.school,
        unknown_major: unknown.major,
        research_direction: slots.direction,
        personality: prefs.personality,
        research_style: prefs.research_style,
        funding: prefs.funding,
        degree_type,
        enrollment_year,
        rejected: rejected_values,
        correction,
        references: refs.refs,
        references_from: refs.from,
        act,
        faq: if act == Act::Faq {
            faq.map(|f| f.id.clone())
        } else {
            None
        },
        follow_up: norm.follow_up,
        postponed: postponed(&t, lex),
        unexplained: Vec::new(),
    };
    // What code read as a degree, a year or an unknown name was understood.
    a.unexplained = coverage::unexplained(&t, lex, faq.filter(|_| act == Act::Faq))
        .into_iter()
        .filter(|f| {
            lex.enrollment.degree(f).is_none()
                && lex.enrollment.year(f, enrollment::current_year()).is_none()
                && !a.enrollment_year.as_ref().is_some_and(|y| {
                    f.chars().all(|c| c.is_ascii_digit()) && y.ends_with(f.as_str())
                })
                && ![&a.unknown_school, &a.unknown_major]
                    .into_iter()
                    .flatten()
                    .any(|name| name.contains(f.as_str()))
        })
        .collect();
    if explicit_correction {
        taken_back(&t, lex, &corrections, &mut a);
    }
    if matches!(act, Act::Faq | Act::AboutPlace | Act::ReadBack) {
        // A question about a concept ("横向项目是什么") states no wish.
        a.research_direction = None;
        a.personality = None;
        a.research_style = None;
        a.funding = None;
        a.degree_type = None;
        a.enrollment_year = None;
        a.rejected.clear();
    }
    a
}
