//! A "no" as students say it and recognizers write it: after a filler, with
//! the pause moved or lost, and the name it took back not heard again.

use super::check::{run, E::*};

const BUPT: &str = "北京邮电大学";

#[test]
fn a_no_after_a_filler_or_with_its_pause_moved_corrects() {
    run(&[
        // After a filler; the request after the replacement replaces nothing.
        (
            "北邮软件工程，啊不是，是网安，帮我看下导师",
            &[School(BUPT), Major("网络空间安全"), Corr],
        ),
        // The pause before 不是 lost, the one after it kept.
        (
            "北邮的通信工程不是，是电子信息工程的导师",
            &[School(BUPT), Major("电子信息工程"), Corr],
        ),
        // 是 written as 世, no pause at all.
        (
            "北邮的通信工程，不是世电子信息工程",
            &[School(BUPT), Major("电子信息工程"), Corr],
        ),
    ]);
}

#[test]
fn the_school_before_a_correction_is_not_heard_again_as_another() {
    // 华东师大 and 华中师大 sound alike: the major was corrected, the school
    // said once stays.
    run(&[(
        "华东师大的通信工程，不对，是软件工程",
        &[School("华东师范大学"), Major("软件工程"), Corr],
    )]);
}

#[test]
fn a_name_said_again_in_full_after_a_short_one_is_the_one_meant() {
    run(&[
        // A short name misheard (华科 as 华工), then the full name.
        (
            "想问一下，华工那个机械，就是华中科技大学",
            &[School("华中科技大学"), Major("机械工程")],
        ),
        (
            "北航的，也就是北京航空航天大学，计算机",
            &[School("北京航空航天大学"), Major("计算机科学与技术")],
        ),
        // Two schools offered side by side stay two.
        (
            "北大或者清华，就是计算机",
            &[
                SchoolEither(&["北京大学", "清华大学"]),
                Major("计算机科学与技术"),
            ],
        ),
    ]);
}
