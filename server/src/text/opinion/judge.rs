//! One clause's tokens judged: modifiers waiting for their judgement, the
//! topic each judgement binds to, lists, settings, counts and the degree of
//! a bad thing (see the module doc of `text::opinion`).

use super::words::{Demands, Token, Word};
use super::{Judged, Statement};

/// A modifier waiting for the judgement it applies to.
#[derive(Clone, Copy, Debug, Default)]
struct Pending {
    strong: bool,
    weak: bool,
    negator: Option<Word>,
    /// The negator says a thing is not there (没, 无), not that it is not so.
    existential: bool,
    quantity: Option<i8>,
    /// Where the last modifier ended (a modifier reaches a few characters).
    end: usize,
    /// A hedged negation of a negation ("不是不管", "并非没有经费"): it is
    /// so, but said grudgingly — middling.
    affirmed: bool,
    /// The negator denies (不是, 并非): before another negation it concedes.
    denial: bool,
}

/// How far (in characters of no term) a modifier reaches its judgement.
const REACH: usize = 4;

/// The value of a judgement word under the pending modifiers; `None` for an
/// activity nothing modified (a mention).
fn value(head: Word, p: &Pending) -> Option<i8> {
    let strong = p.strong;
    if p.affirmed && head.is_head() {
        return Some(0);
    }
    let v = match (p.negator, head) {
        (Some(Word::StrongNegator), Word::Positive | Word::Top | Word::Activity) => -2,
        (Some(Word::StrongNegator), Word::Negative | Word::Bottom | Word::Bad) => 1,
        // "算不上大牛", "不算顶尖", "不是大牛": short of the top is middling,
        // not bad.
        (Some(Word::HedgedNegator | Word::Negator), Word::Top) => 0,
        // "谈不上好", "算不上亲近": short of praise is middling too.
        (Some(Word::HedgedNegator), Word::Positive) => 0,
        (Some(Word::HedgedNegator), Word::Activity) => -1,
        (Some(Word::HedgedNegator), Word::Negative | Word::Bottom | Word::Bad) => 0,
        (Some(_), Word::Positive | Word::Top | Word::Activity) => -1,
        (Some(_), Word::Negative | Word::Bottom | Word::Bad) => 1,
        // "完全不够花", "不够用": a middling word negated falls short.
        (Some(Word::StrongNegator), Word::Hedge) => -2,
        (Some(Word::Negator), Word::Hedge) => -1,
        (_, Word::Hedge) => 0,
        // Few of a good thing ("没几个能按时走的"): criticism.
        (None, Word::Positive) if p.quantity.is_some_and(|q| q < 0) => {
            if strong {
                -2
            } else {
                -1
            }
        }
        (None, Word::Top) => 2,
        (None, Word::Bottom) => -2,
        (None, Word::Positive) => {
            if strong {
                2
            } else {
                1
            }
        }
        (None, Word::Negative) => {
            if strong {
                -2
            } else {
                -1
            }
        }
        (None, Word::Bad) => match p.quantity {
            Some(q) if q > 0 => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
            // Few of a bad thing: praise, strong when said strongly ("极少延毕").
            Some(_) => {
                if strong {
                    2
                } else {
                    1
                }
            }
            None => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
        },
        // How much of a good thing, with its degree as for any judgement:
        // "指导太少" criticises strongly, "指导特别多" praises strongly.
        (None, Word::Activity) => match p.quantity {
            Some(q) if q < 0 => {
                if strong {
                    -2
                } else {
                    -1
                }
            }
            Some(_) => {
                if strong {
                    2
                } else {
                    1
                }
            }
            None if strong => 2,
            None if p.weak => 1,
            None => return None,
        },
        _ => return None,
    };
    Some(v)
}

/// Characters that join two topics into one list ("学术和人品都很好",
/// "经费、设备"): a judgement of the list judges each of them.
const COORDINATORS: [&str; 8] = ["和", "与", "跟", "及", "以及", "、", "还有", "同"];

/// Characters after a topic that make it the setting of the clause, not
/// what it judges ("组会上经常挨批": the relationship, not the academic).
const SETTINGS: [char; 3] = ['上', '里', '中'];

/// Measure words between a count and the noun it counts ("两张卡", "五台
/// 服务器"); money's 块 / 元 count no noun after them.
const CLASSIFIERS: [char; 10] = ['张', '台', '个', '位', '名', '篇', '间', '套', '部', '件'];

/// A digit, or a Chinese numeral or unit (`text::numbers`): "十点多" is
/// a time, "一千多" a number, not "more".
fn numeral(c: char) -> bool {
    c.is_ascii_digit() || crate::text::numbers::is_cn_numeral(c)
}

/// The statements of one clause that neither asks nor does not know.
pub(super) fn judge<A: Copy + Eq>(
    tokens: &[Token<A>],
    chars: &[char],
    first: Option<A>,
    carry: Option<A>,
    demands: &Demands<A>,
) -> Vec<Statement<A>> {
    let mut out: Vec<Statement<A>> = Vec::new();
    let mention = |out: &mut Vec<Statement<A>>, topic: A| {
        if !out.iter().any(|s| s.topic == topic) {
            out.push(Statement {
                topic,
                judged: Judged::Mentioned,
            });
        }
    };
    // "不是大厂就是名校读博": either … or, nothing is negated.
    let either_or =
        chars.starts_with(&['不', '是']) && chars.windows(2).skip(2).any(|w| w == ['就', '是']);
    let mut current: Option<A> = None;
    // `current` was named by a heavy thing ("脾气"): more of it is worse.
    let mut current_heavy = false;
    // Where the last heavy word that is no topic ended ("毕业要求高").
    let mut heavy_end: Option<usize> = None;
    // Topics named as the setting or a qualifier of a statement ("组会上",
    // "论文的版面费"): said only if the clause judges nothing else.
    let mut settings: Vec<A> = Vec::new();
    // The topics of the list `current` ends ("学术和人品"), and where the
    // last topic ended.
    let mut group: Vec<A> = Vec::new();
    let mut topic_end: Option<(usize, usize)> = None;
    let mut pending = Pending::default();
    // The last judgement made, so a quantity after it can change it
    // ("延毕的特别多", "管得比较少"): (index in `out`, its word, where it
    // ended, its token).
    let mut last: Option<(usize, Word, usize, usize)> = None;
    // A judgement of `topic`, and of every other topic of its list.
    let push =
        |out: &mut Vec<Statement<A>>, topic: Option<A>, group: &[A], v: i8| -> Option<usize> {
            let topic = topic?;
            out.push(Statement {
                topic,
                judged: Judged::Value(v),
            });
            let at = out.len() - 1;
            if group.contains(&topic) {
                for other in group.iter().filter(|g| **g != topic) {
                    out.push(Statement {
                        topic: *other,
                        judged: Judged::Value(v),
                    });
                }
            }
            Some(at)
        };
    let text = |a: usize, b: usize| -> String { chars[a.min(b)..b].iter().collect() };
    // A long stretch or a total seen ("一学期", "一共"): a small count of
    // times after it is few ("一学期来画室两三次", "一共谈过两次").
    let mut period = false;
    // A clause that states a requirement ("要求", "才能毕业"): the good
    // thing in it is what is required ("要求两篇SCI一区", "发三篇一区才能
    // 毕业"), neither said nor judged.
    let requires = tokens.iter().any(|t| t.has(Word::Requires));
    // A demand ("要求"): where it (or the degree said of it) ended, and the
    // topic named before it, whose demand it is ("对论文要求很高").
    let mut demand: Option<(usize, Option<A>)> = None;
    // The last value pushed and where its word ended: an intensifier right
    // after it ("严得不得了") makes it strong.
    let mut last_value: Option<(usize, usize)> = None;
    for (k, t) in tokens.iter().enumerate() {
        period |= t.has(Word::Period);
        if requires && t.topic.is_some() && matches!(t.head(), Some(Word::Positive | Word::Top)) {
            continue;
        }
        // A count of times after a stretch counts only a thing done
        // ("一学期来两三次"), not how often a judgement held ("一学期见不到
        // 几次" is the 见不到).
        let seldom = period && t.has(Word::Times) && !t.has(Word::Down) && !t.has(Word::Up);
        let down = t.has(Word::Down) || seldom;
        // A negation reaches over whom it lets or does for ("从来不让我们
        // 给他干私活").
        let causative = pending.negator.is_some()
            && chars[pending.end.min(t.start)..t.start]
                .iter()
                .any(|c| matches!(c, '让' | '叫' | '给' | '替' | '帮'));
        let reach =
            REACH + if pending.quantity.is_some() { 2 } else { 0 } + if causative { 4 } else { 0 };
        if t.start > pending.end + reach {
            pending = Pending::default();
        }
        // "严得不得了", "好得要命": an intensifier after the judgement just
        // made makes it strong.
        if t.has(Word::After) && t.head().is_none() {
            if let Some((i, _)) = last_value.filter(|(_, end)| t.start <= end + 1) {
                if let Judged::Value(v) = out[i].judged {
                    if v != 0 {
                        out[i].judged = Judged::Value(2 * v.signum());
                    }
                }
                last_value = None;
                continue;
            }
        }
        if t.has(Word::Requires) {
            demand = Some((t.end, current));
        }
        // "对论文要求很高", "学术上很严格", "毕业要求比较高": how much is
        // demanded of a topic — rigor, praise, when the topic's demands are
        // rigor; weighing on it otherwise. Demands of no topic wait for a
        // word that says they are excessive ("要求高得离谱").
        let strict_after_rigor = t.has(Word::Strict)
            && pending.negator.is_none()
            && current.is_some_and(|c| demands.rigor.contains(&c))
            && topic_end.is_some_and(|(end, _)| t.start <= end + REACH);
        let demanded = demand
            .filter(|(end, _)| {
                (t.has(Word::Up) || t.has(Word::Strict))
                    && t.head().is_none()
                    && t.start <= end + REACH
            })
            .map(|(_, of)| of)
            .or(strict_after_rigor.then_some(current));
        if let Some(of) = demanded {
            let excessive = tokens[k + 1..]
                .iter()
                .take_while(|n| n.start <= t.end + REACH)
                .any(|n| matches!(n.head(), Some(Word::Negative | Word::Bottom)));
            if let (Some(a), false) = (of, excessive) {
                let rigor = demands.rigor.contains(&a);
                let v: i8 = match pending.negator {
                    Some(Word::HedgedNegator) => 0,
                    Some(_) => -1,
                    None if pending.strong => 2,
                    None => 1,
                };
                if let Some(i) = push(&mut out, Some(a), &[], if rigor { v } else { -v }) {
                    last_value = Some((i, t.end));
                }
            }
            demand = Some((t.end, of));
            pending = Pending::default();
            last = None;
            continue;
        }
        if let Some(a) = t.topic {
            let after_topic = topic_end.filter(|(end, j)| {
                t.start <= end + 3 && tokens[j + 1..k].iter().all(|n| n.words.is_empty())
            });
            if t.weak
                && after_topic.is_some_and(|(_, j)| tokens[j].topic != Some(a) && !tokens[j].weak)
            {
                // "毕业出去的人都挺好": the people of the topic just named,
                // not a topic of their own.
            } else if t.weak && t.head().is_some() && current.is_some() {
                // "毕业去向也挺nice的": a judging word that names a topic
                // when nothing else does ("导师超nice的") judges the topic
                // the clause is about.
            } else {
                let joined = topic_end.is_some_and(|(end, j)| {
                    tokens[j + 1..k].iter().all(|n| n.topic.is_none())
                        && COORDINATORS.contains(&text(end, t.start).as_str())
                });
                if !joined {
                    group.clear();
                }
                if !group.contains(&a) {
                    group.push(a);
                }
                current = Some(a);
                current_heavy = t.has(Word::Heavy);
                heavy_end = None;
                // (Not when 上/里/中 starts a word of its own: "学术中规中矩".)
                let setting = !t.weak
                    && chars.get(t.end).is_some_and(|c| SETTINGS.contains(c))
                    && tokens.get(k + 1).is_none_or(|n| n.start != t.end)
                    && !t.words.iter().any(|w| w.is_head());
                // "论文投稿的版面费": a topic that only qualifies the next one.
                let qualifies = !t.words.iter().any(|w| w.is_head())
                    && tokens[k + 1..]
                        .iter()
                        .find(|n| n.topic.is_some() || n.head().is_some())
                        .is_some_and(|n| {
                            // "对学生基本放手不管": or a judgement that names
                            // its own topic right after it.
                            !n.weak
                                && n.topic.is_some_and(|b| b != a)
                                && n.start <= t.end + 6
                                && (chars[t.end..n.start].contains(&'的')
                                    || (n.head().is_some() && n.start <= t.end + 3))
                        });
                if setting || qualifies {
                    settings.push(a);
                } else if !t.weak {
                    mention(&mut out, a);
                }
                topic_end = Some((t.end, k));
            }
        }
        if t.topic.is_none() && t.has(Word::Heavy) {
            heavy_end = Some(t.end);
        }
        let target = current.or(first).or(carry);
        let group = if current.is_some() { &group[..] } else { &[] };
        if t.has(Word::Neutral) && t.words.len() == 1 {
            continue;
        }
        let judged_next = |k: usize, end: usize| {
            tokens
                .get(k + 1)
                .filter(|n| n.start <= end + REACH)
                .is_some_and(|n| {
                    n.head().is_some()
                        || n.has(Word::Up)
                        || n.has(Word::Down)
                        // "没有不满意的": a negation of a negation.
                        || (n.start == end && n.words.iter().any(|w| w.is_negator()))
                })
        };
        // "从来不发劳务费", "根本不开组会": an absolute negation of a short
        // verb before a topic says the topic is not there, as 没 does.
        let never_verb = pending.negator == Some(Word::StrongNegator)
            && (pending.end + 1..=pending.end + 4).contains(&t.start)
            && tokens[..k].last().is_some_and(|p| p.end <= pending.end)
            && !chars[pending.end..t.start]
                .iter()
                .any(|c| matches!(c, '是' | '在' | '像' | '算'));
        // "基本没什么产出", "几乎没项目": a topic that 没 says is not there.
        if t.topic.is_some()
            && !t.weak
            && t.head().is_none()
            && (pending.existential || never_verb)
            && !judged_next(k, t.end)
        {
            let v = if pending.negator == Some(Word::StrongNegator) {
                -2
            } else {
                -1
            };
            push(&mut out, target, group, v);
            pending = Pending::default();
            continue;
        }
        // A word that negates or judges ("没有", "不给"): a negator when a
        // judgement follows closely, else a judgement.
        let next_head = judged_next(k, t.end);
        let negator = t
            .words
            .iter()
            .copied()
            .find(|w| w.is_negator())
            .filter(|_| !(either_or && t.start == 0));
        // "一个延毕的都没有", "加班的也没有": a 没 closing the clause after
        // the thing just judged says it is not there.
        if let (Some(n), Some((i, word, at, _))) = (negator, last) {
            let between = chars[at..t.start]
                .iter()
                .all(|c| matches!(c, '的' | '都' | '也' | '过' | '人' | '个' | '次'));
            let closes = chars[t.end..]
                .iter()
                .all(|c| matches!(c, '有' | '的' | '了' | '啊' | '呢' | '过'));
            let absent = chars[t.start..t.end]
                .iter()
                .any(|c| matches!(c, '没' | '无'));
            if n != Word::NotYet
                && absent
                && between
                && closes
                && t.start > at
                && matches!(
                    word,
                    Word::Bad | Word::Positive | Word::Top | Word::Activity
                )
            {
                if let Judged::Value(v) = out[i].judged {
                    out[i].judged = Judged::Value(if v > 0 { -1 } else { 1 });
                } else if word == Word::Activity {
                    out[i].judged = Judged::Value(-1);
                }
                pending = Pending::default();
                last = None;
                continue;
            }
        }
        if let Some(n) = negator {
            // "压力不大": a negated quantity at the end counts what came
            // before it, as "小" would.
            let count = (down || t.has(Word::Up)) && !next_head;
            if (next_head || t.head().is_none()) && !count {
                // "不是不管", "并非没有经费": a denial (不是, 并非) of a
                // negation is so, grudgingly — middling.
                if pending.negator == Some(Word::Negator)
                    && pending.denial
                    && matches!(n, Word::Negator | Word::StrongNegator)
                    && t.start <= pending.end + 1
                {
                    pending.negator = None;
                    pending.existential = false;
                    pending.affirmed = true;
                    pending.end = t.end;
                    continue;
                }
                // "没有不满意的": two plain negations say it is so.
                if pending.negator == Some(Word::Negator) && n == Word::Negator {
                    pending.negator = None;
                    pending.existential = false;
                    pending.end = t.end;
                    continue;
                }
                // "也不是说不好": a hedged negation of a negation too.
                if pending.negator == Some(Word::HedgedNegator)
                    && matches!(n, Word::Negator | Word::StrongNegator | Word::HedgedNegator)
                    && t.start <= pending.end + 1
                {
                    pending.negator = None;
                    pending.existential = false;
                    pending.affirmed = true;
                    pending.end = t.end;
                    continue;
                }
                pending.negator = Some(n);
                pending.denial = chars[t.start..t.end].contains(&'是')
                    || chars[t.start..t.end].starts_with(&['并', '非']);
                pending.existential = n != Word::NotYet
                    && chars[t.start..t.end]
                        .iter()
                        .any(|c| matches!(c, '没' | '无'));
                pending.end = t.end;
                continue;
            }
        }
        if t.has(Word::Strong) || t.has(Word::Weak) {
            if t.has(Word::Strong) {
                pending.strong = true;
            } else {
                pending.weak = true;
            }
            pending.end = t.end;
            if t.head().is_none() && !t.has(Word::Up) && !down {
                continue;
            }
        }
        // "谈不上多细致", "没多亲近": 多 right before a negated judgement
        // is "how", not a count.
        if t.head().is_none()
            && pending.negator.is_some()
            && t.end == t.start + 1
            && chars[t.start] == '多'
            && tokens
                .get(k + 1)
                .is_some_and(|n| n.start == t.end && n.head().is_some())
        {
            continue;
        }
        let quantity = if t.has(Word::Up) {
            Some(1)
        } else if down {
            Some(-1)
        } else {
            None
        };
        // "一千多", "十多个", "十点多": a number's "more than", not a count.
        let approximate = t.has(Word::Up)
            && t.start > 0
            && (numeral(chars[t.start - 1])
                || "万亿".contains(chars[t.start - 1])
                || ("点岁".contains(chars[t.start - 1])
                    && t.start >= 2
                    && numeral(chars[t.start - 2])));
        // (Not a count of rounds: "改二十多遍" is many.)
        let rounds = chars[t.start..t.end]
            .iter()
            .any(|c| matches!(c, '遍' | '轮'));
        if approximate && !rounds && t.head().is_none() {
            continue;
        }
        if let (Some(q), None) = (quantity, t.head()) {
            if seldom {
                let done_before = last.is_some_and(|(_, w, at, _)| {
                    w == Word::Activity && t.start <= at + REACH && pending.negator.is_none()
                });
                let done_after = tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH)
                    .find_map(|n| n.head())
                    == Some(Word::Activity);
                if !done_before && !done_after {
                    continue;
                }
            }
            // A quantity counts the bad thing or the activity just before it…
            if let Some((i, word @ (Word::Bad | Word::Activity), at, _)) = last {
                if t.start <= at + REACH {
                    // The count's own value, then its negation ("延毕不多":
                    // few, praise; "不算多": middling).
                    let p = Pending {
                        quantity: Some(q),
                        negator: None,
                        ..pending
                    };
                    if let Some(v) = value(word, &p) {
                        let v = match pending.negator {
                            Some(Word::HedgedNegator) => 0,
                            Some(_) => -v,
                            None => v,
                        };
                        out[i].judged = Judged::Value(v);
                    }
                    pending = Pending::default();
                    last = None;
                    continue;
                }
            }
            // … or the good thing just named ("出国交流机会特别多": more of
            // it, strongly said, is strong praise; "机会很少": criticism) …
            if let Some((i, Word::Positive, at, j)) = last {
                if tokens[j].topic.is_some() && t.start <= at + REACH {
                    let v = match (q > 0, pending.strong, pending.negator) {
                        (_, _, Some(Word::HedgedNegator)) => 0,
                        (true, _, Some(_)) => -1,
                        (true, true, None) => 2,
                        (true, false, None) => 1,
                        (false, _, Some(_)) => 1,
                        (false, true, None) => -2,
                        (false, false, None) => -1,
                    };
                    out[i].judged = Judged::Value(v);
                    pending = Pending::default();
                    last = None;
                    continue;
                }
            }
            // (How often a judgement held says no more: "把人说哭过好几次".)
            if last.is_some_and(|(_, _, at, _)| t.start <= at + REACH) {
                pending = Pending::default();
                last = None;
                continue;
            }
            // … or the bad thing or activity right after it ("很少延毕",
            // "很少有人延毕", "很少亲自带":
            // words that only name a topic may stand between) …
            // (Not a count right after its topic: "钱少事多" is little money,
            // then many chores, not few chores.)
            let predicate = k > 0
                && tokens[k - 1].topic.is_some()
                && tokens[k - 1].head().is_none()
                && t.start <= tokens[k - 1].end + 1;
            let bad_after = !predicate
                && tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH + 2)
                    .find(|n| n.head().is_some() || n.words.iter().any(|w| w.is_negator()))
                    .is_some_and(|n| match n.head() {
                        Some(Word::Bad | Word::Activity) => true,
                        // "没几个能按时走的", "很少有出国交流": a good fact counted.
                        Some(Word::Positive) => n.topic.is_some() && q < 0,
                        _ => false,
                    });
            if bad_after {
                pending.quantity = Some(q);
                pending.end = t.end;
                continue;
            }
            // "说过的事好多都没下文", "很多都去了大厂": a count before 都
            // that a judgement follows counts the things that judgement
            // is about ("many of them"), it judges nothing itself.
            let of_them = chars.get(t.end) == Some(&'都')
                && pending.negator.is_none()
                && tokens[k + 1..]
                    .iter()
                    .take_while(|n| n.start <= t.end + REACH + 2)
                    .any(|n| n.head().is_some());
            if of_them {
                pending = Pending::default();
                continue;
            }
            // … else the topic itself: "补助很少", "经费不多".
            let mag: i8 = if pending.strong { 2 } else { 1 };
            let v = match pending.negator {
                Some(Word::HedgedNegator) => 0,
                Some(Word::StrongNegator) if q > 0 => -2,
                Some(_) => -q,
                None => q * mag,
            };
            // "八个人只有两张卡", "才三台服务器": a count with a measure word
            // before a noun counts that noun, not the topic before it.
            let counted = tokens[k + 1..]
                .iter()
                .find(|n| n.topic.is_some() || n.head().is_some())
                .filter(|n| {
                    n.head().is_none()
                        && n.start == t.end + 1
                        && CLASSIFIERS.contains(&chars[t.end])
                })
                .and_then(|n| n.topic);
            let target = counted.or(target);
            let group = if counted.is_some() { &[][..] } else { group };
            // "脾气特别大": more of a heavy thing is worse.
            let heavy = (current_heavy && current == target)
                || heavy_end.is_some_and(|end| t.start <= end + REACH);
            let v = if heavy { -v } else { v };
            push(&mut out, target, group, v);
            pending = Pending::default();
            last = None;
            continue;
        }
        let Some(head) = t.head() else { continue };
        // "经费不是不够", "脾气不是不好": a denial of a negated word of
        // praise concedes it — middling.
        if pending.denial
            && pending.negator == Some(Word::Negator)
            && head == Word::Negative
            && matches!(chars[t.start], '不' | '没')
        {
            pending.negator = None;
            pending.affirmed = true;
        }
        // "想留院很难", "大厂很难进": how hard a good thing is to reach
        // judges it.
        if let Some((i, Word::Positive, at, j)) = last {
            let same = tokens[j].topic.is_some()
                && t.topic.is_none()
                && tokens[j + 1..k].iter().all(|n| n.topic.is_none());
            if head == Word::Negative && same && t.start <= at + REACH {
                if let Some(v) = value(head, &pending) {
                    out[i].judged = Judged::Value(v);
                }
                pending = Pending::default();
                last = None;
                continue;
            }
        }
        // How bad the bad thing just named is ("push得不算狠", "骂得很凶",
        // "加班还好"): the predicate's degree replaces the bad thing's own,
        // when nothing else was named between them.
        if let Some((i, Word::Bad, at, j)) = last {
            let predicate = matches!(
                head,
                Word::Positive | Word::Negative | Word::Hedge | Word::Top | Word::Bottom
            );
            let same = t.topic.is_none_or(|a| a == out[i].topic)
                && tokens[j + 1..k].iter().all(|n| n.topic.is_none());
            if predicate && same && t.start <= at + REACH {
                if let Some(v) = value(head, &pending) {
                    // "厉害" of a bad thing is how much of it, not praise;
                    // "放养挺好的" is the writer liking it.
                    let v = match head {
                        Word::Positive | Word::Top if t.has(Word::Degree) => -v,
                        _ => v,
                    };
                    out[i].judged = Judged::Value(v);
                }
                pending = Pending::default();
                last = None;
                continue;
            }
        }
        // "从不关心我们的就业": a judging word that names its own topic,
        // with another topic as its object (after 的), judges the object.
        let object = t
            .topic
            .filter(|_| !t.weak)
            .and_then(|_| {
                tokens[k + 1..]
                    .iter()
                    .find(|n| n.topic.is_some() || n.head().is_some())
            })
            .filter(|n| {
                !n.weak
                    && n.head().is_none()
                    && n.topic != t.topic
                    && n.start <= t.end + 5
                    && chars[t.end..n.start].last() == Some(&'的')
            })
            .and_then(|n| n.topic);
        let (target, group) = match object {
            Some(b) => (Some(b), &[][..]),
            None => (target, group),
        };
        // "要求太苛刻", "要求高得离谱": demands said to be excessive — of
        // no topic, or of one whose demands are rigor — criticise the
        // people who make them.
        let excess = demands.excess.filter(|_| {
            matches!(head, Word::Negative | Word::Bottom)
                && demand.is_some_and(|(end, of)| {
                    t.start <= end + REACH && of.is_none_or(|a| demands.rigor.contains(&a))
                })
        });
        let (target, group) = match excess {
            Some(a) => (Some(a), &[][..]),
            None => (target, group),
        };
        match value(head, &pending) {
            Some(v) => {
                let i = push(&mut out, target, group, v);
                last = i.map(|i| (i, head, t.end, k));
                last_value = i.map(|i| (i, t.end));
            }
            None => {
                // An activity with nothing on it yet: a mention that a
                // quantity after it may still judge.
                if let Some(a) = target {
                    out.push(Statement {
                        topic: a,
                        judged: Judged::Mentioned,
                    });
                    last = Some((out.len() - 1, head, t.end, k));
                }
            }
        }
        pending = Pending::default();
    }
    // "有的一篇都没有", "补助？根本没有": an absolute 没 that ends the
    // clause says what the clause is about is not there.
    if pending.negator == Some(Word::StrongNegator)
        && pending.existential
        && chars[pending.end..]
            .iter()
            .all(|c| matches!(c, '有' | '的' | '了' | '啊' | '呢'))
        && !out.iter().any(|s| matches!(s.judged, Judged::Value(_)))
    {
        push(&mut out, current.or(first).or(carry), &[], -2);
    }
    // "有的月份有，有的月份没有": some of it is there — said against
    // some of it not being there, the two are mixed.
    let some = chars
        .windows(2)
        .take(5)
        .any(|w| matches!(w, ['有', '的' | '些' | '时']));
    if some
        && chars.last() == Some(&'有')
        && !chars.ends_with(&['没', '有'])
        && pending.negator.is_none()
        && !out.iter().any(|s| matches!(s.judged, Judged::Value(_)))
    {
        push(&mut out, current.or(first).or(carry), &[], 1);
    }
    if !out.iter().any(|s| matches!(s.judged, Judged::Value(_))) {
        for a in settings {
            mention(&mut out, a);
        }
    } else {
        // "老板天天push我们发paper", "推荐的书对我写论文帮助很大": in a
        // clause that judges one topic, another topic named and judged by
        // nothing is what the judgement is about or acts on, not said.
        let judged: Vec<A> = out
            .iter()
            .filter(|s| matches!(s.judged, Judged::Value(_)))
            .map(|s| s.topic)
            .collect();
        out.retain(|s| s.judged != Judged::Mentioned || judged.contains(&s.topic));
    }
    out
}
