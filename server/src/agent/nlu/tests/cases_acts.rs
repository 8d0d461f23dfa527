//! Acts: the request a sentence makes, its precedence, negated cues, and the
//! social acts that count only when they are all the sentence says.

use super::super::Act::*;
use super::check::{run, E::*, R::*};

#[test]
fn social_acts() {
    run(&[
        ("谢谢", &[Act(Thanks)]),
        ("好的，谢谢你", &[Act(Thanks)]),
        ("太好了谢谢", &[Act(Thanks)]),
        ("辛苦了", &[Act(Thanks)]),
        ("多谢多谢", &[Act(Thanks)]),
        (
            "帮我推荐几个北大计算机的导师，谢谢",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                Act(Recommend),
            ],
        ),
        ("再见", &[Act(Goodbye)]),
        ("好的拜拜", &[Act(Goodbye)]),
        ("先这样吧，谢谢", &[Act(Goodbye)]),
        ("下次再聊", &[Act(Goodbye)]),
        ("拜拜啦", &[Act(Goodbye)]),
        ("拜拜，谢谢你的帮助", &[Act(Goodbye)]),
        ("今天先到这里吧", &[Act(Goodbye)]),
        ("不用推荐了，谢谢", &[Act(Thanks)]),
        ("不用了谢谢", &[Act(Thanks)]),
        ("你好", &[Act(Greet)]),
        (
            "你好，我想考北大计算机",
            &[School("北京大学"), Major("计算机科学与技术")],
        ),
        ("Thanks!", &[Act(Thanks)]),
        ("老师好", &[Act(Greet)]),
        ("你好，请问你能做什么", &[Act(Help)]),
        ("今天天气不错", &[]),
        ("我饿了", &[]),
        ("那就这样吧，拜拜", &[Act(Goodbye)]),
        ("算了，谢谢", &[Corr, Act(Thanks)]),
    ]);
}

#[test]
fn exam_help_and_skip() {
    run(&[
        ("我想考研", &[Act(WantExam)]),
        ("准备考研", &[Act(WantExam)]),
        ("想读研", &[Act(WantExam)]),
        ("我想读研，有什么建议", &[Act(WantExam)]),
        ("我想考北大", &[School("北京大学")]),
        ("我想考研，考清华", &[School("清华大学")]),
        ("想考研，做机器学习", &[Dir("机器学习")]),
        ("你能做什么", &[Act(Help)]),
        ("怎么用", &[Act(Help)]),
        ("你是谁", &[Act(Help)]),
        ("跳过", &[Act(Skip)]),
        ("都可以", &[Act(Skip)]),
        ("无所谓", &[Act(Skip)]),
        ("没有偏好", &[Act(Skip)]),
        ("随便吧", &[Act(Skip)]),
        ("方向都行", &[Act(Skip)]),
        ("北大清华都可以", &[SchoolEither(&["北京大学", "清华大学"])]),
    ]);
}

#[test]
fn requests() {
    run(&[
        ("推荐一下", &[Act(Recommend)]),
        ("哪个好", &[Act(Recommend)]),
        ("帮我选一个导师", &[Act(Recommend)]),
        ("有哪些导师", &[Act(ListAdvisors)]),
        (
            "北大计算机都有谁",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                Act(ListAdvisors),
            ],
        ),
        ("看看排名", &[Act(ListAdvisors)]),
        ("导师排行榜", &[Act(ListAdvisors)]),
        (
            "别推荐太严格的",
            &[Pers("温和"), Rej(&["严格"]), Act(Recommend)],
        ),
        ("介绍一下第一个", &[Refs(&[Ord(0)]), Act(AskAbout)]),
        ("说说这位老师", &[Refs(&[Pro]), Act(AskAbout)]),
        (
            "第一个的学生评价怎么样",
            &[Refs(&[Ord(0)]), Act(AskReviews)],
        ),
        ("比较温和的导师有哪些", &[Pers("温和"), Act(ListAdvisors)]),
        ("有没有经费充足的导师推荐", &[Fund("充足"), Act(Recommend)]),
        ("适合我的导师", &[Act(Recommend)]),
        ("谢谢，那第二个怎么样", &[Refs(&[Ord(1)]), Act(AskAbout)]),
        (
            "北大计算机",
            &[School("北京大学"), Major("计算机科学与技术")],
        ),
        ("对比一下", &[Act(Compare)]),
        (
            "张三和李四比较",
            &[Refs(&[Name("张三"), Name("李四")]), Act(Compare)],
        ),
        ("这两个有什么区别", &[Act(Compare), Pair]),
        (
            "谢谢你的推荐，不过我还想看看第三个",
            &[Refs(&[Ord(2)]), Act(OpenDetail)],
        ),
        ("哪个导师好", &[Act(Recommend)]),
        ("选谁比较好", &[Act(Recommend)]),
        ("不要比较了", &[]),
        ("能帮我找个温和的导师吗", &[Pers("温和"), Act(Recommend)]),
        ("给我推荐个做CV的", &[Dir("计算机视觉"), Act(Recommend)]),
        (
            "做推荐系统的导师有哪些",
            &[Dir("推荐系统"), Act(ListAdvisors)],
        ),
        ("做推荐的导师", &[Dir("推荐系统")]),
        ("推荐做NLP的导师", &[Dir("自然语言处理"), Act(Recommend)]),
        ("打开第三个", &[Refs(&[Ord(2)]), Act(OpenDetail)]),
        ("看看第二个", &[Refs(&[Ord(1)]), Act(OpenDetail)]),
        ("点开他的主页", &[Refs(&[Pro]), Act(OpenDetail)]),
        ("第一个的主页打开一下", &[Refs(&[Ord(0)]), Act(OpenDetail)]),
        (
            "比较一下第一个和第二个",
            &[Refs(&[Ord(0), Ord(1)]), Act(Compare)],
        ),
        (
            "第一个和第三个哪个更好",
            &[Refs(&[Ord(0), Ord(2)]), Act(Compare)],
        ),
        ("他的口碑怎么样，风评好吗", &[Refs(&[Pro]), Act(AskReviews)]),
        (
            "大家怎么评价张三",
            &[Refs(&[Name("张三")]), Act(AskReviews)],
        ),
        ("不想看评价，说说他人怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("他俩谁更靠谱", &[Act(Compare), Pair]),
        ("做量化的导师有吗", &[Dir("金融数学"), Act(ListAdvisors)]),
        ("有没有做CV的导师", &[Dir("计算机视觉"), Act(Recommend)]),
        (
            "除了北大还有哪些学校",
            &[School("北京大学"), Act(ListAdvisors)],
        ),
        ("这两个导师哪个更好", &[Act(Compare), Pair]),
        ("他的学生都去哪了", &[Refs(&[Pro]), Act(AskAbout)]),
        ("你觉得哪个导师最好", &[Act(Recommend)]),
        ("评分最高的是谁", &[Act(Recommend)]),
        ("评价最好的导师", &[Act(Recommend)]),
        ("学生评价高的导师推荐一下", &[Act(Recommend)]),
        ("帮我按评分排一下", &[Act(ListAdvisors)]),
        ("还有别的导师吗", &[Act(ListAdvisors)]),
        ("再推荐几个", &[Act(Recommend)]),
        ("上一个导师怎么样", &[Refs(&[Pro]), Act(AskAbout)]),
        ("李四脾气怎么样", &[Refs(&[Name("李四")]), Act(AskAbout)]),
        ("王五的经费多不多", &[Refs(&[Name("王五")]), Act(AskAbout)]),
        ("他的研究方向是什么", &[Refs(&[Pro]), Act(AskAbout)]),
        ("没有了，谢谢", &[Act(Goodbye)]),
        ("嗯嗯好的", &[]),
    ]);
}

/// "我是哪个学校的": a question about what the agent holds is read
/// back, never taken as a new value; stating a value is not a question.
#[test]
fn read_back_questions() {
    run(&[
        ("我刚才说的是哪个学校？", &[Act(ReadBack)]),
        ("你记下了我哪些要求", &[Act(ReadBack)]),
        ("我选的专业是什么", &[Act(ReadBack)]),
        ("我的条件是啥来着", &[Act(ReadBack)]),
        ("复述一下我的筛选条件", &[Act(ReadBack)]),
        ("我之前说想做什么方向来着", &[Act(ReadBack)]),
        ("我刚才说的是北大吗", &[School("北京大学"), Act(ReadBack)]),
        // Statements of a value: the value, not a read-back.
        ("我的要求是导师温和", &[Pers("温和")]),
        (
            "我选的是北大计算机",
            &[School("北京大学"), Major("计算机科学与技术")],
        ),
        // An advisor referred to: about him.
        (
            "我刚才说的第一个导师怎么样",
            &[Refs(&[Ord(0)]), Act(AskAbout)],
        ),
    ]);
}

/// "中山大学怎么样": a school or major in general is a question
/// about it, not a wish to search it; a wish, a preference or an advisor
/// makes it something else.
#[test]
fn questions_about_a_school_or_major() {
    run(&[
        ("北京大学怎么样", &[School("北京大学"), Act(AboutPlace)]),
        ("清华在哪个城市", &[School("清华大学"), Act(AboutPlace)]),
        (
            "计算机专业好就业吗",
            &[Major("计算机科学与技术"), Act(AboutPlace)],
        ),
        (
            "北大计算机难考吗",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                Act(AboutPlace),
            ],
        ),
        ("介绍一下浙江大学", &[School("浙江大学"), Act(AboutPlace)]),
        (
            "北京大学计算机系就业前景如何",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                Act(AboutPlace),
            ],
        ),
        // A wish: the form.
        (
            "哈工大的机械工程怎么样，我想考",
            &[School("哈尔滨工业大学"), Major("机械工程"), Act(AskAbout)],
        ),
        ("我想考北京大学", &[School("北京大学")]),
        // A preference or a direction: what the student wants.
        (
            "北京大学有没有温和的导师",
            &[School("北京大学"), Pers("温和"), Act(Recommend)],
        ),
        // The list of a place.
        (
            "北京大学计算机的导师有哪些",
            &[
                School("北京大学"),
                Major("计算机科学与技术"),
                Act(ListAdvisors),
            ],
        ),
        // A jobs word with no place is a preference as before.
        ("想找个好就业的导师", &[Style("产业型"), Act(Recommend)]),
    ]);
}

#[test]
fn questions_about_graduate_study_state_no_wish() {
    run(&[
        // Preference words that are the question's topic, not a wish.
        ("研究生可以自己选课题吗", &[]),
        ("学术会议一般谁出钱", &[]),
        ("读研能不能同时实习", &[]),
        // The student's own wish, or an answer that states one, still counts.
        (
            "我想找能实习的导师，有吗",
            &[Style("产业型"), Act(Recommend)],
        ),
        ("钱多少都行", &[Fund("一般")]),
        // Advisors of a named place asked for: not the FAQ its words touch.
        (
            "复旦金融有没有对跨考生友好的导师",
            &[School("复旦大学"), Major("金融学"), Act(Recommend)],
        ),
        // The students of an advisor graduate, not the one asking.
        (
            "浙大的人工智能哪位老师的学生毕业去大厂的多",
            &[School("浙江大学"), Major("人工智能"), Style("产业型")],
        ),
        (
            "清华软工里谁最适合零基础的学生",
            &[School("清华大学"), Major("软件工程"), Act(Recommend)],
        ),
    ]);
}

#[test]
fn a_look_at_the_reviews_asks_for_the_reviews() {
    run(&[
        (
            "最末尾那个老师的评价给我看下",
            &[Refs(&[End(0)]), Act(AskReviews)],
        ),
        ("第二个看一下", &[Refs(&[Ord(1)]), Act(OpenDetail)]),
        ("No.2 的学生评价", &[Refs(&[Ord(1)]), Act(AskReviews)]),
        ("top1 的导师详情", &[Refs(&[Ord(0)]), Act(OpenDetail)]),
        (
            "榜首那位的学生都怎么说他",
            &[Refs(&[Ord(0)]), Act(AskReviews)],
        ),
    ]);
}

#[test]
fn of_two_schools_the_one_before_the_major_stands() {
    run(&[
        (
            "清华不错，但我想考浙大的计算机",
            &[School("浙江大学"), Major("计算机科学与技术")],
        ),
        ("第三个，点开", &[Refs(&[Ord(2)]), Act(OpenDetail)]),
        ("第三个点开", &[Refs(&[Ord(2)]), Act(OpenDetail)]),
        // A recognizer drops the pause: 点 still starts 点进去.
        ("最后一个点进去", &[Refs(&[End(0)]), Act(OpenDetail)]),
        ("最后一个点是什么", &[Refs(&[])]),
    ]);
}

#[test]
fn of_advisors_weighed_aloud_the_one_settled_on_is_meant() {
    use super::super::Act::*;
    run(&[
        (
            "第二个还行，还是看看第三个的评价吧",
            &[Refs(&[Ord(2)]), Act(AskReviews), Corr],
        ),
        (
            "第一个算了，打开第四个",
            &[Refs(&[Ord(3)]), Act(OpenDetail), Corr],
        ),
    ]);
}

#[test]
fn a_major_that_is_also_a_request_s_word_is_the_major_where_one_stands() {
    run(&[
        // After a school, after 考: the major 统计学, no request for figures.
        (
            "我想考人大的统计",
            &[School("中国人民大学"), Major("统计学")],
        ),
        ("我想考统计", &[Major("统计学")]),
    ]);
}
