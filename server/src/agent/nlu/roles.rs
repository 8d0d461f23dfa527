//! Picks one meaning for a term that has several, from the words around it.
//!
//! Rules (first that applies wins):
//! 1. Major and direction ("人工智能", "AI", "通信", "网络安全"):
//!    - a direction word right after it (方向/领域/相关/这块…) → direction;
//!      a major word right after it (专业/系/学院…) → major;
//!    - right after a school (directly or across 的) → major;
//!    - otherwise the nearest cue before it in the same clause decides:
//!      做/研究/搞/从事/对…感兴趣 → direction; 考/读/报/申请/学/考研 → major;
//!      a direction or major joined to it by 和/或 (before or after) → the
//!      same role;
//!    - a value opening its clause right after a clause that ends in such a
//!      word ("方向：人工智能", "专业：AI") takes that role;
//!    - otherwise: a direction when the sentence already names another
//!      (unambiguous) major, else a major ("人工智能" alone is the major).
//! 2. Request and direction ("推荐" = recommend / 推荐系统): a direction only
//!    after a direction cue ("做推荐的"), otherwise the request.
//!    A major that is also a request's word (统计) is the major where a
//!    major stands (after a school, after 考/读, before 专业).
//! 3. School and major sharing an alias: the major when a major word
//!    follows, otherwise the school.
//! 4. Names after a background cue ("本科学的是…", "我是学…的") are the
//!    student's past, not a wish, and mean nothing here, up to a wish said
//!    in the same breath ("本科在杭州想考浙江大学").
//! 5. A school's short name where a major stands (after another school
//!    and 的 or 学, or after a pause as the last words, or joined to a major)
//!    that sounds just like a major is that
//!    major ("大工的华工", "华工或者材料": 化工 as a recognizer wrote it);
//!    `major_heard_as_school`, run before the sound pass.

use super::lexicon::{Cue, Lexicons, Tag};
use super::tokens::Text;
use crate::text::utterance::{DE, SEP};

/// How far back (in characters) a cue may stand and still decide a role.
const CUE_REACH: usize = 10;

/// Some(true) = direction, Some(false) = major, None = nothing nearby says.
fn direction_context(text: &Text, idx: usize, left_only: bool) -> Option<bool> {
    let tok = &text.tokens[idx];
    let (cs, ce) = text.clause(tok.start);
    if !left_only {
        let mut p = tok.end;
        if text.chars.get(p) == Some(&DE) && text.token_at(p).is_none() {
            p += 1;
        }
        if let Some(next) = text.token_at(p) {
            let next = &text.tokens[next];
            if next.has_cue(Cue::SuffixDirection) {
                return Some(true);
            }
            if next.has_cue(Cue::SuffixMajor) {
                return Some(false);
            }
        }
    }
    if let Some(next) = text.tokens[idx + 1..]
        .iter()
        .find(|t| !t.has_cue(Cue::Coord))
    {
        let joined = next.start > tok.end
            && next.end <= ce
            && (tok.end..next.start)
                .all(|p| text.cover[p].is_some_and(|c| text.tokens[c].has_cue(Cue::Coord)));
        if joined && !next.majors().is_empty() && next.direction().is_none() {
            return Some(false);
        }
    }
    // "方向：人工智能" — a clause that is only the slot's name, then the value.
    if tok.start == cs && cs > 0 {
        if let Some(prev) = text.tokens[..idx].last().filter(|p| p.end + 1 == cs) {
            if prev.has_cue(Cue::SuffixDirection) {
                return Some(true);
            }
            if prev.has_cue(Cue::SuffixMajor) {
                return Some(false);
            }
        }
    }
    // Right after a school, directly or across 的 ("北航人工智能", "北航
    // 的人工智能"), it is what the student would study there: the major,
    // whatever cue stands further back ("想做机器学习的话北航人工智能").
    let at = if tok.start > 0 && text.chars[tok.start - 1] == DE {
        tok.start - 1
    } else {
        tok.start
    };
    if text.tokens[..idx]
        .last()
        .is_some_and(|p| p.end == at && !p.schools().is_empty() && p.majors().is_empty())
    {
        return Some(false);
    }
    let interest_after = text.tokens[idx + 1..]
        .iter()
        .take_while(|t| t.end <= ce)
        .any(|t| t.has_cue(Cue::InterestClose));
    for j in (0..idx).rev() {
        let prev = &text.tokens[j];
        if prev.end <= cs || tok.start - prev.end > CUE_REACH {
            break;
        }
        if prev.has_cue(Cue::IntroDirection) || (prev.has_cue(Cue::InterestOpen) && interest_after)
        {
            return Some(true);
        }
        if prev.has_cue(Cue::IntroMajor) || prev.has_cue(Cue::WantExam) {
            return Some(false);
        }
        let joined = (prev.end..tok.start)
            .all(|p| text.cover[p].is_some_and(|c| text.tokens[c].has_cue(Cue::Coord)))
            && prev.end < tok.start;
        if joined && prev.direction().is_some() && prev.majors().is_empty() {
            return Some(true);
        }
        if joined && !prev.majors().is_empty() && prev.direction().is_none() {
            return Some(false);
        }
    }
    None
}

/// Names said after a background cue ("本科学的是人工智能") describe the
/// student's past, not the wish: they lose their meaning. A student going
/// on in the field they studied ("…想考北航接着读", `same_field`) keeps its
/// major and direction; one wanting that school ("我也想考他们",
/// `same_school`) keeps the school.
fn drop_background(text: &mut Text, lex: &Lexicons) {
    let same_field = lex.lists.same_field.occurs_in(&text.chars);
    let same_school = lex.lists.same_school.occurs_in(&text.chars);
    let past = |t: &mut super::tokens::Token| {
        t.tags.retain(|g| match g {
            Tag::School(_) => same_school,
            Tag::Major(_) | Tag::Direction(_) => same_field,
            _ => true,
        })
    };
    for i in 0..text.tokens.len() {
        if text.tokens[i].has_cue(Cue::Background) {
            let ce = past_end(text, lex, text.tokens[i].end);
            for t in text.tokens[i + 1..].iter_mut().take_while(|t| t.end <= ce) {
                past(t);
            }
        }
        // "我是南开毕业的", "华科本科毕业": the names before it in the
        // clause, up to someone else the cue may be said of ("浙大哪位老师
        // 的学生毕业去大厂": the students graduate, not the one asking).
        if text.tokens[i].has_cue(Cue::BackgroundAfter) {
            let cue = text.tokens[i].start;
            let (cs, _) = text.clause(cue);
            let chars = text.chars.clone();
            for t in text.tokens[..i]
                .iter_mut()
                .rev()
                .take_while(|t| t.start >= cs)
                .take_while(|t| {
                    !lex.lists
                        .other_subject
                        .occurs_in(&chars[t.end.min(cue)..cue])
                })
            {
                past(t);
            }
        }
    }
}

/// Where the past a background cue ending at `from` opens ends: at the
/// first wish said after it in the clause, else at the clause's end.
fn past_end(text: &Text, lex: &Lexicons, from: usize) -> usize {
    let (_, ce) = text.clause(from);
    (from..ce)
        .find(|&p| lex.lists.wish.prefix_at(&text.chars, p).is_some())
        .unwrap_or(ce)
}

/// Whether `pos` is in the student's past: after a background cue in its
/// clause and before any wish said after it, or before a background-after
/// cue ("南开毕业的").
pub(crate) fn in_background(text: &Text, lex: &Lexicons, pos: usize) -> bool {
    let (cs, ce) = text.clause(pos);
    text.tokens.iter().any(|t| {
        t.start >= cs
            && t.end <= ce
            && ((t.has_cue(Cue::Background) && t.end <= pos && pos < past_end(text, lex, t.end))
                || (t.has_cue(Cue::BackgroundAfter) && t.start > pos))
    })
}

/// A school's short name said where a major stands, that sounds just like
/// a major, is that major: a recognizer writes 化工 as 华工 ("大工的华工"),
/// and no one asks for two schools that way. Where a major stands: after
/// another school and 的, or right after it at the end of its clause
/// ("天大华工，…"), or after it and a pause as the last words said ("浙大，
/// 华工"), with no major named, or joined to a major by 和/或者
/// ("华工或者材料"). The same characters said again in the message
/// ("…华工吧") are that major too. Runs before the sound pass, so that the
/// school written in other characters beside it (大功 for 大工) is looked
/// for as the school still missing.
pub(crate) fn major_heard_as_school(text: &mut Text, lex: &Lexicons) {
    let majors_named = text.tokens.iter().any(|t| !t.majors().is_empty());
    // Tokens a and b with a joining word between them.
    let joined = |text: &Text, a: usize, b: usize| {
        let t = &text.tokens;
        t[a].end < t[b].start && text.joined(t[a].end, t[b].start)
    };
    let joined_to_a_major = |text: &Text, idx: usize| {
        let t = &text.tokens;
        (idx >= 2 && joined(text, idx - 2, idx) && !t[idx - 2].majors().is_empty())
            || (idx + 2 < t.len() && joined(text, idx, idx + 2) && !t[idx + 2].majors().is_empty())
    };
    let mut heard_as: Vec<(Vec<char>, Tag)> = Vec::new();
    for idx in 0..text.tokens.len() {
        let tok = &text.tokens[idx];
        if tok.schools().is_empty() {
            continue;
        }
        // Another school ends at `at`.
        let school_ends_at = |at: usize| {
            text.tokens[..idx]
                .iter()
                .any(|p| p.end == at && !p.schools().is_empty() && p.schools() != tok.schools())
        };
        let after_school_de = !majors_named
            && tok.start >= 1
            && text.chars[tok.start - 1] == DE
            && school_ends_at(tok.start - 1);
        // "天大华工，…": right after another school, alone in the rest of
        // its clause (not "北大同济都行", a list of two schools).
        let after_school = !majors_named
            && school_ends_at(tok.start)
            && (text.at_clause_end(tok.end) || text.chars.get(tok.end) == Some(&DE));
        // "浙大，华工": the school, a pause the recognizer wrote as a comma,
        // then the name alone at the end of the message, with nothing that
        // offers the two as options (not "浙大，华工，都行").
        let after_a_pause = !majors_named
            && tok.start >= 1
            && text.chars[tok.start - 1] == SEP
            && school_ends_at(tok.start - 1)
            && text.clause(tok.start) == (tok.start, tok.end)
            && text.chars[tok.end..].iter().all(|&c| c == SEP)
            && !text.tokens.iter().any(|t| t.has_cue(Cue::Alternative));
        // "北洋大学学华工": right after another school and the verb of
        // study (学, 读), alone in the rest of its clause.
        let after_school_study = !majors_named
            && text.tokens[..idx].iter().any(|p| {
                p.end == tok.start && p.has_cue(Cue::IntroMajor) && school_ends_at(p.start)
            })
            && (text.at_clause_end(tok.end) || text.chars.get(tok.end) == Some(&DE));
        if !after_school_de
            && !after_school
            && !after_school_study
            && !after_a_pause
            && !joined_to_a_major(text, idx)
        {
            continue;
        }
        let (start, end) = (tok.start, tok.end);
        let heard = lex
            .sound
            .find(&text.chars[start..end], |_| true)
            .into_iter()
            .find(|m| {
                m.close && m.start == 0 && m.end == end - start && matches!(m.value, Tag::Major(_))
            });
        if let Some(m) = heard {
            text.tokens[idx].tags = vec![m.value];
            heard_as.push((text.chars[start..end].to_vec(), m.value));
        }
    }
    for tok in text.tokens.iter_mut() {
        if tok.schools().is_empty() {
            continue;
        }
        let said = &text.chars[tok.start..tok.end];
        if let Some((_, tag)) = heard_as.iter().find(|(chars, _)| chars[..] == *said) {
            tok.tags = vec![*tag];
        }
    }
}

/// Rewrites the tags of every multi-meaning token to the one meaning that applies.
pub(crate) fn resolve(text: &mut Text, lex: &Lexicons) {
    drop_background(text, lex);
    // A major said after a correction replaces the one before it ("北邮软件
    // 工程，不是，是网安"): only a major on its own side of the correction
    // makes it a direction.
    let corrections = super::correction::read(text, lex, &[]);
    let corrected_at = corrections.last_end.filter(|_| corrections.said_last);
    let pure_majors: Vec<usize> = text
        .tokens
        .iter()
        .filter(|t| !t.majors().is_empty() && t.direction().is_none() && t.schools().is_empty())
        .map(|t| t.start)
        .collect();
    for idx in 0..text.tokens.len() {
        let tok = &text.tokens[idx];
        let has_dir = tok.direction().is_some();
        let has_major = !tok.majors().is_empty();
        let has_school = !tok.schools().is_empty();
        let has_act = tok.is_act_cue();
        let side = |p: usize| corrected_at.is_some_and(|c| p >= c);
        let pure_major = pure_majors.iter().any(|&p| side(p) == side(tok.start));
        let keep_direction = if has_dir && has_major {
            Some(direction_context(text, idx, false).unwrap_or(pure_major))
        } else if has_dir && has_act {
            Some(direction_context(text, idx, true) == Some(true))
        } else {
            None
        };
        let tags = &mut text.tokens[idx].tags;
        match keep_direction {
            Some(true) => tags.retain(|t| matches!(t, Tag::Direction(_))),
            Some(false) => tags.retain(|t| !matches!(t, Tag::Direction(_))),
            None => {}
        }
        // "我想考人大的统计": a major that is also a request's word (统计,
        // the figures) is the major where a major stands: after a school,
        // after 考/读, or before 专业.
        if has_major && has_act && direction_context(text, idx, false) == Some(false) {
            text.tokens[idx]
                .tags
                .retain(|t| !matches!(t, Tag::Cue(c) if c.is_act()));
        }
        if has_school && has_major {
            let major_follows = text
                .token_at(text.tokens[idx].end)
                .is_some_and(|n| text.tokens[n].has_cue(Cue::SuffixMajor));
            text.tokens[idx].tags.retain(|t| {
                matches!(t, Tag::Major(_)) == major_follows
                    || !matches!(t, Tag::School(_) | Tag::Major(_))
            });
        }
    }
}
