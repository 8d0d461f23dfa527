//! References: ordinals, from-the-end, pronouns, names, and the many "第一"
//! and "那个" that do not point at an advisor.

use super::super::Act::*;
use super::check::{run, E::*, R::*};

#[test]
fn ordinals_and_from_end() {
    run(&[
        ("第一个导师怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("第1个怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("第十个老师", &[Refs(&[Ord(9)])]),
        ("第2位导师的评价", &[Refs(&[Ord(1)]), Act(AskReviews)]),
        ("头一个怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("排第一的那个呢", &[Refs(&[Ord(0)]), FollowUp]),
        ("榜首怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("第一名的导师", &[Refs(&[Ord(0)])]),
        ("1号导师", &[Refs(&[Ord(0)])]),
        ("老二怎么样", &[Refs(&[Ord(1)]), Act(AskAbout)]),
        ("最后一个怎么样", &[Refs(&[End(0)]), Act(AskAbout)]),
        ("中间那个点开看看", &[Refs(&[Mid]), Act(OpenDetail)]),
        ("最后那位呢", &[Refs(&[End(0)]), FollowUp]),
        ("倒数第二个", &[Refs(&[End(1)])]),
        ("倒数第一", &[Refs(&[End(0)])]),
        // A bare 第N with no next point said is the advisor (a recognizer's
        // "第一" for "the first one").
        ("第一，点进去看看", &[Refs(&[Ord(0)]), Act(OpenDetail)]),
        ("第二个呢", &[Refs(&[Ord(1)]), FollowUp]),
        ("第一个和第三个", &[Refs(&[Ord(0), Ord(2)])]),
        ("第十一位老师", &[Refs(&[Ord(10)])]),
        ("第3个的学生怎么说", &[Refs(&[Ord(2)]), Act(AskReviews)]),
        ("前两个对比一下", &[Refs(&[Ord(0), Ord(1)]), Act(Compare)]),
        (
            "第一个跟最后一个比比",
            &[Refs(&[Ord(0), End(0)]), Act(Compare)],
        ),
        ("排名第一的导师人怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("第五名", &[Refs(&[Ord(4)])]),
        ("一号导师怎么样", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("2号和5号比较一下", &[Refs(&[Ord(1), Ord(4)]), Act(Compare)]),
        (
            "前三名都有谁",
            &[Refs(&[Ord(0), Ord(1), Ord(2)]), Act(ListAdvisors)],
        ),
        ("倒数第三位", &[Refs(&[End(2)])]),
        ("排在最后的那个导师", &[Refs(&[End(0)])]),
        (
            "第一个和第二个哪个经费多",
            &[Refs(&[Ord(0), Ord(1)]), Act(Compare)],
        ),
        ("我要看第4个老师的主页", &[Refs(&[Ord(3)]), Act(OpenDetail)]),
    ]);
}

#[test]
fn pronouns_and_names() {
    run(&[
        ("他的学生评价呢", &[Refs(&[Pro]), Act(AskReviews), FollowUp]),
        ("这个导师怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("这位老师靠谱吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("该导师的详细信息", &[Refs(&[Pro]), Act(OpenDetail)]),
        ("刚才那个老师人怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("ta怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("TA的口碑如何", &[Refs(&[Pro]), Act(AskReviews)]),
        ("他老人家脾气好吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("她严格吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("这个怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        // The applicant a parent speaks for is no advisor.
        ("他想报临床医学", &[Refs(&[]), Major("临床医学")]),
        (
            "我女儿想考临床医学，我帮她了解一下",
            &[Refs(&[]), Major("临床医学"), Act(AskAbout)],
        ),
        ("我帮她问问", &[Refs(&[Pro])]),
        (
            "请问这个张三老师。",
            &[Refs(&[Name("张三")]), Act(AskAbout)],
        ),
        ("那位呢", &[Refs(&[Pro]), FollowUp]),
        ("张三老师怎么样", &[Refs(&[Name("张三")]), Act(AskAbout)]),
        (
            "张三和李四哪个好",
            &[Refs(&[Name("张三"), Name("李四")]), Act(Compare)],
        ),
        ("王老师怎么样", &[Refs(&[Name("王五")]), Act(AskAbout)]),
        (
            "欧阳老师的评价",
            &[Refs(&[Name("欧阳明")]), Act(AskReviews)],
        ),
        ("李四的主页", &[Refs(&[Name("李四")]), Act(OpenDetail)]),
        (
            "张三怎么样，他带学生吗",
            &[Refs(&[Name("张三")]), Act(AskAbout)],
        ),
        (
            "赵六跟第一个比呢",
            &[Refs(&[Name("赵六"), Ord(0)]), Act(Compare), FollowUp],
        ),
        ("他是博导吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("你说的那个导师经费多吗", &[Refs(&[Pro]), Act(AskAbout)]),
        // A demonstrative right before the advisor is its determiner.
        (
            "那位第四个老师，评价好吗",
            &[Refs(&[Ord(3)]), Act(AskReviews)],
        ),
        ("这个第三个怎么样", &[Refs(&[Ord(2)]), Act(AskAbout)]),
        (
            "这位张三老师怎么样",
            &[Refs(&[Name("张三")]), Act(AskAbout)],
        ),
        // Not right before it: someone else.
        (
            "他和第一个比呢",
            &[Refs(&[Pro, Ord(0)]), Act(Compare), FollowUp],
        ),
    ]);
}

#[test]
fn not_references() {
    run(&[
        ("第一志愿报北大", &[School("北京大学")]),
        ("我是第一次考研", &[Act(WantExam)]),
        ("第一学历不太好", &[]),
        ("第一年学费多少", &[FaqId("scholarships")]),
        ("排名第一的学校是哪个", &[]),
        ("一个导师带几个学生", &[]),
        ("第一个问题是这样的", &[]),
        ("最后一个问题", &[]),
        ("其他导师呢", &[FollowUp]),
        ("第一性原理计算", &[Dir("计算物理")]),
        ("3月1号考试", &[]),
        ("那个学校怎么样", &[Act(AskAbout)]),
        ("刚才那个学校呢", &[FollowUp]),
        ("第二轮复试", &[]),
        ("他们组的学生多吗", &[]),
        ("第一名的学校", &[]),
        ("第一个专业是计算机", &[Major("计算机科学与技术")]),
        ("前两年", &[]),
        (
            "第一，我想考北大；第二，我想做CV",
            &[School("北京大学"), Dir("计算机视觉")],
        ),
        ("我第一志愿是清华", &[School("清华大学")]),
        ("你们这个评分准吗", &[FaqId("rating_formula")]),
        ("其他的老师怎么样", &[Act(AskAbout)]),
    ]);
}

#[test]
fn what_is_an_advisor_s_own_describes_them() {
    // A question whose 吗 the recognizer lost: the funding is the
    // advisor's, no wish of the student's.
    run(&[("张三老师的经费充足", &[Refs(&[Name("张三")])])]);
}

#[test]
fn counting_from_the_end_written_in_homophones() {
    // 倒数 as a recognizer may write it: in homophones, or with a near
    // sound (处 for 数) where the 第 after it places the word.
    run(&[
        (
            "到属第二个怎么样",
            &[Refs(&[End(1)]), Act(super::super::Act::AskAbout)],
        ),
        (
            "到处第2个老师怎么样",
            &[Refs(&[End(1)]), Act(super::super::Act::AskAbout)],
        ),
        // Not every word before 第 counts from the end.
        (
            "看看第二个老师怎么样",
            &[Refs(&[Ord(1)]), Act(super::super::Act::OpenDetail)],
        ),
    ]);
}

#[test]
fn reference_words_written_in_homophones() {
    // 那 heard as the question's 哪 inside a reference word; a bare 哪位
    // stays a question.
    run(&[
        (
            "排最后哪位老师学生评价如何",
            &[Refs(&[End(0)]), Act(AskReviews)],
        ),
        ("刚才哪个老师怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("哪位老师学生评价最好", &[Refs(&[]), Act(AskReviews)]),
        // Every character a reading of another: no word of the list.
        ("课题组之间能合作吗", &[Refs(&[])]),
    ]);
}

#[test]
fn a_measure_word_heard_near_in_sound() {
    // The unstressed 个 heard with a nasal (根): after 第N, and at the end
    // of a reference word, beside one homophone (纳 for 那).
    run(&[
        (
            "倒数第一根，给我打开看看",
            &[Refs(&[End(0)]), Act(super::super::Act::OpenDetail)],
        ),
        ("第三根老师怎么样", &[Refs(&[Ord(2)]), Act(AskAbout)]),
        ("最后纳根老师", &[Refs(&[End(0)])]),
        // A noun after 第N is still no advisor.
        ("第一年怎么样", &[Refs(&[]), Act(AskAbout)]),
    ]);
}
