//! When a recording ends on its own: the student has spoken and then been
//! quiet for a moment, or has said nothing at all for a while, or has
//! talked for as long as one message may last. A second tap ends it too
//! (the view). Pure: it is fed the input level ten times a second and
//! says when to stop, so the rules are tested without a microphone.
//!
//! Speech is told from the room's noise by the level against the quietest
//! level heard so far (a fan or a street is loud but steady), never less
//! than an absolute floor.

/// How often the level is read, in milliseconds.
pub const TICK_MS: u32 = 100;
/// Quiet this long after speech ends the recording.
pub const QUIET_AFTER_SPEECH_MS: u32 = 1200;
/// Speech shorter than this is a cough or a click, not a message.
pub const MIN_SPEECH_MS: u32 = 300;
/// Nothing said for this long: stop and say nothing was heard.
pub const NO_SPEECH_MS: u32 = 7000;
/// The longest recording (the server takes 30 s; a message is shorter).
pub const MAX_MS: u32 = 20_000;
/// A level (RMS of samples in −1..1) below this is never speech.
const FLOOR: f64 = 0.012;
/// Speech is this many times the quietest level heard.
const ABOVE_NOISE: f64 = 3.0;
/// The room's noise before anything quieter was heard: a student who
/// starts talking at once is heard as speech.
const NOISE_START: f64 = 0.02;

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
    noise: Option<f64>,
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
            noise: None,
        }
    }

    /// How long the recording has run.
    pub fn elapsed_ms(&self) -> u32 {
        self.elapsed_ms
    }

    /// Whether speech has been heard.
    pub fn heard_speech(&self) -> bool {
        self.speech_ms >= MIN_SPEECH_MS
    }

    /// One reading of the level, [`TICK_MS`] after the last: `Some` when the
    /// recording should stop.
    pub fn tick(&mut self, level: f64) -> Option<Stop> {
        self.elapsed_ms += TICK_MS;
        let level = if level.is_finite() {
            level.max(0.0)
        } else {
            0.0
        };
        let noise = self
            .noise
            .unwrap_or(NOISE_START)
            .min(level)
            .max(FLOOR / ABOVE_NOISE);
        self.noise = Some(noise);
        let speaking = level >= (noise * ABOVE_NOISE).max(FLOOR);
        if speaking {
            self.speech_ms += TICK_MS;
            self.quiet_ms = 0;
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

/// `0:07`: the recording's time as the panel shows it.
pub fn clock(ms: u32) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `levels` (one per tick) until a stop: the stop and when.
    fn run(levels: impl IntoIterator<Item = f64>) -> Option<(Stop, u32)> {
        let mut e = Endpointer::new();
        for l in levels {
            if let Some(s) = e.tick(l) {
                return Some((s, e.elapsed_ms()));
            }
        }
        None
    }

    fn ticks(ms: u32, level: f64) -> impl Iterator<Item = f64> {
        std::iter::repeat_n(level, (ms / TICK_MS) as usize)
    }

    #[test]
    fn speech_then_a_pause_ends_the_recording() {
        let levels = ticks(500, 0.003)
            .chain(ticks(2000, 0.1))
            .chain(ticks(3000, 0.004));
        assert_eq!(run(levels), Some((Stop::Spoke, 3700)));
    }

    #[test]
    fn talking_from_the_first_moment_is_speech() {
        let levels = ticks(1500, 0.15).chain(ticks(3000, 0.003));
        assert_eq!(run(levels), Some((Stop::Spoke, 2700)));
    }

    #[test]
    fn a_short_pause_between_words_does_not() {
        let levels = ticks(300, 0.003)
            .chain(ticks(1000, 0.1))
            .chain(ticks(800, 0.004))
            .chain(ticks(1000, 0.08))
            .chain(ticks(2000, 0.004));
        assert_eq!(run(levels), Some((Stop::Spoke, 4300)));
    }

    #[test]
    fn silence_or_a_click_is_nothing_said() {
        assert_eq!(
            run(ticks(10_000, 0.002)),
            Some((Stop::NothingSaid, NO_SPEECH_MS))
        );
        let click = ticks(1000, 0.002)
            .chain(ticks(100, 0.5))
            .chain(ticks(9000, 0.002));
        assert_eq!(run(click), Some((Stop::NothingSaid, NO_SPEECH_MS)));
    }

    #[test]
    fn a_steady_noisy_room_is_not_speech_but_talking_over_it_is() {
        // A fan at 0.03: above the floor, but steady.
        assert_eq!(
            run(ticks(10_000, 0.03)),
            Some((Stop::NothingSaid, NO_SPEECH_MS))
        );
        let levels = ticks(500, 0.03)
            .chain(ticks(1500, 0.2))
            .chain(ticks(3000, 0.03));
        assert_eq!(run(levels), Some((Stop::Spoke, 3200)));
    }

    #[test]
    fn talking_on_and_on_stops_at_the_limit() {
        assert_eq!(run(ticks(30_000, 0.2)), Some((Stop::TooLong, MAX_MS)));
        // Broken readings count as silence.
        assert_eq!(
            run(ticks(10_000, f64::NAN)),
            Some((Stop::NothingSaid, NO_SPEECH_MS))
        );
    }

    #[test]
    fn the_clock_reads_minutes_and_seconds() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(7_900), "0:07");
        assert_eq!(clock(65_000), "1:05");
    }
}
