//! Schools, majors, directions, preferences, negation, corrections, unknown
//! names and normalisation, phrased the way students say them.

use super::check::{run, E::*};

const PKU: &str = "北京大学";
const THU: &str = "清华大学";
const CS: &str = "计算机科学与技术";
const JIAODA: &[&str] = &[
    "上海交通大学",
    "西安交通大学",
    "北京交通大学",
    "西南交通大学",
];

#[test]
fn schools_and_majors() {
    run(&[
        (
            "我想考北京大学计算机系，想做机器学习，导师温和一点",
            &[School(PKU), Major(CS), Dir("机器学习"), Pers("温和")],
        ),
        ("北大计算机", &[School(PKU), Major(CS)]),
        (
            "我想考浙大软工，做计算机视觉，经费充足",
            &[
                School("浙江大学"),
                Major("软件工程"),
                Dir("计算机视觉"),
                Fund("充足"),
            ],
        ),
        ("清华的CS", &[School(THU), Major(CS)]),
        ("ＰＫＵ　ＣＳ", &[School(PKU), Major(CS)]),
        ("想去交大", &[SchoolAmb("交大", JIAODA)]),
        ("北京交通大学", &[School("北京交通大学")]),
        (
            "西安交大的电子信息",
            &[School("西安交通大学"), Major("电子信息工程")],
        ),
        ("北京交大", &[School("北京交通大学")]),
        (
            "华师有啥好的",
            &[SchoolAmb("华师", &["华东师范大学", "华中师范大学"])],
        ),
        (
            "电子科技大学通信工程",
            &[School("电子科技大学"), Major("通信工程")],
        ),
        (
            "成电的电子",
            &[School("电子科技大学"), Major("电子信息工程")],
        ),
        ("中大临床", &[School("中山大学"), Major("临床医学")]),
        ("我想读复旦的金融", &[School("复旦大学"), Major("金融学")]),
        ("人大法学", &[School("中国人民大学"), Major("法学")]),
        (
            "报考上交人工智能专业",
            &[School("上海交通大学"), Major("人工智能")],
        ),
        // Right after the school it is the major, though 做 stands before.
        (
            "要是做深度学习，上交人工智能怎么样",
            &[
                School("上海交通大学"),
                Major("人工智能"),
                Dir("深度学习"),
                Act(super::super::Act::AskAbout),
            ],
        ),
        (
            "北航 软件工程",
            &[School("北京航空航天大学"), Major("软件工程")],
        ),
        (
            "考研考北邮通信",
            &[School("北京邮电大学"), Major("通信工程")],
        ),
        ("数学系", &[Major("数学")]),
        ("我是学物理的，想考南大", &[School("南京大学")]),
        ("我本科学的是人工智能，想读计算机", &[Major(CS)]),
        // The subject straight after 本科学, and no school known to anchor
        // the wanted major.
        (
            "我本科学人工智能的，想考霍格沃茨大学的计算机",
            &[Major(CS), UnknownSchool("霍格沃茨大学")],
        ),
        // A degree held is not a subject studied.
        ("本科学历能考北大计算机吗", &[School("北京大学"), Major(CS)]),
        (
            "人工智能和计算机哪个好",
            &[Major("人工智能"), Act(super::super::Act::Recommend)],
        ),
        (
            "华中科技大学机械",
            &[School("华中科技大学"), Major("机械工程")],
        ),
        ("哈尔滨工业大学", &[School("哈尔滨工业大学")]),
        ("武大 经济", &[School("武汉大学"), Major("经济学")]),
        (
            "中国科学技术大学的物理系",
            &[School("中国科学技术大学"), Major("物理学")],
        ),
        ("sjtu cs", &[School("上海交通大学"), Major(CS)]),
        (
            "人大管理",
            &[
                School("中国人民大学"),
                MajorAmb("管理", &["工商管理", "管理科学与工程"]),
            ],
        ),
        ("我想考上海的交大", &[School("上海交通大学")]),
        ("不是交大", &[]),
        (
            "经费充足的北大计算机导师",
            &[School(PKU), Major(CS), Fund("充足")],
        ),
        ("我想去东北大学", &[UnknownSchool("东北大学")]),
        ("湖南大学的计算机", &[UnknownSchool("湖南大学"), Major(CS)]),
        (
            "北大学生评价怎么样",
            &[School(PKU), Act(super::super::Act::AskReviews)],
        ),
        (
            "我本科是211的，想考北邮的通信",
            &[School("北京邮电大学"), Major("通信工程")],
        ),
    ]);
}

#[test]
fn major_or_direction_from_context() {
    run(&[
        ("人工智能", &[Major("人工智能")]),
        ("我想做人工智能", &[Dir("人工智能")]),
        (
            "北大计算机，研究AI",
            &[School(PKU), Major(CS), Dir("人工智能")],
        ),
        ("想考北大人工智能", &[School(PKU), Major("人工智能")]),
        ("我对人工智能感兴趣", &[Dir("人工智能")]),
        ("人工智能方向", &[Dir("人工智能")]),
        (
            "人工智能专业的导师有哪些",
            &[Major("人工智能"), Act(super::super::Act::ListAdvisors)],
        ),
        ("计算机 AI", &[Major(CS), Dir("人工智能")]),
        ("做通信的", &[Dir("无线通信")]),
        ("读通信", &[Major("通信工程")]),
        ("网络安全", &[Major("网络空间安全")]),
        ("方向：人工智能", &[Dir("人工智能")]),
        (
            "专业：AI，方向：CV",
            &[Major("人工智能"), Dir("计算机视觉")],
        ),
        ("计算机，做网络安全", &[Major(CS), Dir("网络安全")]),
    ]);
}

#[test]
fn directions_from_lexicon() {
    run(&[
        ("搞机器学习的", &[Dir("机器学习")]),
        ("ML方向", &[Dir("机器学习")]),
        ("想做NLP", &[Dir("自然语言处理")]),
        ("我想研究大模型", &[Dir("大模型")]),
        ("做LLM相关的", &[Dir("大模型")]),
        ("强化学习或者CV", &[Dir("强化学习")]),
        ("计算机视觉", &[Dir("计算机视觉")]),
        ("自动驾驶和机器人", &[Dir("自动驾驶")]),
        ("做芯片的", &[Dir("集成电路")]),
        ("6G通信方向", &[Dir("无线通信")]),
        ("图神经网络", &[Dir("图神经网络")]),
        ("多模态大模型", &[Dir("多模态")]),
        ("具身智能", &[Dir("具身智能")]),
        ("金融科技方向", &[Dir("金融科技")]),
        ("法学，做知识产权", &[Major("法学"), Dir("知识产权")]),
        ("临床医学，肿瘤方向", &[Major("临床医学"), Dir("肿瘤")]),
        ("做新能源电池", &[Dir("新能源")]),
        ("区块链", &[Dir("区块链")]),
        ("量子计算方向的导师", &[Dir("量子计算")]),
        ("计量经济", &[Dir("计量经济")]),
        ("半导体", &[Dir("半导体")]),
        ("搞deep learning的", &[Dir("深度学习")]),
        ("Machine Learning方向", &[Dir("机器学习")]),
        ("第一性原理计算", &[Dir("计算物理")]),
        ("偏微分方程", &[Dir("偏微分方程")]),
    ]);
}

#[test]
fn directions_in_own_words() {
    run(&[
        ("想做量子纠错方向", &[Dir("量子纠错")]),
        ("对量子纠错比较感兴趣", &[Dir("量子纠错")]),
        ("我想研究古文字释读", &[Dir("古文字释读")]),
        ("做蛋白质折叠", &[Dir("蛋白质折叠")]),
        ("研究方向是数字人文", &[Dir("数字人文")]),
        ("我想做一些类脑计算相关的研究", &[Dir("类脑计算")]),
        (
            "北大计算机，想搞程序综合",
            &[School(PKU), Major(CS), Dir("程序综合")],
        ),
        ("我想做一个好学生", &[]),
        ("做一些底层系统的", &[Dir("底层系统")]),
        ("我的方向是生物医学成像", &[Dir("生物医学成像")]),
        ("搞算法的", &[Dir("算法")]),
        ("做RAG的导师", &[Dir("RAG")]),
        ("我不知道做什么方向", &[Act(super::super::Act::Skip)]),
        ("不想做量子纠错", &[]),
    ]);
}

#[test]
fn preferences() {
    run(&[
        ("导师温柔一点", &[Pers("温和")]),
        (
            "想找个脾气好的",
            &[Pers("温和"), Act(super::super::Act::Recommend)],
        ),
        ("不要太严格", &[Pers("温和"), Rej(&["严格"])]),
        ("别太严", &[Pers("温和"), Rej(&["严格"])]),
        ("不想要push的", &[Pers("温和"), Rej(&["严格"])]),
        ("不要放养", &[Pers("负责"), Rej(&["放养"])]),
        ("别放养我", &[Pers("负责"), Rej(&["放养"])]),
        ("希望导师放养一点，自由", &[Pers("放养")]),
        ("要求严格一点也没关系", &[Pers("严格")]),
        ("手把手带的那种", &[Pers("负责")]),
        ("佛系导师", &[Pers("温和")]),
        ("导师nice一点", &[Pers("温和")]),
        ("不 push", &[Pers("温和")]),
        ("偏理论", &[Style("理论型")]),
        ("想发顶会", &[Style("理论型")]),
        ("做项目多一点的", &[Style("工程型")]),
        ("能去大厂，实习多", &[Style("产业型")]),
        ("不要理论型", &[Rej(&["理论型"])]),
        (
            "工程型的，不要太push",
            &[Style("工程型"), Pers("温和"), Rej(&["严格"])],
        ),
        ("经费充足", &[Fund("充足")]),
        ("经费多一点", &[Fund("充足")]),
        ("有钱的导师", &[Fund("充足")]),
        ("经费无所谓", &[Fund("一般")]),
        ("钱多少都行", &[Fund("一般")]),
        ("经费不要太少", &[Fund("充足")]),
        ("经费紧张也可以", &[Fund("紧张")]),
        ("不差钱的组", &[Fund("充足")]),
        ("经费一般就行", &[Fund("一般")]),
        ("补助高一点，人好", &[Fund("充足"), Pers("温和")]),
        ("不在乎钱", &[Fund("一般")]),
        ("经费我不太在乎", &[Fund("一般")]),
        ("特别温和的", &[Pers("温和")]),
        ("比较温和的导师", &[Pers("温和")]),
        ("怕导师太push", &[Pers("温和"), Rej(&["严格"])]),
        ("讨厌压榨学生的", &[Pers("温和"), Rej(&["严格"])]),
        (
            "不要太push，也别放养",
            &[Pers("温和"), Rej(&["严格", "放养"])],
        ),
        ("不喜欢严格和push的", &[Pers("温和"), Rej(&["严格"])]),
        ("关心学生、经常指导", &[Pers("负责")]),
        ("想要和企业合作多的，写代码的也行", &[Style("产业型")]),
        ("温和一点，算了还是严格的吧", &[Pers("严格"), Corr]),
        ("我比较关心经费，希望多一点", &[]),
        ("经费要多", &[Fund("充足")]),
        ("我不是很在意经费", &[Fund("一般")]),
        ("经费方面没什么要求", &[Fund("一般")]),
        ("经费越多越好", &[Fund("充足")]),
        ("不要太穷的组", &[Fund("充足"), Rej(&["紧张"])]),
        ("不要那种天天push的", &[Pers("温和"), Rej(&["严格"])]),
        ("我怕导师不管我", &[Pers("负责"), Rej(&["放养"])]),
        ("导师不能太放养", &[Pers("负责"), Rej(&["放养"])]),
        ("希望导师能给我自由", &[Pers("放养")]),
        ("我想毕业后去大厂", &[Style("产业型")]),
        ("偏工程一点，别太理论", &[Style("工程型"), Rej(&["理论型"])]),
        ("老板人好就行", &[Pers("温和")]),
        ("钱不重要，人品最重要", &[Fund("一般")]),
    ]);
}

#[test]
fn negation_rejection_and_correction() {
    run(&[
        ("不是北大，是清华", &[School(THU), Rej(&[PKU]), Corr]),
        ("不是北大是清华", &[School(THU), Rej(&[PKU]), Corr]),
        ("算了，改成清华", &[School(THU), Corr]),
        ("还是复旦吧", &[School("复旦大学"), Corr]),
        ("我想考北大，算了还是清华吧", &[School(THU), Corr]),
        // Two schools and nothing that tells which: asked, not the first.
        ("北大还是清华", &[SchoolEither(&[PKU, THU])]),
        ("不对，是浙大", &[School("浙江大学"), Corr]),
        ("换成计算机", &[Major(CS), Corr]),
        (
            "不考北大了，想考复旦",
            &[School("复旦大学"), Rej(&[PKU]), Corr],
        ),
        ("不要北大和清华", &[Rej(&[PKU, THU])]),
        // The same name said again after a pause (、, read 和) is a
        // speaker starting over, not a list the negation spreads over.
        (
            "北大的计算机不是北大软工、软工的导师",
            &[School(PKU), Major("软件工程"), Corr],
        ),
        (
            "我不想做CV，想做NLP",
            &[Dir("自然语言处理"), Rej(&["计算机视觉"]), Corr],
        ),
        ("专业改成软件工程", &[Major("软件工程"), Corr]),
        ("我的意思是上交", &[School("上海交通大学"), Corr]),
        ("说错了，是电子科大", &[School("电子科技大学"), Corr]),
        ("还是选严格一点的吧", &[Pers("严格"), Corr]),
        ("我觉得还是清华好", &[School(THU), Corr]),
        (
            "不要理论型的，要工程型",
            &[Style("工程型"), Rej(&["理论型"])],
        ),
        ("清华而不是北大", &[School(THU), Rej(&[PKU]), Corr]),
        ("不是计算机，是软工", &[Major("软件工程"), Rej(&[CS]), Corr]),
        (
            "别推荐北大的",
            &[Rej(&[PKU]), Act(super::super::Act::Recommend)],
        ),
        ("北大不错，清华也行", &[SchoolEither(&[PKU, THU])]),
        ("算了还是做机器学习吧", &[Dir("机器学习"), Corr]),
        ("北大和清华都不想去", &[Rej(&[PKU, THU])]),
        ("北大不考虑", &[Rej(&[PKU])]),
        ("工程型的不要", &[Rej(&["工程型"])]),
        (
            "我喜欢温和的，不要太严格的",
            &[Pers("温和"), Rej(&["严格"])],
        ),
        ("温和的不要太严格的", &[Pers("温和"), Rej(&["严格"])]),
        ("我不太喜欢理论型的导师", &[Rej(&["理论型"])]),
        (
            "CV方向，不要NLP",
            &[Dir("计算机视觉"), Rej(&["自然语言处理"]), Corr],
        ),
        ("push的不要", &[Rej(&["严格"]), Pers("温和")]),
        ("浙大，不对，复旦", &[School("复旦大学"), Corr]),
        // A 不是 said as a clause of its own takes back what came before.
        (
            "北交的计算机，不是，西南交大的计算机",
            &[School("西南交通大学"), Major(CS), Corr],
        ),
        ("我想考北大，不，清华", &[School(THU), Corr]),
        // …and, said within the clause, still rejects what follows it.
        ("我想考北大，不是清华", &[School(PKU), Rej(&[THU]), Corr]),
        // A correction whose new name came out as a homophone: the name
        // taken back is not kept for want of a read one.
        (
            "我想考复旦，不对，是浙打的计算机",
            &[School("浙江大学"), Major(CS), Corr],
        ),
        ("还是北大好一点", &[School(PKU), Corr]),
        (
            "不做CV了，改做NLP",
            &[Dir("自然语言处理"), Rej(&["计算机视觉"]), Corr],
        ),
        ("方向改成强化学习", &[Dir("强化学习"), Corr]),
        (
            "不要计算机了，换成软工",
            &[Major("软件工程"), Rej(&[CS]), Corr],
        ),
        (
            "我想考浙大或者复旦",
            &[SchoolEither(&["浙江大学", "复旦大学"])],
        ),
        // The past is not the goal; alternatives are asked about; a field
        // put off is not asked for.
        ("我本科在武汉大学，想考北京大学", &[School("北京大学")]),
        // A major heard as a school's short name, where the major stands.
        (
            "大工的华工",
            &[School("大连理工大学"), Major("化学工程与技术")],
        ),
        ("华工的自动化", &[School("华南理工大学"), Major("自动化")]),
        // …or after the school and a pause, as the last words said; two
        // schools offered as options stay two schools.
        (
            "呃，浙大，华工",
            &[School("浙江大学"), Major("化学工程与技术")],
        ),
        (
            "浙大，华工，都行",
            &[SchoolEither(&["浙江大学", "华南理工大学"])],
        ),
        // …or joined to a major, and then wherever it is said again; the
        // school written in other characters beside it is heard (大功).
        (
            "大功的华工或者自动化，华工吧",
            &[School("大连理工大学"), Major("化学工程与技术")],
        ),
        // A major heard by sound after the 还是 of a choice, settled on
        // with 吧.
        (
            "北大的计算机还是软功能，软功吧",
            &[School("北京大学"), Major("软件工程")],
        ),
        // The past ends at a wish said without a pause.
        ("我本科在杭州想考浙江大学", &[School("浙江大学")]),
        (
            "本科学计算机现在想考北大的软件工程",
            &[School("北京大学"), Major("软件工程")],
        ),
        // The field studied before, gone on in.
        (
            "本科是学软工的，想考北航接着读",
            &[School("北京航空航天大学"), Major("软件工程")],
        ),
        ("本科学软工，想考北航", &[School("北京航空航天大学")]),
        ("我是南开毕业的，目标复旦", &[School("复旦大学")]),
        ("同济出身，想去上交", &[School("上海交通大学")]),
        (
            "清华考不上就考北航",
            &[SchoolEither(&["清华大学", "北京航空航天大学"])],
        ),
        (
            "北大不行的话清华也可以",
            &[SchoolEither(&["北京大学", "清华大学"])],
        ),
        (
            "计算机，学校再说",
            &[Major("计算机科学与技术"), Postponed(&["school"])],
        ),
        (
            "北大吧，专业还没想好",
            &[School("北京大学"), Postponed(&["major"])],
        ),
        (
            "我想考北京大學計算機系",
            &[School("北京大学"), Major("计算机科学与技术")],
        ),
        ("我是想说复旦", &[School("复旦大学"), Corr]),
        ("不是温和，是负责", &[Pers("负责"), Rej(&["温和"]), Corr]),
        (
            "不是北大计算机，是清华软件",
            &[School(THU), Major("软件工程"), Rej(&[PKU, CS]), Corr],
        ),
        ("北大，哦不，清华", &[School(THU), Corr]),
        ("北大分太高了，还是考清华吧", &[School(THU), Corr]),
        ("把学校改成清华", &[School(THU), Corr]),
        ("导师要温和的，算了还是严格点吧", &[Pers("严格"), Corr]),
        ("不不不，我说的是北交", &[School("北京交通大学"), Corr]),
        ("专业不要计算机了", &[Rej(&[CS])]),
    ]);
}

#[test]
fn unknown_names() {
    run(&[
        ("我想考霍格沃茨大学", &[UnknownSchool("霍格沃茨大学")]),
        ("魔法学专业", &[UnknownMajor("魔法学")]),
        (
            "我想读霍格沃茨大学的魔法学专业",
            &[UnknownSchool("霍格沃茨大学"), UnknownMajor("魔法学")],
        ),
        ("北大的考古学专业", &[School(PKU), UnknownMajor("考古学")]),
        ("想考哈佛大学", &[UnknownSchool("哈佛大学")]),
        ("哪个大学好", &[]),
        ("上大学的时候学的计算机", &[Major(CS)]),
        ("我本科大学是一所普通的学校", &[]),
        ("我想跨专业", &[]),
        ("这个专业怎么样", &[Act(super::super::Act::AskAbout)]),
        (
            "清华的生物医学工程专业",
            &[School(THU), UnknownMajor("生物医学工程")],
        ),
        ("我想学魔法学专业", &[UnknownMajor("魔法学")]),
        ("提前联系导师", &[]),
        ("985大学", &[]),
        ("海外大学", &[]),
        ("北大的王牌专业", &[School(PKU)]),
        ("我在大学里学的是计算机", &[Major(CS)]),
        ("学什么专业好", &[]),
    ]);
}

#[test]
fn normalisation() {
    run(&[
        ("嗯……那个，我想考，呃，北大", &[School(PKU)]),
        ("ＣＶ方向", &[Dir("计算机视觉")]),
        ("北 大 计 算 机", &[School(PKU), Major(CS)]),
        (
            "浙大，，，软工！！！",
            &[School("浙江大学"), Major("软件工程")],
        ),
        ("emmm 想做 NLP 吧", &[Dir("自然语言处理")]),
        ("然后就是说，我想读那个复旦", &[School("复旦大学")]),
        ("Ｎｌｐ", &[Dir("自然语言处理")]),
        ("“清华”的“计算机”", &[School(THU), Major(CS)]),
    ]);
}

#[test]
fn several_slots_in_one_sentence() {
    run(&[
        (
            "复旦金融，做金融科技，导师负责一点，经费多",
            &[
                School("复旦大学"),
                Major("金融学"),
                Dir("金融科技"),
                Pers("负责"),
                Fund("充足"),
            ],
        ),
        (
            "清华电子 芯片方向 不要太卷",
            &[
                School(THU),
                Major("电子信息工程"),
                Dir("集成电路"),
                Pers("温和"),
                Rej(&["严格"]),
            ],
        ),
        (
            "我想去中科大读物理，研究量子计算，希望导师放养",
            &[
                School("中国科学技术大学"),
                Major("物理学"),
                Dir("量子计算"),
                Pers("放养"),
            ],
        ),
        (
            "人大经济学 计量方向 偏理论",
            &[
                School("中国人民大学"),
                Major("经济学"),
                Dir("计量经济"),
                Style("理论型"),
            ],
        ),
        (
            "软工，工程型，钱多，人好",
            &[
                Major("软件工程"),
                Style("工程型"),
                Fund("充足"),
                Pers("温和"),
            ],
        ),
        (
            "想找个北邮做通信的、不push的导师",
            &[
                School("北京邮电大学"),
                // 通信 is a major's name too, and no major is said beside
                // the school: the field asked for.
                Major("通信工程"),
                Dir("无线通信"),
                Pers("温和"),
                Act(super::super::Act::Recommend),
            ],
        ),
    ]);
}

#[test]
fn a_student_weighing_options_aloud_settles_on_the_last() {
    run(&[
        // A reason that turns an option down, then another of its kind.
        (
            "浙大分数太高了，那就考南大的软件工程吧",
            &[School("南京大学"), Major("软件工程"), Corr],
        ),
        ("北航太卷，不如去北邮", &[School("北京邮电大学"), Corr]),
        // A change of plan.
        (
            "本来想报复旦的法学，现在打算去人大",
            &[School("中国人民大学"), Major("法学"), Corr],
        ),
        // 还是…吧 settles, with words after the 吧 too.
        ("上交还是复旦，还是复旦吧", &[School("复旦大学"), Corr]),
        ("还是浙大吧计算机", &[School("浙江大学"), Major(CS), Corr]),
        // The name said again where another was named.
        ("武大和华科，华科吧", &[School("华中科技大学")]),
        // Alone, a reason takes nothing back, and a preference keeps its
        // meaning.
        ("北大太难了", &[School(PKU)]),
    ]);
}

#[test]
fn a_value_taken_back_and_said_again_stands() {
    run(&[
        // The school said twice, the major replaced: only the major is
        // rejected.
        (
            "不是北大的法学，是北大的金融",
            &[School(PKU), Major("金融学"), Rej(&["法学"]), Corr],
        ),
        // 无对, a recognizer's 不对.
        ("想考复旦，无对，是浙大", &[School("浙江大学"), Corr]),
    ]);
}
