use super::*;
use crate::text::fold::fold;

fn texts(cs: &[Clause]) -> Vec<&str> {
    cs.iter().map(|c| c.text.as_str()).collect()
}

#[test]
fn sentences_and_clauses_at_punctuation() {
    let cs = split(&fold("学术水平很高，组会指导很认真。经费呢？补助4.5k"));
    assert_eq!(
        texts(&cs),
        ["学术水平很高", "组会指导很认真", "经费呢", "补助4.5k"]
    );
    assert_eq!(
        cs.iter().map(|c| c.sentence).collect::<Vec<_>>(),
        [0, 0, 1, 2]
    );
    assert!(cs[2].question_mark && !cs[0].question_mark);
    assert!(cs[2].asks());
}

#[test]
fn connectives_link_clauses_and_cut_spoken_text() {
    let cs = split_at_connectives(&fold("学术很强但是经费少 不过补助按时发"));
    assert_eq!(texts(&cs), ["学术很强", "经费少", "补助按时发"]);
    assert_eq!(cs[1].link, Link::Contrast);
    assert_eq!(cs[2].link, Link::Contrast);
    let cs = split_at_connectives(&fold("但是，其实经费还行"));
    assert_eq!(texts(&cs), ["经费还行"]);
    assert_eq!(cs[0].link, Link::Revision);
    // Cut at punctuation alone, a clause keeps its words.
    let cs = split(&fold("其实经费还行"));
    assert_eq!(texts(&cs), ["其实经费还行"]);
    assert_eq!(cs[0].link, Link::Revision);
    let cs = split(&fold("虽然经费少，但老师人好"));
    assert_eq!(cs[0].link, Link::Concession);
    assert_eq!(cs[1].link, Link::Contrast);
    assert_eq!(
        texts(&split_at_connectives("不是大厂就是名校")),
        ["不是大厂就是名校"]
    );
    // Without the option only punctuation cuts.
    assert_eq!(split(&fold("学术很强但是经费少")).len(), 1);
}

#[test]
fn odd_input_is_fine() {
    for s in ["", "，，，", "？", "但是", "🙂🙂", "a b c", "1.5.6"] {
        let _ = split_at_connectives(&fold(s));
    }
    assert_eq!(texts(&split(&fold("push 很 厉害"))), ["push很厉害"]);
    assert_eq!(texts(&split(&fold("nice guy，很好"))), ["nice guy", "很好"]);
}

#[test]
fn list_items_of_a_field() {
    assert_eq!(
        list_items("机器学习、CV/NLP 和推荐"),
        ["机器学习", "CV", "NLP", "推荐"]
    );
}

#[test]
fn a_review_keeps_its_lists_and_cuts_at_typed_pauses() {
    let cs = split_at_connectives(&fold("经费、毕业这些我都不了解"));
    assert_eq!(texts(&cs), ["经费、毕业这些我都不了解"]);
    let cs = split_at_connectives(&fold("他学术挺厉害的 在组里带我们也很上心"));
    assert_eq!(texts(&cs), ["他学术挺厉害的", "在组里带我们也很上心"]);
    // Spaces inside a phrase, and between English words, stay as they were.
    assert_eq!(texts(&split_at_connectives("push 很 厉害")), ["push很厉害"]);
    assert_eq!(
        texts(&split_at_connectives("research level很高")),
        ["research level很高"]
    );
    // Punctuation alone: 、 still cuts.
    assert_eq!(split(&fold("经费、毕业")).len(), 2);
}

#[test]
fn what_a_clause_does_to_the_statement_before() {
    let cs = split_at_connectives(&fold("不是不指导，而是每周都讨论"));
    assert_eq!(cs[1].link, Link::Instead);
    assert!(cs[0].denied_by(&cs[1]));
    let cs = split_at_connectives(&fold("不是不指导，是每周都讨论"));
    assert!(cs[0].denied_by(&cs[1]));
    let cs = split_at_connectives(&fold("不是很好，但是还行"));
    assert!(!cs[0].denied_by(&cs[1]));
    let cs = split_at_connectives(&fold("老师比较放养，不过我觉得这样挺好的"));
    assert!(cs[1].refers_back() && !cs[0].refers_back());
    let cs = split_at_connectives(&fold("不管学生的是另一个老师，我导师很认真"));
    assert!(cs[0].about_someone_else());
    assert!(!split(&fold("我老板吊打隔壁组"))[0].about_someone_else());
    // Someone beside the advisor, and one of their traits.
    assert!(split(&fold("是我们副导脾气不好"))[0].about_someone_else());
    assert!(split(&fold("我自己水平也一般"))[0].about_someone_else());
    assert!(!split(&fold("老师脾气挺好的"))[0].about_someone_else());
    assert!(!split(&fold("师兄说老师脾气不好"))[0].about_someone_else());
    assert!(split(&fold("本来以为会手把手带"))[0].expected());
    assert!(split(&fold("其他都挺好"))[0].about_the_rest());
    assert!(split(&fold("要是经费再多点就好了"))[0].wishes());
    // "脾气不是不好，是有点急": 不是 after the topic denies too.
    let cs = split_at_connectives(&fold("脾气不是不好，是有点急"));
    assert!(cs[0].denied_by(&cs[1]));
    // "人其实很好": a short subject is not cut off its predicate.
    let cs = split_at_connectives(&fold("人其实很好"));
    assert_eq!(texts(&cs), ["人很好"]);
    assert_eq!(cs[0].link, Link::Revision);
    // A subject of a few characters too, before 其实 only.
    let cs = split_at_connectives(&fold("老板人其实不坏"));
    assert_eq!(texts(&cs), ["老板人不坏"]);
    assert_eq!(
        texts(&split_at_connectives(&fold("数据一点不对都要重做"))).len(),
        2
    );
}

#[test]
fn an_earlier_state_and_the_present_are_told_apart() {
    let cs = split_at_connectives(&fold("以前经费紧张，现在项目多了"));
    assert!(cs[0].then() && !cs[0].now());
    assert!(cs[1].now() && !cs[1].then());
    // A clause that holds both speaks of the earlier state.
    let cs = split(&fold("学术上以前很厉害"));
    assert!(cs[0].then() && !cs[0].now());
    // "说得过去" holds no 过去.
    assert!(!split(&fold("补助说得过去"))[0].then());
}

#[test]
fn a_clause_that_rejects_what_was_reported_is_told() {
    for s in [
        "我倒不觉得",
        "其实没有",
        "纯属谣言",
        "我觉得并不是",
        "我看并没有",
        "根本没这回事",
        "我不太同意",
        "我覺得不會啊",
        "完全是瞎传的",
    ] {
        let cs = split_at_connectives(&fold(s));
        assert!(cs.iter().any(|c| c.refutes()), "{s}");
    }
    for s in ["我觉得挺好的", "没有补助", "老师人很好", "不是很多"] {
        let cs = split_at_connectives(&fold(s));
        assert!(!cs.iter().any(|c| c.refutes()), "{s}");
    }
}

/// Whom each clause of `message` speaks of: true where someone else.
fn someone_else(message: &str) -> Vec<bool> {
    about_someone_else(&split_at_connectives(&fold(message)))
}

#[test]
fn a_clause_without_a_subject_goes_on_about_the_one_before_it() {
    // The postdoc turned to, then the advisor named again.
    assert_eq!(
        someone_else("我们组最烦的就是那个博后，天天阴阳怪气，见谁怼谁，老板倒是一直在中间调和"),
        [false, true, true, true, false]
    );
    // "在老板面前" does not name the one who acts.
    assert_eq!(
        someone_else("是那个大师兄，天天把活甩给我们，还在老板面前抢功"),
        [true, true, true]
    );
    // The school's offices opening a clause, the group or a teacher after.
    assert_eq!(
        someone_else("研究生院又改毕业要求了，现在要两篇小论文才能答辩"),
        [true, true]
    );
    assert_eq!(
        someone_else("我以前在别的组待过，这个组补助挺多的"),
        [true, false]
    );
    assert_eq!(
        someone_else("延毕多的是隔壁组，于老师的学生都按时毕业了"),
        [true, false]
    );
    // Another group inside the writer's own statement turns to no one.
    assert_eq!(
        someone_else("说我这种水平放在别的组早被劝退了，还不让我出去实习"),
        [true, false]
    );
    // Not across a sentence.
    assert_eq!(someone_else("师兄脾气不好。天天加班"), [true, false]);
    // A former advisor, though 导师 is inside the words; a group beaten.
    assert_eq!(
        someone_else("本科导师特别凶，动不动骂人。现在的导师很温和"),
        [true, true, false]
    );
    assert_eq!(someone_else("毕业去向直接吊打其他组"), [false]);
    assert_eq!(someone_else("投稿前导师会逐句帮我改稿"), [false]);
}

#[test]
fn a_clause_that_clears_the_advisor_takes_the_one_before_it() {
    assert_eq!(
        someone_else("实验室离宿舍远，这个不怪老师，老师人很好"),
        [true, false, false]
    );
    assert_eq!(
        someone_else("组里方向杂，实验室离宿舍远，这个不怪老师"),
        [false, true, false]
    );
}
