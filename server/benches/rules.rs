//! Posting-rule benchmark: the rule check of a 2000-character review
//! (target ≤ 1 ms) and of 70,000-character texts, ordinary and hostile
//! (one insult-exception word, one student title or one digit repeated —
//! what made the old quadratic scan take 40 s). Run: `cargo bench -p server
//! --bench rules` (`RULES_BENCH_LONG_RUNS=1` for fewer runs of the long
//! texts). Numbers are printed, never asserted.

use std::time::{Duration, Instant};

use server::reviews::rules::{check, RuleContext};

const SENTENCES: &[&str] = &[
    "老师学术水平很高，每周组会都会认真指导，",
    "经费一般但够用，每月补助3000元，年底还有奖金。",
    "组里有个微信群，通知都在群里发，邮件回复很快。",
    "师兄们毕业后都去了大厂，2023年组里发了13篇论文，",
    "听说老师人很好，和学生关系也不错，课题组网站上有论文列表。",
    "办公室在1203，实验室有8块A100显卡，横向项目不多。",
];

fn text_of(chars: usize, parts: &[&str]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.chars().count() < chars {
        s.push_str(parts[i % parts.len()]);
        i += 1;
    }
    s.chars().take(chars).collect()
}

fn time(label: &str, text: &str, runs: usize) {
    let ctx = RuleContext {
        advisor_name: "张三".into(),
    };
    check(text, &ctx); // the word lists are built once, before timing
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(check(std::hint::black_box(text), &ctx));
            t.elapsed()
        })
        .collect();
    samples.sort();
    println!(
        "{label:<44} {:>6} chars  p50={:>10.3?}  max={:>10.3?}",
        text.chars().count(),
        samples[samples.len() / 2],
        samples[samples.len() - 1]
    );
}

fn main() {
    time("a 2000-character review", &text_of(2000, SENTENCES), 500);
    time(
        "a 2000-character review with violations",
        &text_of(
            2000,
            &[
                SENTENCES[0],
                "加我微信 zhang_san88，电话一三八一二三四五六七八，",
                "听说他学术造假，这个老师就是个傻 逼。",
            ],
        ),
        500,
    );
    let long = [
        ("70,000 characters of reviews", text_of(70_000, SENTENCES)),
        (
            "70,000 characters: 垃圾分类 repeated",
            "垃圾分类".repeat(17_500),
        ),
        ("70,000 characters: 同学 repeated", "同学".repeat(35_000)),
        ("70,000 characters: one digit repeated", "1".repeat(70_000)),
        (
            "70,000 characters: 听说 + 和 repeated",
            "听说和".repeat(23_334),
        ),
    ];
    // Fewer runs for a slow implementation: RULES_BENCH_LONG_RUNS=1.
    let runs = std::env::var("RULES_BENCH_LONG_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    for (label, text) in &long {
        time(label, text, runs);
    }
}
