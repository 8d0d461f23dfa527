//! Speed: building the lexicons and analysing 1,000 varied utterances. The
//! times are printed (run with --nocapture), not asserted.

use std::time::Instant;

use super::super::{analyze, Lexicons};
use super::fixture::{majors, names, schools};

const SAMPLES: &[&str] = &[
    "我想考北京大学计算机系，想做机器学习，导师温和一点",
    "第一个导师怎么样",
    "他的学生评价呢",
    "算了，改成清华",
    "什么是985",
    "不是北大，是清华",
    "张三和李四哪个好",
    "我想考浙大软工，做计算机视觉，经费充足",
    "嗯……那个，我想考，呃，北大，然后就是说，想做量子纠错方向，不要太push",
    "谢谢，再见",
];

#[test]
fn thousand_utterances() {
    let t0 = Instant::now();
    let lex = Lexicons::new(&schools(), &majors());
    let build = t0.elapsed();
    let known = names();
    let t1 = Instant::now();
    let mut acts = 0usize;
    for i in 0..1000 {
        let a = analyze(SAMPLES[i % SAMPLES.len()], &lex, &known);
        acts += a.references.len();
    }
    let run = t1.elapsed();
    println!(
        "lexicons built in {:?}; 1000 utterances in {:?} ({:.1} µs each; {} references)",
        build,
        run,
        run.as_secs_f64() * 1e6 / 1000.0,
        acts
    );
}

/// Pieces students' sentences are made of, recombined pseudo-randomly: no
/// input may panic, whatever order the pieces come in.
const PIECES: &[&str] = &[
    "第",
    "一",
    "十",
    "个",
    "位",
    "名",
    "号",
    "倒数",
    "前",
    "两",
    "最后",
    "他",
    "这个",
    "那个",
    "的",
    "不",
    "不是",
    "别",
    "太",
    "还是",
    "吧",
    "呢",
    "算了",
    "改成",
    "北大",
    "交大",
    "北京",
    "大学",
    "专业",
    "系",
    "计算机",
    "视觉",
    "人工智能",
    "做",
    "研究",
    "方向",
    "对",
    "感兴趣",
    "经费",
    "多",
    "少",
    "无所谓",
    "push",
    "温和",
    "严格",
    "放养",
    "比较",
    "哪个好",
    "和",
    "，",
    "？",
    "985",
    "是什么",
    "谢谢",
    "再见",
    "考研",
    "张三",
    "老师",
    "1",
    "2",
    " ",
    "ml",
    "嗯",
    "那个",
    "学",
    "考",
    "魔法",
    "霍格沃茨",
    "、",
    "/",
    "都不想去",
    "本科是",
    "ＡＢ",
    "！",
    "😀",
];

#[test]
fn recombined_pieces_never_panic() {
    let lex = super::fixture::lexicons();
    let known = names();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..5000 {
        let mut s = String::new();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let n = (seed % 9) as usize + 1;
        for k in 0..n {
            let pick = (seed.rotate_left(7 * k as u32) % PIECES.len() as u64) as usize;
            s.push_str(PIECES[pick]);
        }
        let a = analyze(&s, lex, &known);
        if let Some(d) = &a.research_direction {
            assert!(d.chars().count() <= 12, "{s:?} → direction {d:?}");
        }
    }
}
