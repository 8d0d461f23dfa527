//! What a student tells rather than judges: whose words run on through a
//! sentence, and the situations a sentence tells.
//!
//! - Someone else's words run on: "听说劳务费挺多的，出去开会也能报，就是
//!   设备比较老旧" is all hearsay. A clause after someone else's, in the
//!   same sentence, that judges by its own words and is not in the
//!   writer's own voice (`text::opinion::voice`: 我, 面试, 进组 …), goes on
//!   with their words, and so does one that tells a situation ("据说经费一分
//!   钱都没有，学生开会都得自己出钱": the rumour's, not the student's); a clause that says nothing of a topic neither joins
//!   nor ends them; a reaction with no topic ("这也太离谱了吧") stays the
//!   writer's. So the applicant's own impression, when it comes, wins over
//!   all of what they heard.
//! - Situations (`text::opinion::situations`): per sentence of the
//!   student's own words, what happened that any applicant reads as good
//!   or bad ("凌晨一点半老板在群里@我"); under a heading, it judges the
//!   heading's dimension ("关于就业：…暑假三个月都放"); an earlier state a
//!   later clause replaces is not told of now.
//! - Little money by the sum: a monthly sum in the hundreds set beside a
//!   costly city (`costly` in `coach.txt`: "每月800，在上海") is little
//!   (alone it needs a norm); said with 才/只/就 ("一个月只有三百") the
//!   student says so themselves.

use super::dimension::{Aspect, Dimension};
use crate::speech_act::Clause;
use crate::text::clauses::Link;
use crate::text::numbers;
use crate::text::opinion::{self, Judged, Statement, Topics};

/// Marks the clauses that go on with someone else's words as theirs.
pub fn hearsay_runs_on(topics: &Topics<Aspect>, clauses: &mut [Clause]) {
    let mut run: Option<usize> = None;
    for c in clauses.iter_mut() {
        if c.reported {
            run = Some(c.sentence);
            continue;
        }
        let goes_on = run == Some(c.sentence)
            && !c.refutes
            && matches!(c.link, Link::None | Link::Contrast)
            && !opinion::voice::own(&c.chars);
        if !goes_on {
            run = None;
        } else if !opinion::read(topics, &c.chars, None, false).is_empty()
            || !opinion::situations::find_in(&c.chars).is_empty()
        {
            c.reported = true;
        }
    }
}

/// "我在组里那几年补助很少，后来听师妹说现在涨了不少": a student who spoke
/// of their own time relays the present, which replaces it as their own
/// words of now would.
pub fn present_relayed(clauses: &mut [Clause]) {
    let mut own_then = false;
    for c in clauses.iter_mut() {
        if c.reported && c.now && own_then {
            c.reported = false;
        }
        own_then |= !c.reported && c.then;
    }
}

/// The situations the sentences tell: (dimension, value, whether someone
/// else's words tell it: "群里有人说…都是博后在带"), from the clauses about
/// the advisor. `headed`: the heading
/// each sentence's clauses were read under.
pub fn situations(
    clauses: &[Clause],
    headed: &[(usize, Option<Dimension>)],
) -> Vec<(Dimension, i8, bool)> {
    let replaced = |sentence: usize| {
        clauses.iter().any(|c| c.sentence == sentence && c.then)
            && clauses.iter().any(|c| c.sentence >= sentence && c.now)
    };
    let mut out = Vec::new();
    for (reported, sentence) in [false, true]
        .into_iter()
        .flat_map(|r| (0..=clauses.last().map_or(0, |c| c.sentence)).map(move |s| (r, s)))
    {
        if replaced(sentence) {
            continue;
        }
        // Clauses kept apart, so that a negator ending one does not turn
        // a word starting the next ("经费一分钱木有，开会都自己垫").
        let mut told: Vec<char> = Vec::new();
        // What another group or someone beside the advisor does is not
        // told of this one ("辅导员天天催").
        for c in clauses
            .iter()
            .filter(|c| c.sentence == sentence && c.reported == reported && !c.about_someone_else)
        {
            if !told.is_empty() {
                told.push(',');
            }
            told.extend(c.chars.iter().copied());
        }
        let under = headed
            .iter()
            .rev()
            .find(|(s, _)| *s == sentence)
            .and_then(|(_, d)| *d);
        for (key, v) in opinion::situations::find_in(&told) {
            if let Some(d) = under.or(Dimension::from_key(key)) {
                out.push((d, v, reported));
            }
        }
    }
    out
}

/// Whether the student's own clauses tell of little money by the sum:
/// `Some(true)` said as little by the student ("一个月只有三百"), a judgement
/// beside any other; `Some(false)` in the hundreds beside a costly city,
/// when nothing else judges the funding; `None` neither.
pub fn little_money(clauses: &[Clause], costly: &[String]) -> Option<bool> {
    let own = || clauses.iter().filter(|c| !c.reported);
    if own().any(|c| numbers::meagre_monthly(&c.chars)) {
        return Some(true);
    }
    let hundreds = own().any(|c| !numbers::monthly_hundreds(&c.chars).is_empty());
    let city = clauses.iter().any(|c| {
        let text: String = c.chars.iter().collect();
        costly.iter().any(|w| text.contains(w.as_str()))
    });
    (hundreds && city).then_some(false)
}

/// What a clause (of `chars`) that names and judges nothing tells by a sum
/// per month ("一个月八百", "补助，一个月三千"): the pay mentioned, a fact
/// that needs a norm; under a heading, the heading's dimension. After a
/// judgement of the pay (`carry`: "补助算高的，每月有四千") it adds nothing.
pub fn pay(
    chars: &[char],
    carry: Option<Aspect>,
    heading: Option<Dimension>,
) -> Option<Statement<Aspect>> {
    let continues_pay = carry == Some(Aspect::Dim(Dimension::Funding)) && heading.is_none();
    (numbers::monthly_sum(chars) && !continues_pay).then(|| Statement {
        topic: Aspect::Dim(heading.unwrap_or(Dimension::Funding)),
        judged: Judged::Mentioned,
    })
}
