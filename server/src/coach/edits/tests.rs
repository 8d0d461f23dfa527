//! The edits as students say them (`edits.rs`).

use super::super::reader::Reader;
use super::*;

fn edited(start: [u8; 4], say: &str) -> [u8; 4] {
    edited_after(start, &[], say)
}

/// `edited` after earlier messages' edits of the same draft, which a
/// restore undoes.
fn edited_after(start: [u8; 4], before: &[&str], say: &str) -> [u8; 4] {
    let r = Reader::load();
    let mut s = Scores::default();
    for (d, v) in Dimension::ALL.into_iter().zip(start) {
        s.set(d, v);
    }
    let proposed = s.clone();
    for m in before.iter().chain([&say]) {
        apply(&mut s, &r.edits(m, None), &proposed);
    }
    Dimension::ALL.map(|d| s.get(d))
}

#[test]
fn going_back_undoes_an_earlier_turns_edits() {
    assert_eq!(
        edited_after([3, 3, 3, 3], &["钱改成两分"], "算了算了，钱还是改回去吧"),
        [3, 3, 3, 3]
    );
    assert_eq!(
        edited_after(
            [4, 3, 4, 3],
            &["关系改成2分", "经费也降一分"],
            "算了还是按你原来的吧，我再想想"
        ),
        [4, 3, 4, 3]
    );
    assert_eq!(
        edited_after([3, 4, 2, 3], &["经费改成5分"], "前面那个改动不要了"),
        [3, 4, 2, 3]
    );
    // Only what is named goes back; a new number in the same message counts.
    assert_eq!(
        edited_after([3, 3, 3, 3], &["钱改成两分", "学术给5分"], "钱还是原来的吧"),
        [5, 3, 3, 3]
    );
    assert_eq!(
        edited_after(
            [3, 3, 3, 3],
            &["钱改成两分"],
            "不对不对，刚才那个撤回，只把学术改成四"
        ),
        [4, 3, 3, 3]
    );
}

#[test]
fn several_dimensions_each_with_its_own_number() {
    assert_eq!(edited([3, 3, 3, 4], "经费改成2分，学术给5分"), [5, 2, 3, 4]);
    assert_eq!(
        edited([3, 3, 3, 3], "学术4分，经费2分，关系5分"),
        [4, 2, 5, 3]
    );
    assert_eq!(
        edited([4, 4, 4, 4], "学术改成3，经费改成2，关系改成5，前途改成1"),
        [3, 2, 5, 1]
    );
    assert_eq!(edited([2, 2, 2, 2], "師生關係改成五分"), [2, 2, 5, 2]);
    assert_eq!(edited([3, 3, 4, 4], "经费给3星，前途给一分"), [3, 3, 4, 1]);
}

#[test]
fn relative_all_and_words_for_scores() {
    assert_eq!(edited([4, 3, 4, 3], "师生关系打低一点"), [4, 3, 3, 3]);
    assert_eq!(edited([3, 2, 4, 4], "经费高一分"), [3, 3, 4, 4]);
    assert_eq!(edited([5, 4, 3, 4], "学术降两分"), [3, 4, 3, 4]);
    assert_eq!(edited([4, 2, 5, 3], "都改成3"), [3, 3, 3, 3]);
    assert_eq!(edited([2, 3, 4, 5], "全部4分"), [4, 4, 4, 4]);
    assert_eq!(edited([3, 4, 3, 3], "前途满分"), [3, 4, 3, 5]);
    assert_eq!(edited([4, 4, 2, 4], "关系及格就行"), [4, 4, 3, 4]);
    assert_eq!(edited([5, 3, 4, 4], "学术再高点"), [5, 3, 4, 4]);
    assert_eq!(
        edited([1, 3, 3, 3], "经费减一分，学术再低一点"),
        [1, 2, 3, 3]
    );
    assert_eq!(
        edited([3, 2, 3, 4], "学术高一分 经费也高一分"),
        [4, 3, 3, 4]
    );
}

#[test]
fn a_student_correcting_an_edit_as_they_go_is_read_as_corrected() {
    // A mistake taken back, with new numbers after it.
    assert_eq!(
        edited(
            [3, 2, 4, 4],
            "前途改成5——等等，说错了，我想改的是学术，学术5，前途保持原样"
        ),
        [5, 2, 4, 4]
    );
    // Second thoughts with no numbers take nothing back.
    assert_eq!(
        edited([3, 2, 2, 3], "全部4分吧 想了想也没那么差"),
        [4, 4, 4, 4]
    );
    // One move said twice is one move; "再" adds another.
    assert_eq!(
        edited(
            [3, 2, 4, 3],
            "经费我想给高点，补助虽然少但报销很快。加一分吧。"
        ),
        [3, 3, 4, 3]
    );
    assert_eq!(edited([4, 4, 4, 3], "前途加一分，再加一分"), [4, 4, 4, 5]);
    // A rating in stars.
    assert_eq!(
        edited([3, 3, 3, 3], "学术★★★★★，经费★★★★☆，关系★★☆☆☆"),
        [5, 4, 2, 3]
    );
}

#[test]
fn stars_added_or_taken_are_relative_within_one_to_five() {
    let start = [3, 3, 4, 3];
    for (say, want) in [
        ("关系再加一颗星", [3, 3, 5, 3]),
        ("关系加颗星", [3, 3, 5, 3]),
        ("关系再加一星", [3, 3, 5, 3]),
        ("关系多给一颗星", [3, 3, 5, 3]),
        ("关系加个星", [3, 3, 5, 3]),
        ("关系加星", [3, 3, 5, 3]),
        ("关系加1颗星", [3, 3, 5, 3]),
        ("关系减一颗星", [3, 3, 3, 3]),
        ("关系少一颗星", [3, 3, 3, 3]),
        ("关系扣一星", [3, 3, 3, 3]),
        ("关系扣掉一分", [3, 3, 3, 3]),
        ("关系少给一颗星", [3, 3, 3, 3]),
        ("关系降一档", [3, 3, 3, 3]),
        ("关系降个档", [3, 3, 3, 3]),
        ("关系下调一档", [3, 3, 3, 3]),
        ("学术上调一档", [4, 3, 4, 3]),
        ("学术升一级", [4, 3, 4, 3]),
        ("学术涨一分", [4, 3, 4, 3]),
        ("学术加上一分", [4, 3, 4, 3]),
        ("经费减两颗星", [3, 1, 4, 3]),
        ("经费扣两星", [3, 1, 4, 3]),
        ("前途多给两颗星", [3, 3, 4, 5]),
        ("前途加贰颗星", [3, 3, 4, 5]),
        ("學術再加一顆星", [4, 3, 4, 3]),
        ("学术+1", [4, 3, 4, 3]),
        ("经费-1", [3, 2, 4, 3]),
        ("经费-1分，前途+2", [3, 2, 4, 5]),
        ("都加一颗星", [4, 4, 5, 4]),
        ("全部扣一星", [2, 2, 3, 2]),
        ("学术加一颗星，经费少一颗星", [4, 2, 4, 3]),
    ] {
        assert_eq!(edited(start, say), want, "{say}");
    }
    // Caps: never above 5 or below 1.
    assert_eq!(edited([5, 1, 5, 1], "学术再加一颗星"), [5, 1, 5, 1]);
    assert_eq!(edited([5, 1, 5, 1], "经费再扣一星"), [5, 1, 5, 1]);
    assert_eq!(edited([5, 2, 5, 1], "经费减两颗星"), [5, 1, 5, 1]);
    assert_eq!(edited([4, 3, 5, 3], "关系再加两颗星"), [4, 3, 5, 3]);
    // A range is not a minus, a star given is not a star added.
    assert_eq!(edited(start, "关系给一颗星"), [3, 3, 1, 3]);
    assert_eq!(edited(start, "关系一颗星"), [3, 3, 1, 3]);
}

#[test]
fn colloquial_verbs_set_the_number_they_name() {
    let start = [4, 3, 3, 3];
    for (say, want) in [
        ("学术那个太高了，改成3，经费给个4", [3, 4, 3, 3]),
        ("经费给个4", [4, 4, 3, 3]),
        ("经费给个4分", [4, 4, 3, 3]),
        ("经费给个四", [4, 4, 3, 3]),
        ("经费打个2", [4, 2, 3, 3]),
        ("经费打个两分", [4, 2, 3, 3]),
        ("经费打一个2", [4, 2, 3, 3]),
        ("经费来个5星", [4, 5, 3, 3]),
        ("经费来个五", [4, 5, 3, 3]),
        ("经费来个5吧", [4, 5, 3, 3]),
        ("经费给4吧", [4, 4, 3, 3]),
        ("经费改2", [4, 2, 3, 3]),
        ("经费改成二", [4, 2, 3, 3]),
        ("经费就给个1吧", [4, 1, 3, 3]),
        ("经费弄成2", [4, 2, 3, 3]),
        ("经费降到2", [4, 2, 3, 3]),
        ("经费提到5", [4, 5, 3, 3]),
        ("经费调到5就行", [4, 5, 3, 3]),
        ("经费改成个2", [4, 2, 3, 3]),
        ("經費給個二", [4, 2, 3, 3]),
        ("经费4就行", [4, 4, 3, 3]),
        ("都给个4", [4, 4, 4, 4]),
        ("学术给个5，关系打个2，前途来个四", [5, 3, 2, 4]),
    ] {
        assert_eq!(edited(start, say), want, "{say}");
    }
}

#[test]
fn no_edit_where_no_number_is_given() {
    let r = Reader::load();
    for say in [
        "学术水平很高",
        "补助每个月三千",
        "组会每周一次",
        "十分认真",
        "一分钱都没有",
        "给个机会",
        "给三个学生发补助",
        "加个班",
        "组里来了两个博后",
        "老师提到3个方向",
        "补助3-4千",
        "整个组5个人",
    ] {
        assert!(r.edits(say, None).is_empty(), "{say}");
    }
    assert_eq!(
        r.edits("3分", Some(Dimension::Funding)),
        [Edit::Set(Dimension::Funding, 3)]
    );
}

#[test]
fn a_score_alone_in_its_clause_is_for_the_dimension_named_before() {
    // After a complaint about the score, a settling word, or a correction.
    assert_eq!(edited([4, 4, 4, 3], "经费别给那么低，3吧"), [4, 3, 4, 3]);
    assert_eq!(
        edited([4, 4, 3, 3], "前途改成3，不对说错了，还是2吧"),
        [4, 4, 3, 2]
    );
    assert_eq!(
        edited([4, 4, 3, 3], "学术改成5，哦不，还是4吧"),
        [4, 4, 3, 3]
    );
    // Every score at once.
    assert_eq!(edited([3, 4, 3, 4], "都挺好的，全给4"), [4, 4, 4, 4]);
    // A number alone, as a post's list numbers its points, is no score.
    assert_eq!(edited([4, 4, 3, 3], "学术还行，2"), [4, 4, 3, 3]);
}

#[test]
fn a_post_s_lines_of_scores() {
    // A bare number after a name and a colon; 师生 for the relationship.
    assert_eq!(
        edited(
            [3, 3, 3, 3],
            "学术水平：5\n科研经费：4\n师生：2/5\n学生前途：3"
        ),
        [5, 4, 2, 3]
    );
    // The whole's score is no dimension's.
    assert_eq!(
        edited([3, 3, 3, 3], "经费：5/5 设备新\n整体：3/5"),
        [3, 5, 3, 3]
    );
    assert_eq!(
        edited([3, 3, 3, 3], "前途：★★★★☆\n总评：★★☆☆☆"),
        [3, 3, 3, 4]
    );
    // A list's number after a heading is no score.
    assert_eq!(edited([3, 3, 3, 3], "学术方面\n1. 论文很多"), [3, 3, 3, 3]);
}

#[test]
fn a_revision_in_its_own_words_keeps_the_scores_of_other_dimensions() {
    // "其实…" says the line anew; the next line's score is another
    // dimension's, so the academic score given before stays.
    assert_eq!(
        edited([3, 3, 3, 3], "学术：1/5。其实老师文章不少。\n经费：3/5。"),
        [1, 3, 3, 3]
    );
    // "说错了" takes the score before back, whatever comes next.
    assert_eq!(
        edited(
            [3, 3, 3, 4],
            "前途改成5——等等，说错了，我想改的是学术，学术5"
        ),
        [5, 3, 3, 4]
    );
}

#[test]
fn a_score_said_to_overshoot_moves_back_one_point() {
    assert_eq!(edited([4, 4, 4, 5], "前途不用那么高"), [4, 4, 4, 4]);
    assert_eq!(edited([4, 2, 4, 4], "经费给低了"), [4, 3, 4, 4]);
    // The score said is the one judged: too low, too high, generous.
    assert_eq!(edited([4, 3, 3, 3], "关系四分太委屈他了"), [4, 3, 5, 3]);
    assert_eq!(edited([4, 3, 3, 3], "经费三分有点高了"), [4, 2, 3, 3]);
    assert_eq!(
        edited([4, 3, 3, 3], "关系打低一点 2分都算我客气了"),
        [4, 3, 1, 3]
    );
}

#[test]
fn a_score_asked_back_at_is_no_edit() {
    assert_eq!(
        edited(
            [4, 3, 3, 3],
            "关系给高了 减一分 经费也降一分 报销拖成那样还给3分？"
        ),
        [4, 2, 2, 3]
    );
    // A request in a question is one.
    assert_eq!(edited([4, 3, 3, 3], "能把经费改成2分吗？"), [4, 2, 3, 3]);
}

#[test]
fn everyday_names_alike_again_and_back() {
    // Words that name a dimension only under a judgement name it under a
    // move or a number too.
    assert_eq!(edited([3, 2, 3, 3], "钱那边再多给一分"), [3, 3, 3, 3]);
    assert_eq!(edited([3, 3, 3, 3], "学术给5，人给个二"), [5, 3, 2, 3]);
    // The same as another dimension's score.
    assert_eq!(edited([2, 3, 5, 4], "学术和人一样吧"), [5, 3, 5, 4]);
    assert_eq!(edited([4, 3, 3, 2], "前途那块，跟经费一致"), [4, 3, 3, 3]);
    // The same move for another dimension.
    assert_eq!(edited([3, 3, 3, 3], "学术低一点，前途也一样"), [2, 3, 3, 2]);
    assert_eq!(edited([3, 3, 3, 3], "经费改成4，关系也是"), [3, 4, 4, 3]);
    // A score that stays, named or talked about.
    assert_eq!(
        edited([3, 3, 3, 3], "学术加一分，经费加一分，经费不动"),
        [4, 3, 3, 3]
    );
    assert_eq!(
        edited([3, 3, 4, 3], "关系改成二……算了，还是原来那样吧"),
        [3, 3, 4, 3]
    );
    // 不改了 alone settles on what was just said.
    assert_eq!(edited([2, 3, 3, 3], "学术还是4吧，不改了"), [4, 3, 3, 3]);
    // Taken back in the student's own words.
    assert_eq!(
        edited([3, 4, 4, 3], "关系给二，不不不，我说错了，是前途给二"),
        [3, 4, 4, 2]
    );
}

#[test]
fn edits_said_with_pauses_fillers_and_the_rest() {
    // A filler after a number, 也 before one.
    assert_eq!(
        edited([3, 3, 4, 3], "学术给五 经费给二 嗯 关系四 前途呃 也四吧"),
        [5, 2, 4, 4]
    );
    // 都 after a pause is for the names listed before it.
    assert_eq!(edited([3, 2, 4, 4], "学术和前途 都给个三"), [3, 2, 4, 3]);
    // The others: the dimensions the message has not named.
    assert_eq!(edited([5, 3, 3, 3], "学术别动 其他都给四"), [5, 4, 4, 4]);
    assert_eq!(edited([5, 3, 3, 3], "其他都给四"), [4, 4, 4, 4]);
    // A move named as the mistake is not made again.
    assert_eq!(
        edited_after(
            [4, 3, 4, 3],
            &["经费改成两分"],
            "经费还是改回三分吧，刚才改成两分改错了"
        ),
        [4, 3, 4, 3]
    );
}

#[test]
fn a_score_called_wrong_is_not_set_and_its_move_stands() {
    assert_eq!(edited([3, 3, 3, 3], "经费给1分不合适"), [3, 3, 3, 3]);
    assert_eq!(edited([2, 3, 3, 3], "学术2分不合理 再高点"), [3, 3, 3, 3]);
    assert_eq!(edited([3, 4, 3, 3], "经费给两分说不过去"), [3, 4, 3, 3]);
}

#[test]
fn too_low_said_after_a_score_set_is_why_it_was_set() {
    assert_eq!(
        edited([3, 3, 1, 3], "人那块及格就好 不要打太低"),
        [3, 3, 3, 3]
    );
    assert_eq!(edited([4, 4, 4, 4], "前途给3 别太低了"), [4, 4, 4, 3]);
}

#[test]
fn the_rest_before_a_score_is_the_dimensions_not_decided() {
    assert_eq!(
        edited([3, 3, 3, 3], "前途两分吧，其余方面我打四分"),
        [4, 4, 4, 2]
    );
    // Named without a move ("方向太冷门了" names no score): among the rest.
    assert_eq!(
        edited([3, 3, 3, 3], "学术别动，其他方面我打五分"),
        [3, 5, 5, 5]
    );
}

#[test]
fn only_the_names_after_only_change() {
    assert_eq!(edited([3, 3, 3, 3], "只把关系改成2 其他保持"), [3, 3, 2, 3]);
    assert_eq!(edited([3, 3, 3, 3], "都改成4吧，只改学术5"), [5, 3, 3, 3]);
    assert_eq!(edited([3, 3, 3, 3], "学术给4，其他维度不动"), [4, 3, 3, 3]);
}

#[test]
fn a_short_name_is_one_before_a_number_only() {
    assert_eq!(edited([3, 3, 3, 3], "学术5 钱2 人4"), [5, 2, 4, 3]);
}
