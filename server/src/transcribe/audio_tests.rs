//! The recording checks' tests: containers, durations and forged headers,
//! read from bytes made here.

use super::*;

#[test]
fn wav_lasts_what_its_header_says() {
    let r = check(&silent_wav(2500)).unwrap();
    assert_eq!(r.container, Container::Wav);
    assert_eq!(r.duration, Some(Duration::from_millis(2500)));
    assert_eq!(check(&silent_wav(100)), Err(Refusal::TooShort));
    // 31 s of 16 kHz WAV is 992 KB: under the size cap, over the length cap.
    assert_eq!(check(&silent_wav(31_000)), Err(Refusal::TooLong));
}

#[test]
fn anything_else_is_refused_before_any_work() {
    assert_eq!(check(b""), Err(Refusal::Empty));
    assert_eq!(check(b"<html>hello</html>"), Err(Refusal::NotAudio));
    assert_eq!(check(&vec![0x1A; MAX_BYTES + 1]), Err(Refusal::TooLarge));
    // A RIFF/WAVE without a data chunk is not a recording.
    let mut broken = silent_wav(1000);
    broken.truncate(30);
    assert_eq!(check(&broken), Err(Refusal::NotAudio));
    for r in [
        Refusal::Empty,
        Refusal::TooLarge,
        Refusal::NotAudio,
        Refusal::TooLong,
        Refusal::TooShort,
    ] {
        assert!(r
            .message()
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
    }
}

/// An Ogg Opus stream: the head page, then one audio page whose granule
/// position is `samples` at 48 kHz.
fn ogg(samples: u64) -> Vec<u8> {
    let mut b = Vec::new();
    let page = |granule: u64, payload: &[u8]| {
        let mut p = b"OggS\0\0".to_vec();
        p.extend_from_slice(&granule.to_le_bytes());
        p.extend_from_slice(&[0; 12]);
        p.push(1);
        p.push(payload.len() as u8);
        p.extend_from_slice(payload);
        p
    };
    let mut head = b"OpusHead\x01\x01".to_vec();
    head.extend_from_slice(&312u16.to_le_bytes());
    head.extend_from_slice(&48_000u32.to_le_bytes());
    b.extend(page(0, &head));
    b.extend(page(samples + 312, &[0; 40]));
    b
}

#[test]
fn ogg_opus_lasts_its_last_granule() {
    let r = check(&ogg(48_000 * 3)).unwrap();
    assert_eq!(r.container, Container::Ogg);
    assert_eq!(r.duration, Some(Duration::from_secs(3)));
    assert_eq!(check(&ogg(48_000 * 40)), Err(Refusal::TooLong));
}

fn el(id: &[u8], body: &[u8]) -> Vec<u8> {
    let mut e = id.to_vec();
    // An 8-byte size, as muxers often write.
    e.push(0x01);
    e.extend_from_slice(&(body.len() as u64).to_be_bytes()[1..]);
    e.extend_from_slice(body);
    e
}

/// A WebM as Chrome's MediaRecorder writes it: no duration, clusters of
/// unknown size, blocks with times relative to their cluster.
fn webm(clusters: &[(u64, &[i16])]) -> Vec<u8> {
    let mut b = el(&[0x1A, 0x45, 0xDF, 0xA3], b"\x42\x82\x84webm");
    b.extend_from_slice(&[
        0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    ]);
    b.extend(el(
        &[0x15, 0x49, 0xA9, 0x66],
        &el(&[0x2A, 0xD7, 0xB1], &[0x0F, 0x42, 0x40]),
    ));
    for (time, blocks) in clusters {
        b.extend_from_slice(&[
            0x1F, 0x43, 0xB6, 0x75, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ]);
        b.extend(el(&[0xE7], &time.to_be_bytes()));
        for rel in *blocks {
            let mut block = vec![0x81];
            block.extend_from_slice(&rel.to_be_bytes());
            block.push(0x80);
            block.extend_from_slice(&[0xA3; 30]); // payload bytes that look like IDs
            b.extend(el(&[0xA3], &block));
        }
    }
    b
}

#[test]
fn webm_whose_header_says_less_than_its_blocks_lasts_to_its_last_block() {
    // A `Duration` of 1 tick (1 ms), as a recorder streaming its data
    // writes before it knows the length; blocks up to 1.9 s.
    let plain = webm(&[(0, &[0, 20, 40]), (1000, &[0, 500, 900])]);
    let scale = el(&[0x2A, 0xD7, 0xB1], &[0x0F, 0x42, 0x40]);
    let old_info = el(&[0x15, 0x49, 0xA9, 0x66], &scale);
    let mut body = scale.clone();
    body.extend(el(&[0x44, 0x89], &1.0f32.to_be_bytes()));
    let new_info = el(&[0x15, 0x49, 0xA9, 0x66], &body);
    let at = plain
        .windows(old_info.len())
        .position(|w| w == &old_info[..])
        .unwrap();
    let mut b = plain[..at].to_vec();
    b.extend(new_info);
    b.extend_from_slice(&plain[at + old_info.len()..]);
    let r = check(&b).unwrap();
    assert_eq!(r.duration, Some(Duration::from_millis(1920)));
}

#[test]
fn webm_without_a_duration_lasts_to_its_last_block() {
    let r = check(&webm(&[(0, &[0, 20, 40]), (2000, &[0, 500, 980])])).unwrap();
    assert_eq!(r.container, Container::Webm);
    assert_eq!(r.duration, Some(Duration::from_millis(3000)));
    let long: Vec<(u64, &[i16])> = (0..40).map(|s| (s * 1000, &[0i16, 500][..])).collect();
    assert_eq!(check(&webm(&long)), Err(Refusal::TooLong));
    // A header alone: its length is unknown, the bytes bound it.
    let r = check(&webm(&[])).unwrap();
    assert_eq!(r.duration, None);
}

#[test]
fn mp4_lasts_what_mvhd_says() {
    let mut b = vec![0, 0, 0, 16];
    b.extend_from_slice(b"ftypM4A \0\0\0\0");
    b.extend_from_slice(&[0, 0, 0, 108]);
    b.extend_from_slice(b"mvhd");
    b.extend_from_slice(&[0; 12]); // version, flags, creation, modification
    b.extend_from_slice(&1000u32.to_be_bytes());
    b.extend_from_slice(&4200u32.to_be_bytes());
    b.extend_from_slice(&[0; 80]);
    let r = check(&b).unwrap();
    assert_eq!(r.container, Container::Mp4);
    assert_eq!(r.duration, Some(Duration::from_millis(4200)));
}

/// The MP4 of the hostile uploads: `mvhd` version 1 declaring 2^64−1
/// units at one per second. It overflowed `Duration::from_secs_f64`
/// (a panic, answered 500); it is a damaged header.
#[test]
fn an_mp4_declaring_centuries_is_damaged_not_a_panic() {
    let mut b = vec![0, 0, 0, 16];
    b.extend_from_slice(b"ftypisom\0\0\0\0");
    b.extend_from_slice(&[0, 0, 0, 120]);
    b.extend_from_slice(b"mvhd\x01\0\0\0");
    b.extend_from_slice(&[0; 16]); // creation, modification
    b.extend_from_slice(&1u32.to_be_bytes());
    b.extend_from_slice(&u64::MAX.to_be_bytes());
    b.extend_from_slice(&[0; 80]);
    assert_eq!(check(&b), Err(Refusal::Damaged));
    // A zero timescale says nothing: the size alone bounds it.
    let at = b.len() - 80 - 12;
    b[at..at + 4].copy_from_slice(&0u32.to_be_bytes());
    assert_eq!(check(&b).unwrap().duration, None);
}

#[test]
fn lengths_at_the_edges_of_their_integers_never_panic() {
    // A granule position near 2^64 at 48 kHz: thousands of years.
    assert_eq!(check(&ogg(u64::MAX - 1_000)), Err(Refusal::Damaged));
    // A cluster at the last timecode before i64 wraps, a block after it.
    let far = webm(&[(i64::MAX as u64, &[0, 100])]);
    assert_eq!(check(&far), Err(Refusal::Damaged));
    let last = webm(&[(u64::MAX, &[i16::MAX])]);
    assert_eq!(check(&last), Err(Refusal::Damaged));
    // A block before its cluster's start counts from zero.
    assert_eq!(check(&webm(&[(0, &[-500])])), Err(Refusal::TooShort));
    // A WAV whose byte rate is one byte a second: a day and more.
    let mut slow = silent_wav(3000);
    slow[28..32].copy_from_slice(&1u32.to_le_bytes());
    assert_eq!(check(&slow), Err(Refusal::Damaged));
}

#[test]
fn ticks_are_exact_and_never_overflow() {
    assert_eq!(ticks(4200, 1000), Some(Duration::from_millis(4200)));
    assert_eq!(ticks(1, 3), Some(Duration::new(0, 333_333_333)));
    assert_eq!(ticks(u64::MAX, 1), Some(Duration::new(u64::MAX, 0)));
    assert_eq!(ticks(u64::MAX, u64::MAX), Some(Duration::from_secs(1)));
    assert_eq!(ticks(5, 0), None);
    assert_eq!(nanos(u128::MAX), Duration::MAX);
    assert_eq!(nanos(1_500_000_000), Duration::from_millis(1500));
}
