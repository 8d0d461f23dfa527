//! The student-name rule: a title (师兄, 同学 …) with a Chinese name right
//! after or before it. Names are guessed from the surname list, so this
//! lives apart from the word-list rules; the advisor's own name is allowed.

use super::lexicon::words;
use super::{separator, Finding, RuleContext};
use crate::text::fold::Folded;
use app::policy::ContentRule;

const STUDENT: &str = "请不要写出其他学生的姓名。";

/// Another student by name: 师兄李明, 同学张伟, 王小红同学. The advisor's own
/// name is allowed; "师兄们", "师兄毕业后" are no names.
pub(super) fn students(compact: &Folded, ctx: &RuleContext, out: &mut Vec<Finding>) {
    let w = words();
    let text = compact.text.as_str();
    let advisor = Folded::new(&ctx.advisor_name).compact(separator).text;
    let cjk = |c: &char| ('\u{4e00}'..='\u{9fff}').contains(c);
    let name_at = |rest: &str| -> Option<String> {
        if w.not_name.iter().any(|n| rest.starts_with(n.as_str())) {
            return None;
        }
        let prefix = |n: usize| &rest[..rest.char_indices().nth(n).map_or(rest.len(), |c| c.0)];
        let surname = [prefix(2), prefix(1)]
            .into_iter()
            .find(|s| w.surnames.contains(*s))?;
        let given: String = rest[surname.len()..]
            .chars()
            .take_while(cjk)
            .take(2)
            .collect();
        if given.is_empty() {
            return None;
        }
        // A one-character given name is common; keep two only when the
        // second is not a word of its own ("李明说" → 李明).
        let mut name = format!("{surname}{given}");
        if given.chars().count() == 2 {
            let second = given.chars().nth(1).unwrap_or_default();
            if "说被跟和也都就在是让把对给又还很".contains(second) {
                name = format!("{surname}{}", given.chars().next().unwrap_or_default());
            }
        }
        (name != advisor && !advisor.starts_with(&name)).then_some(name)
    };
    let mut found = 0;
    for hit in w.titles.find(text) {
        if found >= 20 {
            break;
        }
        let mut push = |s: usize, e: usize| {
            let (start, end) = compact.origin(s, e);
            out.push(Finding {
                rule: ContentRule::NamesStudent,
                start,
                end,
                what: STUDENT,
            });
            found += 1;
        };
        if let Some(name) = name_at(&text[hit.end..]) {
            push(hit.start, hit.end + name.len());
            continue;
        }
        // "王小红同学": the name right before the title.
        let before: Vec<usize> = text[..hit.start]
            .char_indices()
            .rev()
            .take(3)
            .map(|(i, _)| i)
            .collect();
        for len in [3usize, 2] {
            if let Some(&from) = before.get(len - 1) {
                if let Some(name) = name_at(&text[from..hit.start]) {
                    if name.chars().count() == len {
                        push(from, hit.end);
                        break;
                    }
                }
            }
        }
    }
}
