//! A major described by its work, not named (`major_work.txt`).

use super::check::{run, E::*};

#[test]
fn a_major_described_by_its_work_is_that_major() {
    use super::super::Act::*;
    run(&[
        (
            "浙大做芯片的那个专业导师排名有没有",
            &[
                School("浙江大学"),
                Major("电子信息工程"),
                Dir("集成电路"),
                Act(Recommend),
            ],
        ),
        (
            "我想学防黑客的那种专业，北交的",
            &[School("北京交通大学"), Major("网络空间安全")],
        ),
        // A field said without a school: the major, the school asked next.
        ("以后想当律师，有这个专业吗", &[Major("法学")]),
        // Work of two fields: both, as chips.
        (
            "浙大，以后想写代码",
            &[
                School("浙江大学"),
                MajorAmb("写代码", &["计算机科学与技术", "软件工程"]),
                Style("工程型"),
            ],
        ),
        // Not wanted; or neither a school nor a field beside it (the
        // direction of a form that may have its major already).
        ("浙大，不想写代码", &[School("浙江大学"), Rej(&["工程型"])]),
        ("北大，不太想当老师的那种专业", &[School("北京大学")]),
        ("以后想当律师", &[]),
        // A job in the family is no field of the student's.
        ("我爸是医生，想考北大", &[School("北京大学")]),
    ]);
}
