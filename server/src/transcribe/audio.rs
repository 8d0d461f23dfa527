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
//!
//! Every size, offset and length here is declared by whoever made the
//! file, so none is trusted: offsets are added with `checked_add` and
//! converted with `try_from`, and lengths are computed in integers
//! ([`ticks`], [`nanos`]) that saturate instead of overflowing. A length
//! no recorder writes (over [`MAX_DECLARED`]: an `mvhd` claiming 2^64−1
//! seconds) is a damaged or forged header, refused as such, not as a
//! recording that is too long. The walkers are fuzzed (`fuzz/`,
//! `make fuzz`). symphonia, the maintained demuxer that reads all four
//! containers, was weighed and not taken: its released demuxers still
//! panic on malformed MKV and MP4, and allocate what a header declares
//! before reading it (an abort, which no panic guard catches), and it
//! gives no length for Chrome's WebM without demuxing every block, which
//! is the walk done here.

use std::time::Duration;

/// The largest recording accepted: 30 s of 16 kHz 16-bit mono WAV is
/// 960 KB; the panel's Opus at 32 kbit/s is 120 KB for the same.
pub const MAX_BYTES: usize = 1024 * 1024;
/// The longest recording accepted: one thing said to the agent, and one
/// window of a Whisper model.
pub const MAX_DURATION: Duration = Duration::from_secs(30);
/// Shorter than this is a tap, not speech.
pub const MIN_DURATION: Duration = Duration::from_millis(300);
/// Longer than this, a declared length is not a recording's but a damaged
/// header's: no recorder writes a day into 1 MB.
pub const MAX_DECLARED: Duration = Duration::from_secs(24 * 60 * 60);

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
    /// The container says something no recording can be (a length of
    /// centuries): damaged or forged.
    Damaged,
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
            Refusal::Damaged => "这段录音的文件已损坏，读不出来。请重新录一次，或改用文字输入。",
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
        Some(d) if d > MAX_DECLARED => Err(Refusal::Damaged),
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

/// `count` ticks of which `per_second` make a second, in integers: exact,
/// and no float to overflow `Duration`. `None` for a rate of zero.
pub fn ticks(count: u64, per_second: u64) -> Option<Duration> {
    if per_second == 0 {
        return None;
    }
    let secs = count / per_second;
    let rest = u128::from(count % per_second);
    // rest < per_second, so this is under a second's nanoseconds.
    let nanos = u32::try_from(rest * 1_000_000_000 / u128::from(per_second)).ok()?;
    Some(Duration::new(secs, nanos))
}

/// Nanoseconds as a duration, saturating at [`Duration::MAX`] (which any
/// check reads as damaged).
pub fn nanos(ns: u128) -> Duration {
    match u64::try_from(ns / 1_000_000_000) {
        Ok(secs) => Duration::new(secs, (ns % 1_000_000_000) as u32),
        Err(_) => Duration::MAX,
    }
}

/// `at + len` as a slice range of `b`, or `None` when it leaves `b` (or
/// does not fit a `usize`).
fn span(b: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    b.get(at..at.checked_add(len)?)
}

fn u16le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(span(b, at, 2)?.try_into().ok()?))
}
fn u32le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(span(b, at, 4)?.try_into().ok()?))
}
fn u64le(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(span(b, at, 8)?.try_into().ok()?))
}
fn u32be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(span(b, at, 4)?.try_into().ok()?))
}
fn u64be(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(span(b, at, 8)?.try_into().ok()?))
}

/// The `data` chunk's length over the `fmt ` chunk's byte rate. A WAV
/// without both is not one.
fn wav_duration(b: &[u8]) -> Option<Duration> {
    let mut at: usize = 12;
    let mut byte_rate = None;
    while let Some(id) = span(b, at, 4) {
        let size = usize::try_from(u32le(b, at.checked_add(4)?)?).ok()?;
        let body = at.checked_add(8)?;
        if id == b"fmt " {
            byte_rate = Some(u32le(b, body.checked_add(8)?)?);
        } else if id == b"data" {
            let rate = byte_rate.filter(|r| *r > 0)?;
            // A recorder still writing puts 0 or u32::MAX here: what is there counts.
            let size = size.min(b.len().saturating_sub(body));
            return ticks(u64::try_from(size).ok()?, u64::from(rate));
        }
        at = body.checked_add(size)?.checked_add(size & 1)?;
    }
    None
}

/// The last page's granule position, in samples at the stream's rate
/// (48 kHz for Opus, less its pre-skip; the identification header's rate for
/// Vorbis).
fn ogg_duration(b: &[u8]) -> Option<Duration> {
    let (rate, skip) = if let Some(at) = find(b, b"OpusHead") {
        (48_000u64, u64::from(u16le(b, at.checked_add(10)?)?))
    } else if let Some(at) = find(b, b"\x01vorbis") {
        (u64::from(u32le(b, at.checked_add(12)?)?), 0)
    } else {
        return None;
    };
    let last = rfind(b, b"OggS")?;
    let granule = u64le(b, last.checked_add(6)?)?;
    // All ones: no packet ends on this page.
    if granule == u64::MAX {
        return None;
    }
    ticks(granule.saturating_sub(skip), rate)
}

/// MP4's `mvhd`: duration over timescale (zero in a fragmented file: unknown).
fn mp4_duration(b: &[u8]) -> Option<Duration> {
    let at = find(b, b"mvhd")?.checked_add(4)?;
    let version = *b.get(at)?;
    let (scale, duration) = if version == 1 {
        (
            u32be(b, at.checked_add(20)?)?,
            u64be(b, at.checked_add(24)?)?,
        )
    } else {
        (
            u32be(b, at.checked_add(12)?)?,
            u64::from(u32be(b, at.checked_add(16)?)?),
        )
    };
    if duration == 0 {
        return None;
    }
    ticks(duration, u64::from(scale))
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
/// `Duration` when a muxer wrote one. Times are nanoseconds in `u128`:
/// a timecode (up to 2^64) times a scale (up to 2^64) fits, so nothing
/// overflows on the way to [`nanos`].
fn webm_duration(b: &[u8]) -> Option<Duration> {
    let mut scale_ns: u64 = 1_000_000;
    let mut latest_ns: Option<u128> = None;
    let mut written: Option<f64> = None;
    // Skip the EBML header.
    let (_, id_len) = element_id(b, 0)?;
    let (size, size_len) = vint(b, id_len)?;
    let mut at = id_len
        .checked_add(size_len)?
        .checked_add(usize::try_from(size?).ok()?)?;
    // The segment: its children are walked whatever its size says.
    let (id, id_len) = element_id(b, at)?;
    if id != EBML_SEGMENT {
        return None;
    }
    let (_, size_len) = vint(b, at.checked_add(id_len)?)?;
    at = at.checked_add(id_len)?.checked_add(size_len)?;
    let mut cluster_time: u64 = 0;
    while at < b.len() {
        // `at` is inside `b`, so these small sums cannot overflow.
        let Some((id, id_len)) = element_id(b, at) else {
            break;
        };
        let Some((size, size_len)) = vint(b, at + id_len) else {
            break;
        };
        let body = at + id_len + size_len;
        match id {
            // Descend: their children follow at once (Info's two of
            // interest, the cluster's timecode and blocks).
            EBML_CLUSTER | EBML_BLOCK_GROUP | EBML_INFO => {
                at = body;
                continue;
            }
            EBML_TIMECODE_SCALE => {
                if let Some(v) = size.and_then(|n| uint_be(b, body, n)) {
                    scale_ns = v.max(1);
                }
            }
            EBML_DURATION => {
                written = match size {
                    Some(4) => span(b, body, 4)
                        .and_then(|s| s.try_into().ok())
                        .map(|s| f64::from(f32::from_be_bytes(s))),
                    Some(8) => span(b, body, 8)
                        .and_then(|s| s.try_into().ok())
                        .map(f64::from_be_bytes),
                    _ => None,
                };
            }
            EBML_TIMECODE => {
                if let Some(v) = size.and_then(|n| uint_be(b, body, n)) {
                    cluster_time = v;
                }
            }
            EBML_SIMPLE_BLOCK | EBML_BLOCK => {
                // Track number (a vint), then a signed 16-bit relative time.
                if let Some((_, track_len)) = vint(b, body) {
                    if let Some(rel) = span(b, body + track_len, 2) {
                        let rel = i16::from_be_bytes([rel[0], rel[1]]);
                        let t = i128::from(cluster_time) + i128::from(rel);
                        let ticks = u128::try_from(t).unwrap_or(0);
                        let ns = ticks.saturating_mul(u128::from(scale_ns));
                        latest_ns = Some(latest_ns.map_or(ns, |m| m.max(ns)));
                    }
                }
            }
            _ => {}
        }
        let Some(next) = size
            .and_then(|s| usize::try_from(s).ok())
            .and_then(|s| body.checked_add(s))
        else {
            break;
        };
        at = next;
    }
    // A written duration counts when it is a positive number; one that no
    // `Duration` holds saturates (and is refused as damaged).
    let written = written
        .filter(|d| d.is_finite() && *d > 0.0)
        .map(|d| Duration::try_from_secs_f64(d * scale_ns as f64 / 1e9).unwrap_or(Duration::MAX));
    // One Opus frame (20 ms) after the last block's start.
    let blocks = latest_ns.map(|ns| nanos(ns.saturating_add(20_000_000)));
    // A muxer that streams writes its header before it knows the length:
    // Chrome's `MediaRecorder`, asked for its data while recording
    // (`requestData`), writes a `Duration` of one tick. The blocks are
    // then longer than the header says, and they are what was recorded.
    // (`None` orders below any length: either one alone is the length.)
    written.max(blocks)
}

fn uint_be(b: &[u8], at: usize, size: u64) -> Option<u64> {
    if size == 0 || size > 8 {
        return None;
    }
    let bytes = span(b, at, usize::try_from(size).ok()?)?;
    Some(bytes.iter().fold(0u64, |v, x| (v << 8) | u64::from(*x)))
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
#[path = "audio_tests.rs"]
mod tests;
