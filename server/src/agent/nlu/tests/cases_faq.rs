//! FAQ questions phrased in different ways, and sentences that mention the
//! same concepts without asking about them.

use super::super::Act::*;
use super::check::{run, E::*, R::*};

#[test]
fn faq_questions() {
    run(&[
        ("什么是985", &[FaqId("985")]),
        ("985是什么意思", &[FaqId("985")]),
        ("985和211有什么区别", &[FaqId("211")]),
        ("双一流是啥", &[FaqId("double_first_class")]),
        ("34所自划线是什么", &[FaqId("self_line_34")]),
        ("学硕专硕有啥区别", &[FaqId("academic_vs_professional")]),
        ("学硕和专硕哪个好", &[FaqId("academic_vs_professional")]),
        ("保研是怎么回事", &[FaqId("tuimian")]),
        ("推免是什么", &[FaqId("tuimian")]),
        ("调剂怎么弄", &[FaqId("adjustment")]),
        ("复试一般考什么", &[FaqId("retest")]),
        ("国家线是什么", &[FaqId("national_line")]),
        ("考研什么时候报名", &[FaqId("timeline")]),
        ("初试考哪些科目", &[FaqId("exam_subjects")]),
        ("直博和硕博连读有什么区别", &[FaqId("direct_phd")]),
        ("非全日制怎么样", &[FaqId("part_time")]),
        ("同等学力能考研吗", &[FaqId("equivalent_education")]),
        ("跨专业考研难吗", &[FaqId("cross_major")]),
        ("二战有什么建议", &[FaqId("second_attempt")]),
        ("套磁信怎么写", &[FaqId("contact_advisor")]),
        ("怎么选导师", &[FaqId("choose_advisor")]),
        ("评分怎么算的", &[FaqId("rating_formula")]),
        ("导师评价怎么看", &[FaqId("read_reviews")]),
        ("大小导师是什么意思", &[FaqId("big_small_advisor")]),
        ("为什么叫导师老板", &[FaqId("big_small_advisor")]),
        ("横向项目是什么", &[FaqId("horizontal_project")]),
        ("毕业要求发论文吗", &[FaqId("graduation_requirements")]),
        ("研究生有奖学金吗", &[FaqId("scholarships")]),
        ("什么时候联系导师比较好", &[FaqId("contact_early")]),
        ("要不要提前联系导师", &[FaqId("contact_early")]),
        ("夏令营是干嘛的", &[FaqId("summer_camp")]),
        ("英语一和英语二有什么区别", &[FaqId("english_exams")]),
        ("数学二考不考概率", &[FaqId("math_exams")]),
        ("A区B区是什么", &[FaqId("national_line")]),
        ("什么是申请考核制", &[FaqId("phd_application")]),
        ("招生简章在哪看", &[FaqId("admission_brochure")]),
        ("嗯，那个，985到底是啥？", &[FaqId("985")]),
        ("北大是985吗", &[School("北京大学"), FaqId("985")]),
        ("你好，请问调剂流程是怎样的", &[FaqId("adjustment")]),
        ("评分靠谱吗", &[FaqId("rating_formula")]),
        (
            "考北大要多少分",
            &[School("北京大学"), FaqId("national_line")],
        ),
        ("怎么样才能联系到导师", &[FaqId("contact_advisor")]),
        ("我该怎么准备考研", &[FaqId("timeline")]),
        ("什么叫老板", &[FaqId("big_small_advisor")]),
        ("什么叫横向", &[FaqId("horizontal_project")]),
        ("夏令营什么时候报名", &[FaqId("summer_camp")]),
        ("考研数学考哪些", &[FaqId("exam_subjects")]),
        ("大专能考研吗", &[FaqId("equivalent_education")]),
        ("读研要交学费吗", &[FaqId("scholarships")]),
        ("专硕能读博吗", &[FaqId("academic_vs_professional")]),
        (
            "北大计算机复试难吗",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                FaqId("retest"),
            ],
        ),
        ("985和双一流有什么区别", &[FaqId("double_first_class")]),
        ("给导师发邮件怎么写比较好", &[FaqId("contact_advisor")]),
        // The clause with the FAQ words asks, beside a school and a major.
        (
            "北大计算机，学硕和专硕有什么区别？",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                FaqId("academic_vs_professional"),
            ],
        ),
    ]);
}

#[test]
fn not_faq_questions() {
    run(&[
        ("我想考985的学校", &[]),
        ("推荐一个985的导师", &[Act(Recommend)]),
        ("我想考211", &[]),
        ("我是保研的", &[]),
        ("他是博导吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("横向多的导师", &[Style("产业型")]),
        ("调剂", &[]),
        ("我想考985的学校，可以吗", &[]),
        ("他的评价怎么看", &[Refs(&[Pro]), Act(AskReviews)]),
        ("帮我选导师", &[Act(Recommend)]),
        ("保研的导师有哪些", &[Act(ListAdvisors)]),
        ("他有横向项目吗", &[Refs(&[Pro]), Act(AskAbout)]),
        ("我是调剂过来的", &[]),
        ("推荐一个做调剂的学校", &[Act(Recommend)]),
        ("研究生和导师的关系", &[]),
        ("我二战想考北大", &[School("北京大学")]),
        // A school and a major wished for: the FAQ words are background.
        (
            "我跨考，本科学化学的，想报南京大学的法学行吗",
            &[School("南京大学"), Major("法学")],
        ),
    ]);
}

#[test]
fn faq_words_beside_a_place_in_a_clause_that_asks_nothing_tell_a_situation() {
    use super::super::{analyze, Slot};
    let lex = super::fixture::lexicons();
    for (text, school, major) in [
        ("华东师大的法学，考学硕，不考专硕。", "华东师范大学", "法学"),
        (
            "华南理工的金融，调剂过来的，能看看不？",
            "华南理工大学",
            "金融学",
        ),
    ] {
        let a = analyze(text, lex, &[]);
        assert!(a.faq.is_none(), "{text}");
        assert_eq!(a.school, Some(Slot::One(school.into())), "{text}");
        assert_eq!(a.major, Some(Slot::One(major.into())), "{text}");
    }
}
