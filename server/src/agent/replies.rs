//! The agent's spoken lines: `prompts/embedded/replies.txt` (the analysis
//! side and every code-made reply) and `prompts/embedded/casual.txt` (the
//! casual persona), read as [`Templates`].

pub use crate::text::templates::Templates;

const REPLIES: &str = include_str!("../../../prompts/embedded/replies.txt");
const CASUAL: &str = include_str!("../../../prompts/embedded/casual.txt");

/// The agent's replies, shipped with the binary.
pub fn replies() -> Templates {
    Templates::parse(REPLIES)
}

/// The casual persona's replies.
pub fn casual() -> Templates {
    Templates::parse(CASUAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_templates_fit_the_voice_limit_with_typical_values() {
        let t = replies();
        let vars = [
            ("school", "北京航空航天大学"),
            ("major", "计算机科学与技术"),
            ("school_short", "北航"),
            ("major_short", "计算机系"),
            ("name", "欧阳明远"),
            ("title", "教授"),
            ("direction", "机器学习"),
            ("rating", "4.5"),
            ("tags", "大家说他温和、负责"),
            ("count", "48"),
            ("average", "4.5"),
            ("level", "很好"),
            ("reason", "主要研究机器学习，学生评价温和"),
            ("second", "李四副教授"),
            ("said", "交大"),
            ("what", "温和"),
            ("a", "欧阳明远"),
            ("b", "司马相如"),
            ("lead_a", "师生关系更好"),
            ("lead_b", "学术水平更高"),
            ("advisors", "142"),
            ("reviews", "1234"),
            ("most", "欧阳明远"),
            ("next", "你希望导师是什么风格呢？"),
            ("list", "北京航空航天大学、中国科学技术大学"),
            ("held", "北京航空航天大学，计算机科学与技术，机器学习方向"),
            ("fields", "经费和科研风格"),
            ("city", "北京"),
            ("tier", "双一流"),
            ("prospects", "4.2"),
            ("schools", "12"),
            ("best", "北航的欧阳明远和清华的司马相如"),
            ("place", "北航计算机系"),
        ];
        for key in t.keys() {
            for (i, _) in t.variants(key).iter().enumerate() {
                let text = t.render(key, i as u32, &vars);
                assert!(!text.contains('{'), "{key}: unfilled placeholder in {text}");
                assert!(
                    crate::voice::len(&text) <= crate::voice::MAX_CHARS,
                    "{key}: {text} is {} characters",
                    crate::voice::len(&text)
                );
            }
        }
    }

    #[test]
    fn the_seed_replies_are_there_word_for_word() {
        let t = replies();
        assert_eq!(
            t.render("ask_major", 0, &[("school", "北京大学")]),
            "好的，北京大学。你想考哪个专业呢？"
        );
        assert_eq!(
            t.render("ask_school", 0, &[("major", "计算机")]),
            "计算机专业，请问是哪个学校的呢？"
        );
        assert_eq!(
            t.render("greeting", 0, &[]),
            "你好！我是导师推荐助手。请告诉我你想考哪个学校的哪个专业？"
        );
        assert_eq!(
            t.render("no_list", 0, &[]),
            "目前还没有导师列表，请先告诉我你的学校和专业。"
        );
        assert_eq!(
            t.render("want_exam", 0, &[]),
            "好的，请问你想考哪个学校的哪个专业呢？"
        );
        assert_eq!(
            t.render("data_error", 0, &[]),
            "抱歉，数据加载失败了，请稍后再试。"
        );
    }
}
