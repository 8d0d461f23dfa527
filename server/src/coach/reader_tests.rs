//! The reader's tests: what `reader.rs` reads from whole messages.

use super::*;

fn scores(said: &Said) -> [Option<u8>; 4] {
    Dimension::ALL.map(|d| said.get(d).map(|s| s.value))
}

#[test]
fn the_issue_s_review_reads_academic_high_and_funding_low() {
    let r = Reader::load();
    let said = r.read("学术水平很高，组会指导很认真，但是经费不够，补助很少，设备也老旧");
    assert_eq!(scores(&said), [Some(4), Some(2), None, None]);
    let said = r.read("老师人挺好的，毕业的师兄去向一般");
    assert_eq!(scores(&said), [None, None, Some(4), Some(3)]);
}

#[test]
fn a_clause_pointing_back_that_agrees_keeps_the_strongest() {
    let r = Reader::load();
    let said = r.read("他指导学生极其认真，一个图改二十遍是常事，这点让我进步很大。");
    assert_eq!(scores(&said), [Some(5), None, None, None]);
    // One that turns it still replaces it.
    let said = r.read("老师放养，不过这样挺好的");
    assert_eq!(scores(&said)[0], Some(4));
}

#[test]
fn a_good_advisor_said_as_such_is_the_whole() {
    let r = Reader::load();
    let said = r.read("人很随和。总的来说是个好导师。");
    assert_eq!(said.overall.map(|s| s.value), Some(4));
    assert_eq!(scores(&said), [None, None, Some(4), None]);
    let said = r.read("总的来说不是个好导师");
    assert_eq!(said.overall.map(|s| s.value), Some(2));
}

#[test]
fn a_rhetorical_question_keeps_the_judgement_before_it() {
    let r = Reader::load();
    let said = r.read("补助拉胯得离谱，一个月600，在北京喝西北风吗");
    assert_eq!(scores(&said), [None, Some(1), None, None]);
}

#[test]
fn contrast_negation_and_degree_bind_to_their_clause() {
    let r = Reader::load();
    assert_eq!(
        scores(&r.read("学术非常强，但是人品极差")),
        [Some(5), None, Some(1), None]
    );
    assert_eq!(
        scores(&r.read("虽然补助少，但是老师很关心学生")),
        [None, Some(2), Some(4), None]
    );
    assert_eq!(scores(&r.read("老师从不骂人")), [None, None, Some(4), None]);
    assert_eq!(scores(&r.read("补助不算少")), [None, Some(3), None, None]);
    assert_eq!(
        scores(&r.read("学术挺强的，但是不怎么指导")),
        [Some(3), None, None, None]
    );
}

#[test]
fn own_words_win_revisions_replace_and_unknowns_stay_unsaid() {
    let r = Reader::load();
    assert_eq!(
        scores(&r.read("师兄说老师很凶，但我觉得还挺温和的")),
        [None, None, Some(4), None]
    );
    assert_eq!(
        scores(&r.read("一开始觉得经费少，其实还行")),
        [None, Some(3), None, None]
    );
    let said = r.read("老师人很好，经费这块我不太了解");
    assert_eq!(scores(&said), [None, None, Some(4), None]);
    assert_eq!(said.unknown, [Dimension::Funding]);
    let said = r.read("补助每个月三千");
    assert_eq!(said.get(Dimension::Funding).map(|s| s.sure), Some(false));
}

#[test]
fn numbers_are_the_scores() {
    let r = Reader::load();
    assert_eq!(
        scores(&r.read("学术三分，关系四分，经费两分，前途五分")),
        [Some(3), Some(2), Some(4), Some(5)]
    );
    assert_eq!(
        scores(&r.read("经费很少，给个3分吧")),
        [None, Some(3), None, None]
    );
}

#[test]
fn what_a_clause_does_to_the_one_before_is_read() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // A judgement of the statement before replaces it.
    assert_eq!(
        s("老师比较放养，不过我觉得这样挺好的"),
        [Some(4), None, None, None]
    );
    // The denied clause, what was only expected, another advisor: not
    // statements about this one.
    assert_eq!(
        s("纠正一下，不是不指导，而是每周都一对一讨论，挺上心的"),
        [Some(4), None, None, None]
    );
    assert_eq!(
        s("本来以为老师会手把手带，结果进来发现是放养"),
        [Some(2), None, None, None]
    );
    assert_eq!(
        s("说反了，不管学生的是另一个老师，我导师指导很认真"),
        [Some(4), None, None, None]
    );
    // The rest, a wish, a topic introduced with a question mark.
    assert_eq!(s("除了经费少，其他都挺好"), [None, Some(2), None, None]);
    assert_eq!(s("要是经费再多点就好了"), [None, Some(2), None, None]);
    assert_eq!(s("补助？不存在的"), [None, Some(2), None, None]);
    assert_eq!(s("经费怎么样？"), [None, None, None, None]);
    // Not yet in a clause of its own leaves what came before.
    assert_eq!(
        s("听说导师学术很强，我还没正式进组"),
        [Some(4), None, None, None]
    );
    // A judgement with no topic continues its own sentence only.
    assert_eq!(
        s("补助每月四千，算高的。不好的地方：老师太忙了，论文靠师兄带"),
        [Some(2), Some(4), None, None]
    );
}

#[test]
fn the_present_replaces_an_earlier_state() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("以前经费紧张，现在项目多了"), [None, Some(4), None, None]);
    assert_eq!(
        s("老师以前很负责，这两年当了院长就不怎么管了"),
        [Some(2), None, None, None]
    );
    // Said after the present, the earlier state is background.
    assert_eq!(
        s("这两年经费一下子宽裕了，以前很拮据"),
        [None, Some(4), None, None]
    );
    // Without an earlier state, "现在" revises nothing.
    assert_eq!(
        s("学术很强，但是不怎么指导，现在主要忙行政"),
        [Some(3), None, None, None]
    );
}

#[test]
fn the_student_rejecting_what_was_reported_negates_it() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // Rejected criticism is praise; rejected praise is criticism.
    assert_eq!(s("师兄说他很凶，我倒不觉得"), [None, None, Some(4), None]);
    assert_eq!(s("网上说他压榨学生，其实没有"), [None, None, Some(4), None]);
    assert_eq!(s("传言老师克扣补助，纯属谣言"), [None, Some(4), None, None]);
    assert_eq!(s("师姐说补助很高，我看并没有"), [None, Some(2), None, None]);
    // The judgement put first as what the writer denies.
    assert_eq!(s("压榨我倒不觉得"), [None, None, Some(4), None]);
    assert_eq!(s("经费充足我可没觉得"), [None, Some(2), None, None]);
    // Not even one word of care is its strongest lack.
    assert_eq!(s("他一句关心都没有"), [None, None, Some(1), None]);
    assert_eq!(s("关心都没有"), [None, None, Some(2), None]);
    // A correction that names and judges nothing rejects it too.
    assert_eq!(
        s("学长说他不给推荐信，其实他给我们每个人都写了"),
        [None, None, None, Some(4)]
    );
    // The student's own judgement still wins.
    assert_eq!(s("师兄说很凶，但我觉得还好"), [None, None, Some(3), None]);
    assert_eq!(s("师兄说很凶。但我觉得还好"), [None, None, Some(3), None]);
}

#[test]
fn some_and_others_of_one_dimension_are_mixed() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("有的师兄去了大厂，有的延毕"), [None, None, None, Some(3)]);
    assert_eq!(
        s("有的项目钱多，有的项目几乎没钱"),
        [None, Some(3), None, None]
    );
    assert_eq!(
        s("同门有的发了顶会，有的一篇都没有"),
        [Some(3), None, None, None]
    );
}

#[test]
fn a_monthly_sum_in_the_hundreds_beside_a_costly_city_is_little() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("补助一个月700，在杭州"), [None, Some(2), None, None]);
    // Alone it needs a norm.
    assert_eq!(s("补助每月八百"), [None, Some(3), None, None]);
}

#[test]
fn a_later_unknown_takes_back_what_was_said() {
    let r = Reader::load();
    let mut state = super::super::state::CoachState::new("a".into(), "张三".into());
    state.take(&r.read("就业很好，师兄都去了大厂"), false);
    assert_eq!(state.coverage(Dimension::Prospects).score, Some(4));
    state.take(&r.read("就业那块我不太清楚，刚才是瞎说的"), false);
    assert_eq!(state.coverage(Dimension::Prospects).score, None);
}

#[test]
fn a_long_post_is_read_by_its_headings() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // Under a boxed heading, what the clauses judge is its dimension.
    assert_eq!(
        s("【学术】博士毕业至少有一篇领域顶刊。【经费】近五年没有国家级项目。"),
        [Some(4), Some(2), None, None]
    );
    // Under a heading of praise or criticism, a fact is praise or criticism.
    assert_eq!(
        s("优点：\n- 补助每月三千\n缺点：\n- 一个月见一次"),
        [Some(2), Some(4), None, None]
    );
    // A digression says nothing of the advisor.
    assert_eq!(
        s("跑个题，食堂太难吃了。回到正题，经费还可以"),
        [None, Some(3), None, None]
    );
    // A heading said in passing, someone else's words under it: they
    // count, the heading is no statement of the student's own.
    assert_eq!(
        s("至于学生前途，听师兄说大部分硕士都去了大厂"),
        [None, None, None, Some(4)]
    );
}

#[test]
fn what_happened_is_read_as_the_situation_it_tells() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(
        s("凌晨一点半 老板在群里@我问实验数据"),
        [None, None, Some(2), None]
    );
    assert_eq!(s("老板从不在周末找人"), [None, None, Some(4), None]);
    // Praise in quotation marks is ironic: criticism, not its strongest.
    assert_eq!(
        s("我们老板真是\"太关心\"我们了"),
        [None, None, Some(2), None]
    );
    // So is praise a chat app's smile code closes.
    assert_eq!(
        s("我们老板可太关心学生了[微笑]"),
        [None, None, Some(2), None]
    );
}

#[test]
fn hearsay_runs_on_until_the_writer_s_own_voice() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // All hearsay: mixed.
    assert_eq!(
        s("听说劳务费挺多的，就是设备比较老旧"),
        [None, Some(3), None, None]
    );
    // The writer confirms the last thing said.
    assert_eq!(
        s("有人说他人很抠，我进组后发现确实"),
        [None, Some(2), None, None]
    );
    // The writer's own impression wins.
    assert_eq!(
        s("听说组里氛围很压抑，但我来实习了两个月，大家挺活泼的啊"),
        [None, None, Some(4), None]
    );
}

#[test]
fn a_post_is_someone_else_s_words_and_chong_before_a_person_is_at() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // What a post said, rejected by the writer: the negation of it.
    assert_eq!(
        s("网上有帖子说他经常骂人，我不同意这个说法"),
        [None, None, Some(4), None]
    );
    assert_eq!(
        s("评论区有人说他补助很少，其实挺多的"),
        [None, Some(4), None, None]
    );
    // 冲 aimed at someone is "at": the 发火 is what is negated or said.
    assert_eq!(s("他从没冲谁发过火"), [None, None, Some(4), None]);
    assert_eq!(s("他动不动就冲我们吼"), [None, None, Some(2), None]);
    // A brusque manner is still 冲.
    assert_eq!(s("老师说话很冲"), [None, None, Some(2), None]);
}

#[test]
fn a_number_for_all_four_sets_each_and_a_hedge_after_it_takes_nothing_back() {
    let r = Reader::load();
    let said = r.read_after("都改成3分吧，不过我也不太确定", Some(Dimension::Prospects));
    assert_eq!(scores(&said), [Some(3); 4]);
    assert!(said.unknown.is_empty());
}

#[test]
fn a_joke_takes_its_edit_back_and_what_follows_counts() {
    let r = Reader::load();
    let edits = r.edits("前途给1分……开个玩笑，前途不变，经费加一分", None);
    assert!(!edits.contains(&Edit::Set(Dimension::Prospects, 1)));
    assert!(edits.contains(&Edit::Shift(Dimension::Funding, 1)));
    assert!(r.edits("经费改成1分，开玩笑的", None).is_empty());
}

#[test]
fn praise_in_a_sentence_closed_by_a_sarcastic_mark_is_criticism() {
    let r = Reader::load();
    let sarcastic = r.read("老板真是太关心我们了，周末也要每人视频汇报🙃");
    assert!(sarcastic
        .get(Dimension::Relationship)
        .is_some_and(|s| s.value <= 2));
    let promised = r.read("老板又说下个月给大家涨补助，第N次了");
    assert!(promised
        .get(Dimension::Funding)
        .is_some_and(|s| s.value <= 2));
}

#[test]
fn a_dimension_left_to_others_or_a_later_post_is_not_said() {
    let r = Reader::load();
    let said = r.read("学术很扎实。经费和去向我留给其他同门来写");
    assert_eq!(scores(&said), [Some(4), None, None, None]);
}

#[test]
fn what_was_reported_never_happening_to_the_student_rejects_it() {
    let r = Reader::load();
    let said = r.read("听说他经常骂人，我在组里一年，从没见他骂过谁");
    assert_eq!(scores(&said)[2], Some(4));
    let said = r.read("师兄说老板会半夜发消息，我跟了他一年，一次都没收到过");
    assert_eq!(scores(&said)[2], Some(4));
    // Confirmed, it stays what was said.
    let said = r.read("听说他很凶，确实，他从来没给过我们好脸色");
    assert_eq!(scores(&said)[2], Some(1));
}

#[test]
fn a_co_advisor_s_or_the_writer_s_own_traits_are_theirs() {
    let r = Reader::load();
    let said = r.read("老师脾气其实挺好的，是我们副导脾气不好");
    assert_eq!(scores(&said), [None, None, Some(4), None]);
    let said = r.read("学术的话我不太好评价，我自己水平也一般");
    assert_eq!(scores(&said), [None, None, None, None]);
}

#[test]
fn a_clause_that_lists_topics_hands_the_next_one_s_judgement_to_all() {
    let r = Reader::load();
    let said = r.read("经费和去向，我不太了解");
    assert_eq!(scores(&said), [None, None, None, None]);
    let said = r.read("学术和人品，都没得说");
    assert_eq!(scores(&said), [Some(5), None, Some(5), None]);
    let said = r.read("经费和去向，都挺好的");
    assert_eq!(scores(&said), [None, Some(4), None, Some(4)]);
    // A topic named in the next clause is that clause's own.
    let said = r.read("经费和去向，去向不错");
    assert_eq!(scores(&said)[3], Some(4));
}

#[test]
fn a_list_of_items_that_each_judge_their_own_topic_is_read_item_by_item() {
    let r = Reader::load();
    let said = r.read("学术强、钱多、人nice、毕业去向好");
    assert_eq!(scores(&said), [Some(4), Some(4), Some(4), Some(4)]);
    // Topics judged together stay one list.
    let said = r.read("经费、脾气都一般");
    assert_eq!(scores(&said), [None, Some(3), Some(3), None]);
}

#[test]
fn words_that_mean_the_opposite_reject_what_was_reported() {
    let r = Reader::load();
    let said = r.read("师兄说老板给钱大方。这也叫大方？");
    assert_eq!(scores(&said)[1], Some(2));
    // "你细品": the reader is left to conclude; no praise in it.
    let said = r.read("补助一个月八百，在北京，你品，你细品");
    assert_eq!(scores(&said)[1], Some(2));
    // Money kept waiting for months.
    let said = r.read("报销等了八个月");
    assert_eq!(scores(&said)[1], Some(2));
    // What the student cannot tell is not said.
    let said = r.read("学术看不出深浅");
    assert_eq!(scores(&said), [None, None, None, None]);
}

#[test]
fn a_person_s_character_and_unanswered_messages_are_the_relationship() {
    let r = Reader::load();
    for (said, want) in [
        ("面试时聊了半小时，觉得他挺真诚的", 4),
        ("他很坦诚地说组里有人延毕过", 4),
        ("感觉有点高冷，不太爱说话", 2),
        ("邮件问他能不能提前进组，两周了都没回", 2),
        ("他已读不回", 2),
    ] {
        assert_eq!(scores(&r.read(said))[2], Some(want), "{said}");
    }
    // Worry on the student's behalf is care, not impatience.
    assert_eq!(scores(&r.read("家里有事他比我们还着急"))[2], Some(4));
    // The same characters as adverbs judge no one.
    assert_eq!(scores(&r.read("说点实在的，组里氛围还行"))[2], Some(3));
    assert_eq!(scores(&r.read("真心劝退"))[2], None);
}

#[test]
fn situations_told_without_a_judging_word() {
    let r = Reader::load();
    for (said, dim, want) in [
        ("今天又被抓去给老板家小孩辅导化学作业", 2, 2),
        ("本科生实验课的报告批改 全扔给我们了", 2, 2),
        ("半夜两点收到语音 内容是让我明早七点到实验室", 2, 2),
        ("这周我发烧 老板让我回去歇三天 还让师姐给我送了药", 2, 4),
        ("大年初三让我们轮流回所里看炉子", 2, 2),
        ("知道我家里出事二话不说批了两周假", 2, 4),
        ("超净间的水电卡一直是我自己在充", 1, 2),
        ("老板主动问我要不要去新加坡交流半年，费用他出", 1, 4),
        // Praise set in ASCII quotes on a phone is meant the other way.
        (
            "老板说课题组经费'非常充裕' 那为什么我的劳务费三个月没到账",
            1,
            2,
        ),
    ] {
        assert_eq!(scores(&r.read(said))[dim], Some(want), "{said}");
    }
    // What the advisor finds fault with is the student's; the finding
    // fault is the relationship. Not finding fault is no situation: the
    // negation reads it.
    assert_eq!(
        scores(&r.read("老板还嫌我进度慢")),
        [None, None, Some(2), None]
    );
    assert_eq!(scores(&r.read("导师从不骂学生"))[2], Some(4));
    assert_eq!(
        scores(&r.read("面试时老师夸我基础扎实")),
        [None, None, Some(4), None]
    );
    // Time given to an office or a company, and guidance left to others.
    assert_eq!(
        scores(&r.read("他基本不做研究了，主要精力都在行政上。")),
        [Some(2), None, None, None]
    );
    assert_eq!(
        scores(&r.read("学术还行，指导主要靠组里的青年老师")),
        [Some(3), None, None, None]
    );
    // The advisor's dinner at home is no errand.
    assert_eq!(scores(&r.read("老师周末会叫我们去他家吃饭"))[2], Some(4));
}

#[test]
fn a_post_that_declines_a_dimension_leaves_it_unscored() {
    let r = Reader::load();
    assert_eq!(scores(&r.read("关系——这个我保留意见。"))[2], None);
    assert_eq!(scores(&r.read("前途 —— 去向不了解，不打星"))[3], None);
    // Agreement adds nothing, and its 没有 negates nothing.
    assert_eq!(scores(&r.read("学术：顶尖，这点没有争议。"))[0], Some(5));
}

#[test]
fn a_sum_per_month_with_no_topic_is_the_pay() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("我们一个月八百"), [None, Some(3), None, None]);
    assert_eq!(s("补助，一个月三千"), [None, Some(3), None, None]);
    // After a judgement of the pay it adds nothing.
    assert_eq!(
        s("补助在学院里算高的，每月有四千"),
        [None, Some(4), None, None]
    );
    // A count per month is no sum.
    assert_eq!(s("一个月见一次")[1], None);
}

#[test]
fn a_question_mark_asks_with_the_clause_it_ends() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    // "毕业？" introduces what follows; the pay before it is a statement.
    assert_eq!(s("补助很少 毕业？看他心情")[1], Some(2));
    // A clause before the question asks only in its own words.
    assert_eq!(s("经费多不多，补助高不高？"), [None, None, None, None]);
    assert_eq!(s("学术水平怎么样，经费多不多？"), [None, None, None, None]);
    // An A不A inside a statement asks nothing.
    assert_eq!(s("会主动问我们生活上有没有困难")[2], Some(4));
}

#[test]
fn demands_of_graduation_weigh_however_far_the_degree() {
    let r = Reader::load();
    assert_eq!(scores(&r.read("毕业要求倒是定得贼高"))[3], Some(1));
}

#[test]
fn a_topic_asked_back_after_a_space_introduces_its_answer() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(
        s("补助一个月五百 关系？我跟他说话都得看他脸色"),
        [None, Some(3), Some(2), None]
    );
    // A denial asked back affirms what it denies.
    assert_eq!(s("让我给他公司画了半年图 这不是压榨是啥")[2], Some(1));
}

#[test]
fn the_whole_of_a_topic_just_named_is_that_topic() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("就业的话，整体还不错。"), [None, None, None, Some(4)]);
    assert_eq!(
        s("去向：同门大多去了外企和高校做辅导员，整体还可以。"),
        [None, None, None, Some(3)]
    );
    // After the topic was judged, 整体 is the advisor's whole.
    assert_eq!(
        s("老师人品没得说，可惜项目很少，整体还是不错的"),
        [None, Some(2), Some(5), None]
    );
}

#[test]
fn a_separable_verb_said_apart_is_the_word() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(
        s("老板今天在组会上又发了很大的火，全组没人敢说话")[2],
        Some(2)
    );
    assert_eq!(s("三年了，他从来没跟我们红过一次脸")[2], Some(4));
}

#[test]
fn a_word_that_names_a_dimension_only_when_judged_heads_a_line() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("人：老好了"), [None, None, Some(5), None]);
    assert_eq!(s("钱：一般般"), [None, Some(3), None, None]);
}

#[test]
fn a_report_asked_about_is_not_said_and_one_doubted_stands() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("听说老师经费很多，是真的吗？有没有学长说一下"), [None; 4]);
    assert_eq!(
        s("据学长说老师组里延毕的挺多的，不知道真的假的。")[3],
        Some(2)
    );
}

#[test]
fn rejecting_the_message_before_turns_its_score_over() {
    let r = Reader::load();
    let mut state = super::super::state::CoachState::new("1".into(), "张三".into());
    state.take(&r.read_after("师姐说老板人品极差", None), false);
    state.take(
        &r.read_after("我倒不觉得，跟了两年没遇到啥问题", state.last_topic),
        false,
    );
    assert_eq!(state.coverage(Dimension::Relationship).score, Some(4));
}

#[test]
fn a_heading_of_one_word_is_read_with_the_clause_after_it() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(
        s("罗老师组的基本信息：\n- 组会：每周四下午，一次两小时左右\n- 补助：学校每月600，老师每月1200\n- 毕业：2021-2023届共9人，均按时毕业\n- 去向：电网3人，读博2人"),
        [Some(3), Some(3), None, Some(4)]
    );
}

#[test]
fn the_advisor_named_whole_with_a_part_judged_is_that_part() {
    let r = Reader::load();
    let s = |m: &str| scores(&r.read(m));
    assert_eq!(s("这个老师很温柔"), [None, None, Some(4), None]);
    assert_eq!(s("这个老师很好"), [None, None, None, None]);
    assert_eq!(s("补助比别的组高"), [None, Some(4), None, None]);
}
