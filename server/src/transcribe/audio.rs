//! What an uploaded recording is, read from its bytes before any work is
//! done on it: the container (the browser's `MediaRecorder` writes WebM or
//! Ogg with Opus, Safari MP4; a file from elsewhere may be WAV) and, where
//! the container says, how long it lasts. The declared `Content-Type` is
//! not believed: the first bytes decide.
//!
//! Durations: WAV from its header; Ogg from the last page's granule
//! position; WebM from the last block's timecode (Chrome writes no
//! duration, so the clusters are walked); MP4 from `mvhd`. A recording
//! whose length cannot be read (a fragmented MP4) is bounded by its size
//! alone ([`MAX_BYTES`]).

use std::time::Duration;

/// The largest recording accepted: 30 s of 16 kHz 16-bit mono WAV is
/// 960 KB; the panel's Opus at 32 kbit/s is 120 KB for the same.
pub const MAX_BYTES: usize = 1024 * 1024;
/// The longest recording accepted: one thing said to the agent, and one
/// window of a Whisper model.
pub const MAX_DURATION: Duration = Duration::from_secs(30);
/// Shorter than this is a tap, not speech.
pub const MIN_DURATION: Duration = Duration::from_millis(300);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Webm,
    Ogg,
    Wav,
    Mp4,
}

impl Container {
    /// The MIME type the recording is forwarded with.
    pub fn mime(self) -> &'static str {
        match self {
            Container::Webm => "audio/webm",
            Container::Ogg => "audio/ogg",
            Container::Wav => "audio/wav",
            Container::Mp4 => "audio/mp4",
        }
    }

    /// A file name for the upstream form (servers pick a decoder by it).
    pub fn file_name(self) -> &'static str {
        match self {
            Container::Webm => "speech.webm",
            Container::Ogg => "speech.ogg",
            Container::Wav => "speech.wav",
            Container::Mp4 => "speech.m4a",
        }
    }
}

/// A recording that may be sent on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recording {
    pub container: Container,
    /// `None` when the container does not say.
    pub duration: Option<Duration>,
}

/// Why a recording is refused, each with the sentence the student reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    TooLarge,
    NotAudio,
    TooLong,
    TooShort,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Empty => "没有收到录音，请再说一遍。",
            Refusal::TooLarge | Refusal::TooLong => "这段录音太长了，请分开说，每次不超过 30 秒。",
            Refusal::NotAudio => {
                "无法识别这段录音的格式（支持 WebM、Ogg、WAV、MP4），请改用文字输入。"
            }
            Refusal::TooShort => "录音太短了，请按下麦克风后说完一句话再停。",
        }
    }
}

/// Checks a recording: size, container, duration.
pub fn check(bytes: &[u8]) -> Result<Recording, Refusal> {
    if bytes.is_empty() {
        return Err(Refusal::Empty);
    }
    if bytes.len() > MAX_BYTES {
        return Err(Refusal::TooLarge);
    }
    let container = sniff(bytes).ok_or(Refusal::NotAudio)?;
    let duration = match container {
        Container::Wav => Some(wav_duration(bytes).ok_or(Refusal::NotAudio)?),
        Container::Ogg => ogg_duration(bytes),
        Container::Webm => webm_duration(bytes),
        Container::Mp4 => mp4_duration(bytes),
    };
    match duration {
        Some(d) if d > MAX_DURATION => Err(Refusal::TooLong),
        Some(d) if d < MIN_DURATION => Err(Refusal::TooShort),
        _ => Ok(Recording {
            container,
            duration,
        }),
    }
}

/// The container, by its magic bytes.
pub fn sniff(b: &[u8]) -> Option<Container> {
    if b.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
        Some(Container::Webm)
    } else if b.starts_with(b"OggS") {
        Some(Container::Ogg)
    } else if b.len() >= 12 && &b[0..4] == b"RIFF" && &b[8..12] == b"WAVE" {
        Some(Container::Wav)
    } else if b.len() >= 8 && &b[4..8] == b"ftyp" {
        Some(Container::Mp4)
    } else {
        None
    }
}

fn u16le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn u32le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64le(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}
fn u32be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64be(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The `data` chunk's length over the `fmt ` chunk's byte rate. A WAV
/// without both is not one.
fn wav_duration(b: &[u8]) -> Option<Duration> {
    let mut at = 12;
    let mut byte_rate = None;
    while at + 8 <= b.len() {
        let id = &b[at..at + 4];
        let size = u32le(b, at + 4)? as usize;
        let body = at + 8;
        if id == b"fmt " {
            byte_rate = Some(u32le(b, body + 8)?);
        } else if id == b"data" {
            let rate = byte_rate.filter(|r| *r > 0)?;
            // A recorder still writing puts 0 or u32::MAX here: what is there counts.
            let size = size.min(b.len() - body);
            return Some(Duration::from_secs_f64(size as f64 / rate as f64));
        }
        at = body + size + (size & 1);
    }
    None
}

/// The last page's granule position, in samples at the stream's rate
/// (48 kHz for Opus, less its pre-skip; the identification header's rate for
/// Vorbis).
fn ogg_duration(b: &[u8]) -> Option<Duration> {
    let (rate, skip) = if let Some(at) = find(b, b"OpusHead") {
        (48_000u64, u16le(b, at + 10)? as u64)
    } else if let Some(at) = find(b, b"\x01vorbis") {
        (u32le(b, at + 12)? as u64, 0)
    } else {
        return None;
    };
    let last = rfind(b, b"OggS")?;
    let granule = u64le(b, last + 6)?;
    if granule == u64::MAX || rate == 0 {
        return None;
    }
    Some(Duration::from_secs_f64(
        granule.saturating_sub(skip) as f64 / rate as f64,
    ))
}

/// MP4's `mvhd`: duration over timescale (zero in a fragmented file: unknown).
fn mp4_duration(b: &[u8]) -> Option<Duration> {
    let at = find(b, b"mvhd")? + 4;
    let version = *b.get(at)?;
    let (scale, duration) = if version == 1 {
        (u32be(b, at + 20)?, u64be(b, at + 24)?)
    } else {
        (u32be(b, at + 12)?, u32be(b, at + 16)? as u64)
    };
    (scale > 0 && duration > 0).then(|| Duration::from_secs_f64(duration as f64 / scale as f64))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// An EBML variable-length integer at `at`: its value (the length marker
/// removed) and its length; `None` for an unknown size (all ones).
fn vint(b: &[u8], at: usize) -> Option<(Option<u64>, usize)> {
    let first = *b.get(at)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return None;
    }
    let mut value = (first as u64) & (0xFF >> len);
    let mut all_ones = value == (0xFF >> len) as u64;
    for i in 1..len {
        let byte = *b.get(at + i)?;
        all_ones &= byte == 0xFF;
        value = (value << 8) | byte as u64;
    }
    Some((if all_ones { None } else { Some(value) }, len))
}

/// An element ID at `at` (the marker kept, as IDs are written) and its length.
fn element_id(b: &[u8], at: usize) -> Option<(u32, usize)> {
    let first = *b.get(at)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 4 {
        return None;
    }
    let mut id = 0u32;
    for i in 0..len {
        id = (id << 8) | *b.get(at + i)? as u32;
    }
    Some((id, len))
}

const EBML_SEGMENT: u32 = 0x1853_8067;
const EBML_CLUSTER: u32 = 0x1F43_B675;
const EBML_TIMECODE: u32 = 0xE7;
const EBML_SIMPLE_BLOCK: u32 = 0xA3;
const EBML_BLOCK_GROUP: u32 = 0xA0;
const EBML_BLOCK: u32 = 0xA1;
const EBML_INFO: u32 = 0x1549_A966;
const EBML_TIMECODE_SCALE: u32 = 0x2AD7B1;
const EBML_DURATION: u32 = 0x4489;

/// The end of the last block: walks the segment's top-level elements and the
/// clusters' blocks (clusters of unknown size, as `MediaRecorder` writes
/// them, end where the next cluster begins). The `Info` element's
/// `Duration` when a muxer wrote one.
fn webm_duration(b: &[u8]) -> Option<Duration> {
    let mut scale_ns: u64 = 1_000_000;
    let mut latest_ms: Option<f64> = None;
    let mut written: Option<f64> = None;
    // Skip the EBML header.
    let (_, id_len) = element_id(b, 0)?;
    let (size, size_len) = vint(b, id_len)?;
    let mut at = id_len + size_len + size? as usize;
    // The segment: its children are walked whatever its size says.
    let (id, id_len) = element_id(b, at)?;
    if id != EBML_SEGMENT {
        return None;
    }
    let (_, size_len) = vint(b, at + id_len)?;
    at += id_len + size_len;
    let mut cluster_time: u64 = 0;
    while at < b.len() {
        let Some((id, id_len)) = element_id(b, at) else {
            break;
        };
        let Some((size, size_len)) = vint(b, at + id_len) else {
            break;
        };
        let body = at + id_len + size_len;
        match id {
            // Descend: their children follow at once.
            EBML_CLUSTER | EBML_BLOCK_GROUP => {
                at = body;
                continue;
            }
            EBML_INFO => {
                // Read its two children of interest, then go on inside it.
                at = body;
                continue;
            }
            EBML_TIMECODE_SCALE => {
                if let Some(v) = uint_be(b, body, size?) {
                    scale_ns = v.max(1);
                }
            }
            EBML_DURATION => {
                let n = size? as usize;
                written = match n {
                    4 => b
                        .get(body..body + 4)
                        .map(|s| f32::from_be_bytes(s.try_into().unwrap()) as f64),
                    8 => b
                        .get(body..body + 8)
                        .map(|s| f64::from_be_bytes(s.try_into().unwrap())),
                    _ => None,
                };
            }
            EBML_TIMECODE => {
                if let Some(v) = uint_be(b, body, size?) {
                    cluster_time = v;
                }
            }
            EBML_SIMPLE_BLOCK | EBML_BLOCK => {
                // Track number (a vint), then a signed 16-bit relative time.
                if let Some((_, track_len)) = vint(b, body) {
                    if let Some(rel) = b.get(body + track_len..body + track_len + 2) {
                        let rel = i16::from_be_bytes([rel[0], rel[1]]) as i64;
                        let t = (cluster_time as i64 + rel).max(0) as f64;
                        let ms = t * scale_ns as f64 / 1e6;
                        latest_ms = Some(latest_ms.map_or(ms, |m: f64| m.max(ms)));
                    }
                }
            }
            _ => {}
        }
        let Some(size) = size else {
            break;
        };
        at = body + size as usize;
    }
    let written = written.map(|d| d * scale_ns as f64 / 1e6);
    // One Opus frame (20 ms) after the last block's start.
    let ms = written
        .filter(|d| *d > 0.0)
        .or(latest_ms.map(|m| m + 20.0))?;
    Some(Duration::from_secs_f64(ms / 1000.0))
}

fn uint_be(b: &[u8], at: usize, size: u64) -> Option<u64> {
    if size == 0 || size > 8 {
        return None;
    }
    let bytes = b.get(at..at + size as usize)?;
    Some(bytes.iter().fold(0u64, |v, x| (v << 8) | *x as u64))
}

/// A WAV file of `ms` milliseconds of silence, 16 kHz 16-bit mono (tests).
pub fn silent_wav(ms: u32) -> Vec<u8> {
    let samples = 16 * ms as usize;
    let data = samples * 2;
    let mut w = Vec::with_capacity(44 + data);
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&((36 + data) as u32).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes()); // PCM
    w.extend_from_slice(&1u16.to_le_bytes()); // mono
    w.extend_from_slice(&16_000u32.to_le_bytes());
    w.extend_from_slice(&32_000u32.to_le_bytes());
    w.extend_from_slice(&2u16.to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&(data as u32).to_le_bytes());
    w.resize(44 + data, 0);
    w
}

#[cfg(test)]
mod tests {
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
}
