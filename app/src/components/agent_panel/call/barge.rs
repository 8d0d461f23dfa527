//! Hearing the student interrupt the agent: while the agent speaks, the
//! microphone also hears the agent's own voice (through the air, after the
//! browser's echo cancellation has taken most of it out), and that voice is
//! voiced speech like the student's. So while it speaks, a moment counts as
//! the student only when it is voiced *and* clearly louder than both the
//! room (a raised threshold over the tracked noise floor) and the echo heard
//! so far (held from the agent's loudest recent moments), for a quarter of
//! a second in a row. Pure, fed the endpointer's frames twenty times a
//! second, so the rules are tested without a speaker.

use crate::components::agent_panel::endpoint::{Frame, FLOOR, TICK_MS, VOICED};

/// Over the room's noise: twice the ~10 dB the endpointer asks of speech
/// when the agent is silent.
const OVER_NOISE: f64 = 6.0;
/// Over the echo of the agent's voice: ~12 dB.
const OVER_ECHO: f64 = 4.0;
/// Never quieter than this while the agent speaks (the endpointer's floor,
/// ~8 dB up).
const LOUD_FLOOR: f64 = FLOOR * 2.5;
/// The held echo falls by this each tick: halved in about 0.7 s, so a
/// pause between two sentences does not leave the next one unheard.
const ECHO_FALL: f64 = 0.95;
/// After the agent starts (or starts again) to speak, its first moments
/// only teach the echo.
const GRACE_MS: u32 = 300;
/// Louder for this long in a row: an interruption, not a knock or a laugh.
pub const BARGE_MS: u32 = 250;

/// The interruption detector of one stretch of the agent's speech.
#[derive(Clone, Debug)]
pub struct BargeIn {
    noise: f64,
    echo: f64,
    since_voice_ms: u32,
    run_ms: u32,
}

impl BargeIn {
    /// A detector starting from the room's noise as the endpointer had it.
    pub fn new(noise: f64) -> BargeIn {
        let noise = if noise.is_finite() {
            noise.max(0.0)
        } else {
            0.0
        };
        BargeIn {
            noise,
            echo: 0.0,
            // No voice yet (the reply is on its way): no grace to wait.
            since_voice_ms: GRACE_MS,
            run_ms: 0,
        }
    }

    /// The agent started speaking (or went on after a silence): its first
    /// moments teach the echo and never count as the student.
    pub fn voice_started(&mut self) {
        self.since_voice_ms = 0;
        self.run_ms = 0;
    }

    /// The room's noise as tracked (handed back to the endpointer when the
    /// student has interrupted).
    pub fn noise(&self) -> f64 {
        self.noise
    }

    /// Whether the student is not in the middle of what may be an
    /// interruption (the recording may then be started afresh).
    pub fn idle(&self) -> bool {
        self.run_ms == 0
    }

    /// One reading of the microphone: `true` once the student has
    /// interrupted.
    pub fn tick(&mut self, frame: Frame) -> bool {
        self.since_voice_ms = self.since_voice_ms.saturating_add(TICK_MS);
        let band = if frame.speech.is_finite() {
            frame.speech.max(0.0)
        } else {
            0.0
        };
        let voiced = frame.voicing.is_finite() && frame.voicing >= VOICED;
        let threshold = (self.echo * OVER_ECHO)
            .max(self.noise * OVER_NOISE)
            .max(LOUD_FLOOR);
        let louder = voiced && band >= threshold && self.since_voice_ms > GRACE_MS;
        if louder {
            self.run_ms += TICK_MS;
        } else {
            self.run_ms = 0;
            // What the speaker leaves in the microphone: the loudest recent
            // voiced moment that was not the student (a knock is not).
            self.echo = if voiced {
                band.max(self.echo * ECHO_FALL)
            } else {
                self.echo * ECHO_FALL
            };
            self.noise = (self.noise * 1.01).min(band).max(FLOOR / 3.0);
        }
        self.run_ms >= BARGE_MS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(level: f64, voicing: f64) -> Frame {
        Frame {
            level,
            speech: level,
            voicing,
        }
    }

    /// Ticks until the detector fires: when, in ms.
    fn fires(b: &mut BargeIn, frames: impl IntoIterator<Item = Frame>) -> Option<u32> {
        let mut at = 0;
        for f in frames {
            at += TICK_MS;
            if b.tick(f) {
                return Some(at);
            }
        }
        None
    }

    fn repeat(f: Frame, ms: u32) -> impl Iterator<Item = Frame> + Clone {
        std::iter::repeat_n(f, (ms / TICK_MS) as usize)
    }

    /// The agent's voice in the microphone: voiced syllables at `level`
    /// with short dips between them.
    fn echo(level: f64, ms: u32) -> impl Iterator<Item = Frame> {
        (0..ms / 250).flat_map(move |_| {
            repeat(frame(level, 0.85), 200).chain(repeat(frame(level / 8.0, 0.2), 50))
        })
    }

    #[test]
    fn the_student_over_a_quiet_echo_is_heard_within_0_3_s() {
        let mut b = BargeIn::new(0.002);
        b.voice_started();
        assert_eq!(fires(&mut b, echo(0.01, 2000)), None);
        // Talking at 0.1: ten times the echo.
        let at = fires(&mut b, repeat(frame(0.1, 0.9), 1000)).unwrap();
        assert_eq!(at, BARGE_MS);
        assert!(!b.idle());
    }

    #[test]
    fn the_agents_own_voice_is_never_the_student() {
        // A loud echo (no echo cancellation, a phone's speaker): learnt in
        // the first moments, and its louder syllables stay under it.
        let mut b = BargeIn::new(0.002);
        b.voice_started();
        let swelling = (0..40).map(|i| frame(0.03 + 0.02 * ((i % 7) as f64 / 6.0), 0.9));
        assert_eq!(fires(&mut b, echo(0.05, 3000).chain(swelling)), None);
        // A pause between sentences, then the next one as loud: still the agent.
        b.voice_started();
        let pause = repeat(frame(0.002, 0.1), 400);
        assert_eq!(fires(&mut b, pause.chain(echo(0.05, 2000))), None);
    }

    #[test]
    fn a_knock_a_laugh_or_noise_does_not_interrupt() {
        let mut b = BargeIn::new(0.002);
        b.voice_started();
        let knock = repeat(frame(0.5, 0.1), 100);
        let laugh = repeat(frame(0.2, 0.9), 200);
        let fan = repeat(frame(0.05, 0.3), 2000);
        let quiet = repeat(frame(0.002, 0.1), 500);
        assert_eq!(
            fires(
                &mut b,
                quiet
                    .clone()
                    .chain(knock)
                    .chain(quiet.clone())
                    .chain(laugh)
                    .chain(quiet)
                    .chain(fan)
            ),
            None
        );
        assert!(b.idle());
    }

    #[test]
    fn talking_before_the_agent_answers_is_heard_at_once() {
        let mut b = BargeIn::new(0.002);
        assert_eq!(fires(&mut b, repeat(frame(0.1, 0.9), 2000)), Some(BARGE_MS));
    }

    #[test]
    fn a_raised_threshold_over_a_noisy_room() {
        // Speech at 4x the room's noise passes the endpointer (3x) but not
        // an interruption (6x); at 10x it interrupts.
        let room = repeat(frame(0.01, 0.2), 400);
        let mut b = BargeIn::new(0.01);
        assert_eq!(
            fires(&mut b, room.clone().chain(repeat(frame(0.04, 0.9), 1000))),
            None
        );
        let mut b = BargeIn::new(0.01);
        assert_eq!(
            fires(&mut b, room.chain(repeat(frame(0.1, 0.9), 1000))),
            Some(400 + BARGE_MS)
        );
        // Broken readings are silence.
        let mut b = BargeIn::new(f64::NAN);
        let broken = Frame {
            level: f64::NAN,
            speech: f64::NAN,
            voicing: f64::NAN,
        };
        assert_eq!(fires(&mut b, repeat(broken, 1000)), None);
    }
}
