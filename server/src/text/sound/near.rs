//! Names a stretch of text may have been, by a measure looser than
//! [`SoundIndex::find`]: not to fill anything with, but to tell a
//! recognizer what to listen for when it hears the recording again.
//!
//! `find` must be sure, because what it finds goes into the form: two
//! syllables must be homophones, three may have one near miss. A
//! recognizer that wrote 华库网案 for 华科网安 or 济江林床 for 西交临床 wrote
//! syllables too far from any name for that. But the names within about
//! one more syllable are few, and the recognizer, told them, can weigh
//! them against the sound itself, which the text no longer holds. So
//! this returns the few names nearest each stretch, of the groups asked
//! for, and leaves the choice to the recording.

use super::syllable::{
    same_onset, sounded, substitution, syllable, Syllable, SAME_READING, SAME_SOUND,
};
use super::{han_runs, tolerance, SoundIndex};

/// A name some stretch of the text may have been.
#[derive(Clone, Debug, PartialEq)]
pub struct Near<T> {
    /// The name as the index holds it (an alias where the alias was near).
    pub name: String,
    pub value: T,
    /// Its edit distance by sound to the stretch nearest it.
    pub distance: f32,
}

/// How much further than [`tolerance`] a name is still near: a syllable
/// heard as another, plus a near miss.
const SLACK: f32 = 1.0 + 0.35;
/// How far a name of `n` syllables none of whose characters was written
/// may be: one syllable heard as another, the others in their own
/// readings or in the sounds Mandarin speakers and recognizers merge (林城
/// for 临床, 凌晨 for 临床: ling for lin, as in/ing are).
fn unwritten_reach(n: usize) -> f32 {
    1.0 + SAME_SOUND * n.saturating_sub(1) as f32
}

impl<T: Clone + PartialEq> SoundIndex<T> {
    /// The names of `group` nearest the Han stretches of `text` where
    /// `free(i)` (at most `most`, nearest first, one per value). A name
    /// is near a stretch when
    /// - it is within its tolerance plus [`SLACK`] of it, and at least one
    ///   of its distinctive syllables is heard there (at least as a near
    ///   miss: 大学 alone is no school);
    /// - one of its characters is written there (华库 for 华科), or else
    ///   all its syllables but one are heard in their own readings (林城
    ///   for 临床): a stretch sharing neither a character nor the sounds
    ///   (考个 for 华科) is some other word;
    /// - a syllable heard as another entirely keeps its initial ([`Window`]);
    /// - the stretch is as many characters as the name has syllables
    ///   ([`Window`]), and, like `find`, not the name as written.
    ///
    /// Of names as near, the one with more of its characters written comes
    /// first; a name two entries share (华师) is given once.
    pub fn nearest(
        &self,
        text: &[char],
        free: impl Fn(usize) -> bool,
        group: u8,
        most: usize,
    ) -> Vec<Near<T>> {
        let derived = self.derived();
        let stretches: Vec<Vec<Syllable>> = han_runs(text, free)
            .into_iter()
            .map(|(start, end)| {
                text[start..end]
                    .iter()
                    .map(|&c| syllable(c, false))
                    .collect()
            })
            .collect();
        let mut found: Vec<(f32, usize, Near<T>)> = Vec::new();
        for (id, e) in self.entries.iter().enumerate() {
            if e.group != group {
                continue;
            }
            let len = e.syllables.len();
            let distinct = derived.distinct_bits[id];
            let reach = tolerance(len) + SLACK;
            let best = stretches
                .iter()
                .flat_map(|heard| heard.windows(len))
                .filter_map(|window| Window::of(&e.syllables, distinct, window))
                .filter(|w| {
                    w.distance <= reach + 1e-4
                        && (distinct == 0 || w.heard_distinct >= 1)
                        && (w.same >= 1 || w.distance <= unwritten_reach(len) + 1e-4)
                        && w.same < len
                })
                .min_by(|a, b| a.distance.total_cmp(&b.distance).then(b.same.cmp(&a.same)));
            if let Some(w) = best {
                let name: String = e.syllables.iter().map(|s| s.ch).collect();
                found.push((
                    w.distance,
                    w.same,
                    Near {
                        name,
                        value: e.value.clone(),
                        distance: w.distance,
                    },
                ));
            }
        }
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut out: Vec<Near<T>> = Vec::new();
        for (_, _, near) in found {
            if out.len() == most {
                break;
            }
            if !out
                .iter()
                .any(|n| n.value == near.value || n.name == near.name)
            {
                out.push(near);
            }
        }
        out
    }
}

/// A stretch of the text written otherwise than an entry it reads as.
#[derive(Clone, Debug, PartialEq)]
pub struct Homophone<T> {
    /// Character positions `[start, end)` in the text.
    pub start: usize,
    pub end: usize,
    pub value: T,
    /// Characters of the stretch that are the entry's own.
    pub same: usize,
}

impl<T: Clone + PartialEq> SoundIndex<T> {
    /// Every stretch of `text` (over characters where `free(i)`) that
    /// reads, character by character, with the toneless syllables of an
    /// entry of as many characters, without being written as it: 向考 for
    /// 想考, 资讯 for 咨询.
    pub fn homophones(&self, text: &[char], free: impl Fn(usize) -> bool) -> Vec<Homophone<T>> {
        let heard: Vec<Syllable> = text.iter().map(|&c| syllable(c, false)).collect();
        let mut out = Vec::new();
        for e in &self.entries {
            let len = e.syllables.len();
            for start in 0..text.len().saturating_sub(len - 1) {
                if !(start..start + len).all(|i| free(i) && sounded(text[i])) {
                    continue;
                }
                let costs = e.syllables.iter().zip(&heard[start..start + len]);
                if costs
                    .clone()
                    .all(|(a, b)| substitution(a, b) <= SAME_READING)
                {
                    let same = costs.filter(|(a, b)| a.ch == b.ch).count();
                    if same < len {
                        out.push(Homophone {
                            start,
                            end: start + len,
                            value: e.value.clone(),
                            same,
                        });
                    }
                }
            }
        }
        out
    }
}

/// A name laid over a stretch of as many characters, syllable by
/// syllable. A recognizer that mishears a name writes as many syllables as
/// it heard; a name with one dropped or added is `find`'s to weigh.
struct Window {
    distance: f32,
    /// Characters the name's own.
    same: usize,
    /// Distinctive syllables heard at least as a near miss.
    heard_distinct: usize,
}

impl Window {
    /// `None` where a syllable heard as something else entirely does not
    /// even begin the same way: 华库 is near 华科 (k kept), not 华工 or 华师.
    fn of(want: &[Syllable], distinct: u16, heard: &[Syllable]) -> Option<Window> {
        let mut w = Window {
            distance: 0.0,
            same: 0,
            heard_distinct: 0,
        };
        for (i, (a, b)) in want.iter().zip(heard).enumerate() {
            let cost = substitution(a, b);
            if cost >= 1.0 && !same_onset(a, b) {
                return None;
            }
            w.distance += cost;
            w.same += usize::from(cost == 0.0);
            w.heard_distinct += usize::from(cost < 1.0 && distinct >> i & 1 == 1);
        }
        Some(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> SoundIndex<&'static str> {
        let mut s = SoundIndex::new();
        for (name, value) in [
            ("华中科技大学", "华中科技大学"),
            ("华科", "华中科技大学"),
            ("华东师范大学", "华东师范大学"),
            ("华师", "华东师范大学"),
            ("华南理工大学", "华南理工大学"),
            ("华工", "华南理工大学"),
            ("西安交通大学", "西安交通大学"),
            ("西交", "西安交通大学"),
            ("北京大学", "北京大学"),
            ("北大", "北京大学"),
            ("浙江大学", "浙江大学"),
            ("浙大", "浙江大学"),
            ("复旦大学", "复旦大学"),
            ("南京大学", "南京大学"),
            ("南大", "南京大学"),
            ("四川大学", "四川大学"),
            ("川大", "四川大学"),
            ("同济大学", "同济大学"),
            ("厦门大学", "厦门大学"),
            ("厦大", "厦门大学"),
            ("南开大学", "南开大学"),
            ("天津大学", "天津大学"),
            ("天大", "天津大学"),
            ("吉林大学", "吉林大学"),
            ("武汉大学", "武汉大学"),
            ("武大", "武汉大学"),
            ("山东大学", "山东大学"),
            ("山大", "山东大学"),
        ] {
            s.insert_in(name, value, 0);
        }
        for (name, value) in [
            ("临床医学", "临床医学"),
            ("临床", "临床医学"),
            ("网络空间安全", "网络空间安全"),
            ("网安", "网络空间安全"),
            ("法律硕士", "法律硕士"),
            ("法硕", "法律硕士"),
        ] {
            s.insert_in(name, value, 1);
        }
        s
    }

    fn near(text: &str, group: u8) -> Vec<&'static str> {
        let chars: Vec<char> = text.chars().collect();
        index()
            .nearest(&chars, |_| true, group, 2)
            .into_iter()
            .map(|n| n.value)
            .collect()
    }

    #[test]
    fn names_a_syllable_or_so_away_are_near() {
        // 华科 keeps the k of 库; 华工 and 华师 begin otherwise.
        assert_eq!(near("华库网案", 0), ["华中科技大学"]);
        assert_eq!(near("华库网案", 1)[0], "网络空间安全");
        assert_eq!(near("舅船大先看看", 0)[0], "四川大学");
        assert_eq!(near("济江林床", 1), ["临床医学"]);
        assert_eq!(near("武大的法设", 1), ["法律硕士"]);
    }

    #[test]
    fn nothing_is_near_words_that_share_no_distinctive_sound() {
        assert!(near("好的谢谢", 0).is_empty());
        assert!(near("好的谢谢", 1).is_empty());
        // 大学 alone is no school.
        assert_eq!(near("我想考个大学", 0), Vec::<&str>::new());
        // Neither a character nor the sounds: 济江 is not 西交.
        assert_eq!(near("济江", 0), Vec::<&str>::new());
        // 物理 is not heard in one character of 土物.
        assert_eq!(near("土物", 1), Vec::<&str>::new());
        // A name written as itself is `find`'s, not a near miss.
        let written: Vec<char> = "北大".chars().collect();
        let near = index().nearest(&written, |_| true, 0, 8);
        assert!(near.iter().all(|n| n.name != "北大"), "{near:?}");
    }
}
