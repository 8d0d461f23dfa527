//! When a recording ends on its own: the student has spoken and then been
//! quiet for a moment, or has said nothing at all for a while, or has
//! talked for as long as one message may last. A second tap ends it too
//! (the view). Pure: it is fed what the microphone heard twenty times a
//! second and says when to stop, so the rules are tested without one.
//!
//! Every moment of waiting after the student stops talking is added to the
//! wait for the answer, so the end is found from speech itself, not from a
//! long silence: a level above the room's noise alone ended a recording
//! only after 1.2 s of quiet, since a click, a cough or a chair was as loud
//! as a word. Here a moment is speech when its speech band stands above the
//! room's noise (tracked: a fan or a street is loud but steady) *and* it is
//! voiced: the vowels that end every Mandarin syllable repeat at the pitch
//! of the voice (70–400 Hz), which a click, a bump, a keyboard or a fan
//! does not. The recording ends [`QUIET_AFTER_SPEECH_MS`] after the last
//! voiced moment: longer than the pause a student makes inside one
//! request, short enough that the end of speech is found within a second.
//!
//! That pause is longer than the gap between words. A student says 「嗯，
//! 那个，山东大学，就是想看看」 or 「我本科学电气的，想考哈工大」 with a breath
//! at each comma: measured on the eval's 261 recordings, the quiet inside
//! one request reaches 700 ms (between the last voiced moment before the
//! comma and the first after it), and a rule that ended after 550 ms cut 24
//! of them in the middle, sending half a request. Hence 800 ms: a tenth of
//! a second above the longest such pause, the end of a request found
//! 0.8 s after it.
//!
//! The recognizer need not wait for that end, though. After
//! [`LISTEN_AHEAD_MS`] of quiet the recording so far is sent ahead
//! ([`Endpointer::listen_ahead`]); if the student says nothing more before
//! the end, what was heard ahead is the message (the quiet after it holds
//! no words), so its text arrives when the recording ends instead of a
//! recognition later. If they go on talking, the early text is dropped
//! ([`Endpointer::quiet_since`]) and the whole recording is sent as before:
//! a pause can never cut a request, it can only cost the server one
//! recognition that is thrown away.

/// How often the microphone is read, in milliseconds.
pub const TICK_MS: u32 = 50;
/// Quiet this long after speech ends the recording.
pub const QUIET_AFTER_SPEECH_MS: u32 = 800;
/// Quiet this long after speech sends the recording so far ahead to the
/// recognizer: with a recognition of about 0.4–0.5 s its text is there as
/// [`QUIET_AFTER_SPEECH_MS`] ends the recording.
pub const LISTEN_AHEAD_MS: u32 = 400;
/// Pauses of one recording sent ahead at most: a student who stops and
/// starts again and again costs the server no more than this.
pub const MAX_AHEAD: u8 = 3;
/// Voiced speech shorter than this is a cough, not a message.
pub const MIN_SPEECH_MS: u32 = 200;
/// Nothing said for this long: stop and say nothing was heard.
pub const NO_SPEECH_MS: u32 = 7000;
/// The longest recording (the server takes 30 s; a message is shorter).
pub const MAX_MS: u32 = 20_000;
/// A speech-band level (RMS of samples in −1..1) below this is never speech.
pub const FLOOR: f64 = 0.004;
/// Speech is this many times the room's noise in the speech band (~10 dB).
const ABOVE_NOISE: f64 = 3.0;
/// The room's noise before anything quieter was heard: a student who
/// starts talking at once is heard as speech.
const NOISE_START: f64 = 0.01;
/// The noise estimate follows a quieter moment at once and a louder room
/// slowly (×1.2 a second): a steady hum is learnt in seconds, while the
/// short dips between syllables keep a sentence from raising it much.
const NOISE_RISE: f64 = 1.01;
/// A moment whose best repetition at a pitch period correlates at least
/// this well (0..1) is voiced.
pub const VOICED: f64 = 0.5;

/// What one reading of the microphone holds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    /// RMS of the samples (−1..1): the meter.
    pub level: f64,
    /// RMS in the speech band (below ~5 kHz, without the DC).
    pub speech: f64,
    /// How periodic at a voice's pitch: 0 (noise, a click) to 1 (a vowel).
    pub voicing: f64,
}

impl Frame {
    /// The features of `samples` recorded at `rate` Hz. The samples are
    /// first averaged down to about 8 kHz (a voice's pitch and the
    /// harmonics that carry it, for a sixth of the work at 48 kHz) and
    /// high-passed above ~130 Hz, which takes out the rumble of a fan or a
    /// street that would otherwise look periodic. (Tuned on the eval's
    /// recordings: vowels score 0.8–0.9, white and rumbling noise under
    /// 0.45.) Only arithmetic and square roots: nothing that brings a
    /// maths library into the WASM.
    pub fn of(samples: &[f32], rate: f64) -> Frame {
        let step = ((rate / 8_000.0).round() as usize).max(1);
        // One buffer, filtered in place, and no slicing: the WASM is near
        // its ceiling (`make size`).
        let mut low: Vec<f64> = samples
            .chunks_exact(step)
            .map(|c| c.iter().map(|s| *s as f64).sum::<f64>() / step as f64)
            .collect();
        let Some(&first) = low.first() else {
            return Frame::default();
        };
        let n = low.len() as f64;
        let mean = low.iter().sum::<f64>() / n;
        let speech = mean_square(low.iter().map(|x| x - mean), n).sqrt();
        let (mut y, mut before) = (0.0, first);
        for x in low.iter_mut() {
            y = 0.9 * (y + *x - before);
            before = *x;
            *x = y;
        }
        let rate = rate / step as f64;
        let longest = ((rate / 70.0) as usize).min(low.len() / 2);
        let mut voicing = 0.0f64;
        for lag in ((rate / 400.0) as usize).max(1)..=longest {
            let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
            for (x, y) in low.iter().zip(low.iter().skip(lag)) {
                ab += x * y;
                aa += x * x;
                bb += y * y;
            }
            if aa > 0.0 && bb > 0.0 {
                voicing = voicing.max(ab / (aa * bb).sqrt());
            }
        }
        let level = mean_square(samples.iter().map(|s| *s as f64), samples.len() as f64).sqrt();
        let clean = |x: f64| if x.is_finite() { x.max(0.0) } else { 0.0 };
        Frame {
            level: clean(level),
            speech: clean(speech),
            voicing: clean(voicing),
        }
    }
}

fn mean_square(values: impl Iterator<Item = f64>, n: f64) -> f64 {
    values.map(|v| v * v).sum::<f64>() / n
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Spoke, then paused: send it.
    Spoke,
    /// Nothing said: do not send.
    NothingSaid,
    /// Talked for [`MAX_MS`]: send what there is.
    TooLong,
}

#[derive(Clone, Debug)]
pub struct Endpointer {
    elapsed_ms: u32,
    speech_ms: u32,
    quiet_ms: u32,
    noise: f64,
    /// When speech was last heard (`elapsed_ms`): marks one pause.
    spoken_at: u32,
    /// The pause last sent ahead, and how many were.
    ahead_at: Option<u32>,
    aheads: u8,
}

impl Default for Endpointer {
    fn default() -> Self {
        Endpointer::new()
    }
}

impl Endpointer {
    pub fn new() -> Endpointer {
        Endpointer {
            elapsed_ms: 0,
            speech_ms: 0,
            quiet_ms: 0,
            noise: NOISE_START,
            spoken_at: 0,
            ahead_at: None,
            aheads: 0,
        }
    }

    /// Taking over a recording in which the student is already talking
    /// (they interrupted the agent, `call::barge`): `elapsed_ms` of it so
    /// far, its speech already heard, the room's noise as measured.
    pub fn resumed(elapsed_ms: u32, noise: f64) -> Endpointer {
        Endpointer {
            elapsed_ms,
            speech_ms: MIN_SPEECH_MS,
            quiet_ms: 0,
            noise: if noise.is_finite() {
                noise.clamp(FLOOR / ABOVE_NOISE, NOISE_START)
            } else {
                NOISE_START
            },
            spoken_at: elapsed_ms,
            ahead_at: None,
            aheads: 0,
        }
    }

    /// The room's noise in the speech band, as tracked so far.
    pub fn noise(&self) -> f64 {
        self.noise
    }

    /// How long the recording has run.
    pub fn elapsed_ms(&self) -> u32 {
        self.elapsed_ms
    }

    /// Whether speech has been heard.
    pub fn heard_speech(&self) -> bool {
        self.speech_ms >= MIN_SPEECH_MS
    }

    /// One reading, [`TICK_MS`] after the last: `Some` when the recording
    /// should stop.
    pub fn tick(&mut self, frame: Frame) -> Option<Stop> {
        self.elapsed_ms += TICK_MS;
        let band = if frame.speech.is_finite() {
            frame.speech.max(0.0)
        } else {
            0.0
        };
        let voiced = frame.voicing.is_finite() && frame.voicing >= VOICED;
        let speaking = voiced && band >= (self.noise * ABOVE_NOISE).max(FLOOR);
        self.noise = (self.noise * NOISE_RISE).min(band).max(FLOOR / ABOVE_NOISE);
        if speaking {
            self.speech_ms += TICK_MS;
            self.quiet_ms = 0;
            self.spoken_at = self.elapsed_ms;
        } else {
            self.quiet_ms += TICK_MS;
        }
        if self.elapsed_ms >= MAX_MS {
            return Some(if self.heard_speech() {
                Stop::TooLong
            } else {
                Stop::NothingSaid
            });
        }
        if self.heard_speech() && self.quiet_ms >= QUIET_AFTER_SPEECH_MS {
            return Some(Stop::Spoke);
        }
        if !self.heard_speech() && self.elapsed_ms >= NO_SPEECH_MS {
            return Some(Stop::NothingSaid);
        }
        None
    }
}

impl Endpointer {
    /// Once per pause, after [`LISTEN_AHEAD_MS`] of quiet following speech
    /// and before the end: the pause's mark, to send the recording so far
    /// ahead. At most [`MAX_AHEAD`] times a recording.
    pub fn listen_ahead(&mut self) -> Option<u32> {
        let due = self.heard_speech()
            && self.quiet_ms >= LISTEN_AHEAD_MS
            && self.quiet_ms < QUIET_AFTER_SPEECH_MS
            && self.ahead_at != Some(self.spoken_at)
            && self.aheads < MAX_AHEAD;
        if !due {
            return None;
        }
        self.ahead_at = Some(self.spoken_at);
        self.aheads += 1;
        Some(self.spoken_at)
    }

    /// Whether nothing has been said since the pause `mark`: what was sent
    /// ahead then is the whole message.
    pub fn quiet_since(&self, mark: u32) -> bool {
        self.spoken_at == mark
    }
}

/// `0:07`: the recording's time as the panel shows it.
pub fn clock(ms: u32) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
#[path = "endpoint_tests.rs"]
mod tests;
