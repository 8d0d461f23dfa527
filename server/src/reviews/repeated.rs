//! The same or nearly the same text posted on several advisors — a
//! campaign, a copied smear, a bot — is flagged for the admin (published,
//! but listed among the reported reviews with the reason), both the new
//! review and the earlier ones it repeats.
//!
//! Comparing a new review with every review does not scale to a million,
//! so each review written on the site keeps a MinHash signature of its
//! character bigrams (of the folded text: width, script and punctuation do
//! not matter) in [`BANDS`] bands of [`ROWS`] hashes. Two texts with
//! bigram Jaccard similarity s share at least one band with probability
//! 1 − (1 − s^ROWS)^BANDS: 0.9997 at s = 0.8, 0.33 at s = 0.2. Only reviews
//! sharing a band are read and compared exactly (the same similarity as
//! the per-writer duplicate rule, [`DUPLICATE_SIMILARITY`]).
//! The demo reviews are seeded, not written, and carry no signature.

use std::collections::HashSet;

use crate::db::Conn;
use crate::store::reviews as store;

use crate::text::fold::Folded;
use crate::text::similar::jaccard;

/// Texts this similar ([`jaccard`]) are the same review written again
/// (`app::policy`, which the `/rules` page prints).
pub use app::policy::DUPLICATE_SIMILARITY;

pub const BANDS: usize = 10;
pub const ROWS: usize = 2;
/// The writer key of the reports this check files.
pub const REPORTER: &str = "system:repeated";

fn mix(mut x: u64) -> u64 {
    // splitmix64's finaliser: a fixed, well-spread hash (no random seed, so
    // signatures stay comparable across restarts).
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The text as it is compared: folded, letters and digits only.
fn letters(text: &str) -> String {
    Folded::new(text)
        .text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// The band signatures of `text` (empty for a text under two characters).
pub fn signature(text: &str) -> Vec<i64> {
    let chars: Vec<char> = letters(text).chars().collect();
    let grams: HashSet<u64> = chars
        .windows(2)
        .map(|w| (u64::from(w[0]) << 32) | u64::from(w[1]))
        .collect();
    if grams.is_empty() {
        return Vec::new();
    }
    let mins: Vec<u64> = (0..BANDS * ROWS)
        .map(|seed| {
            let salt = mix(seed as u64 + 1);
            grams.iter().map(|g| mix(g ^ salt)).min().unwrap_or(0)
        })
        .collect();
    mins.chunks(ROWS)
        .enumerate()
        .map(|(band, rows)| {
            let h = rows.iter().fold(mix(band as u64), |acc, r| mix(acc ^ r));
            h as i64
        })
        .collect()
}

/// Stores the signature of review `id` and flags it, and the reviews of
/// other advisors with nearly the same text, when there are any. Runs in
/// the caller's transaction (the write of the review). Returns the ids of
/// the earlier reviews it repeats.
pub async fn record_and_flag(
    conn: &mut Conn,
    id: i64,
    advisor_id: i64,
    text: &str,
) -> Result<Vec<i64>, sqlx::Error> {
    let bands = signature(text);
    let candidates = store::replace_signatures(conn, id, advisor_id, &bands).await?;
    // The first hundred candidates, read in one statement.
    let candidates: Vec<i64> = candidates.into_iter().take(100).collect();
    let own = letters(text);
    let repeats: Vec<(i64, i64)> = store::advisors_and_texts(conn, &candidates)
        .await?
        .into_iter()
        .filter(|(_, _, earlier)| jaccard(&letters(earlier), &own) >= DUPLICATE_SIMILARITY)
        .map(|(other, advisor, _)| (other, advisor))
        .collect();
    if repeats.is_empty() {
        return Ok(Vec::new());
    }
    let advisors: HashSet<i64> = repeats.iter().map(|r| r.1).collect();
    let ids: Vec<String> = repeats.iter().map(|r| format!("#{}", r.0)).collect();
    let reason = format!(
        "相同或几乎相同的内容也发在了另外 {} 位导师名下（评价 {}）",
        advisors.len(),
        ids.join("、")
    );
    store::report(conn, id, REPORTER, &reason).await?;
    let reason = format!("相同或几乎相同的内容后来又发在了别的导师名下（评价 #{id}）");
    let others: Vec<i64> = repeats.iter().map(|r| r.0).collect();
    store::report_all(conn, &others, REPORTER, &reason).await?;
    tracing::info!(
        review = id,
        repeats = repeats.len(),
        "repeated text flagged"
    );
    Ok(repeats.into_iter().map(|r| r.0).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearly_the_same_texts_share_a_band_and_different_ones_rarely_do() {
        let a = signature("这个导师学术造假，压榨学生，大家千万不要报他的研究生！！");
        let b = signature("這個導師學術造假，壓榨學生，大家千萬不要報他的研究生。");
        let c = signature("老师人很好，经费充足，每周组会认真指导，毕业去向不错。");
        assert_eq!(a.len(), BANDS);
        assert!(
            a.iter().any(|h| b.contains(h)),
            "traditional, other punctuation"
        );
        assert!(!a.iter().any(|h| c.contains(h)));
        assert!(signature("").is_empty());
    }
}
