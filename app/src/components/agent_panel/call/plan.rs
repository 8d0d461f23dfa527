//! The voice call as a state machine: what the call is doing (listening,
//! thinking, speaking, ended) and, for each thing that happens, the next
//! state and what the browser must do. Pure, so every turn of a spoken
//! conversation — the student interrupting, a silence, a goodbye, the tab
//! hidden — is tested without a microphone or a speaker; `run` performs
//! the effects and turns what the browser observes into [`Event`]s.

/// Ticks (of `endpoint::TICK_MS`) the agent must have been silent, its turn
/// done, before the call listens again: `speechSynthesis` reports a gap
/// between two queued sentences as a moment of silence.
pub const SETTLE_TICKS: u32 = 3;

/// What the call is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No call (the control offers one).
    Idle,
    /// The microphone is open for the student's next words.
    Listening,
    /// The student's words are being recognized or answered.
    Thinking,
    /// The agent is speaking; the student may interrupt.
    Speaking,
    /// The call is over, and why.
    Ended(End),
}

/// Why a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A tap on the control, or Escape.
    Student,
    /// The student said goodbye ("好了，谢谢") and the agent answered it.
    Farewell,
    /// Nobody spoke for several seconds: said goodbye once, then hung up.
    Silence,
    /// The tab was hidden: the microphone is released at once.
    Hidden,
    /// The microphone or the recognizer failed (the panel says why).
    Failed,
}

/// The call's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    pub phase: Phase,
    /// The student's words went out as a turn: its reply is awaited or
    /// being spoken (only then can the agent have finished speaking).
    sent: bool,
    /// The goodbye for a silence is being said: hang up once it is.
    ending: bool,
    /// Ticks the agent has been silent with its turn done.
    quiet: u32,
}

impl Default for Call {
    fn default() -> Self {
        Call::IDLE
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The call control.
    Start,
    /// The control again, or Escape.
    Stop,
    /// The tab was hidden (`visibilitychange`).
    Hidden,
    /// The microphone or the recognizer failed.
    Failed,
    /// The student stopped talking (the site's recognizer: the recording is
    /// sent to it now).
    EndOfSpeech,
    /// What the student said, recognized (empty: nothing understood).
    Heard(String),
    /// Nobody spoke for several seconds.
    Silence,
    /// The student's voice over the agent's (`barge`).
    BargeIn,
    /// Twenty times a second: whether a turn is still running, whether the
    /// browser is speaking, and whether the last reply said the
    /// conversation may end.
    Tick {
        turn_running: bool,
        voice: bool,
        farewell: bool,
    },
}

/// What the browser must do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Ask for the microphone (the call keeps it until it ends).
    OpenMic,
    /// Release the microphone.
    CloseMic,
    /// Listen for the student's next words: a new recording (`fresh`), or
    /// the one running, which holds the start of what they are saying.
    Listen { fresh: bool },
    /// End the recording and send it to the recognizer.
    Transcribe,
    /// Send these words as the next turn.
    Send(String),
    /// Stop speaking at once; the turn's reply is still shown and applied,
    /// but nothing more of it is said.
    Hush,
    /// Say, once, that the call ends for the silence.
    SayGoodbye,
}

impl Call {
    pub const IDLE: Call = Call {
        phase: Phase::Idle,
        sent: false,
        ending: false,
        quiet: 0,
    };

    fn at(phase: Phase) -> Call {
        Call {
            phase,
            ..Call::IDLE
        }
    }

    /// Whether a call is on (the microphone is, or is about to be, open).
    pub fn active(&self) -> bool {
        matches!(
            self.phase,
            Phase::Listening | Phase::Thinking | Phase::Speaking
        )
    }

    /// Whether the student's voice now would interrupt the agent: it is
    /// speaking, or about to answer what was sent.
    pub fn interruptible(&self) -> bool {
        self.sent && matches!(self.phase, Phase::Thinking | Phase::Speaking)
    }

    /// The next state and what to do when `event` happens.
    pub fn step(self, event: Event) -> (Call, Vec<Effect>) {
        use Effect::*;
        use Phase::*;
        let ended = |why| (Call::at(Ended(why)), vec![Hush, CloseMic]);
        match (self.phase, event) {
            (Idle | Ended(_), Event::Start) => {
                (Call::at(Listening), vec![OpenMic, Listen { fresh: true }])
            }
            (_, Event::Stop) if self.active() => ended(End::Student),
            (_, Event::Hidden) if self.active() => ended(End::Hidden),
            (_, Event::Failed) if self.active() => ended(End::Failed),
            (Listening, Event::EndOfSpeech) => (Call::at(Thinking), vec![Transcribe]),
            (Listening, Event::Heard(text)) | (Thinking, Event::Heard(text)) if !self.sent => {
                let text = text.trim().to_string();
                if text.is_empty() {
                    (Call::at(Listening), vec![Listen { fresh: true }])
                } else {
                    (
                        Call {
                            sent: true,
                            ..Call::at(Thinking)
                        },
                        vec![Send(text)],
                    )
                }
            }
            (Listening, Event::Silence) => (
                Call {
                    sent: true,
                    ending: true,
                    ..Call::at(Speaking)
                },
                vec![SayGoodbye],
            ),
            // What the student says is the next turn; a goodbye they talk
            // over is taken back.
            (Thinking | Speaking, Event::BargeIn) if self.sent => {
                (Call::at(Listening), vec![Hush, Listen { fresh: false }])
            }
            (
                Thinking | Speaking,
                Event::Tick {
                    turn_running,
                    voice,
                    farewell,
                },
            ) if self.sent => self.settle(turn_running, voice, farewell),
            (phase, _) => (Call { phase, ..self }, Vec::new()),
        }
    }

    /// While the reply is on its way or spoken: speaking once the browser
    /// is; once it has been silent for [`SETTLE_TICKS`] with the turn done,
    /// listening again — or hanging up after a goodbye.
    fn settle(self, turn_running: bool, voice: bool, farewell: bool) -> (Call, Vec<Effect>) {
        let phase = if voice { Phase::Speaking } else { self.phase };
        let quiet = if voice || turn_running {
            0
        } else {
            self.quiet + 1
        };
        if quiet < SETTLE_TICKS {
            return (
                Call {
                    phase,
                    quiet,
                    ..self
                },
                Vec::new(),
            );
        }
        if self.ending {
            (Call::at(Phase::Ended(End::Silence)), vec![Effect::CloseMic])
        } else if farewell {
            (
                Call::at(Phase::Ended(End::Farewell)),
                vec![Effect::CloseMic],
            )
        } else {
            (
                Call::at(Phase::Listening),
                vec![Effect::Listen { fresh: true }],
            )
        }
    }
}

/// The call's state as shown and announced (`aria-live`), apart from the
/// conversation's own lines.
pub fn status(phase: Phase) -> &'static str {
    match phase {
        Phase::Idle => "",
        Phase::Listening => "正在听，请说话…",
        Phase::Thinking => "正在想…",
        Phase::Speaking => "正在说…直接说话可以打断",
        Phase::Ended(End::Student) => "通话已结束",
        Phase::Ended(End::Farewell) => "通话已结束，再见",
        Phase::Ended(End::Silence) => "好一会儿没听到声音，通话已结束",
        Phase::Ended(End::Hidden) => "页面切到了后台，通话已结束，麦克风已关闭",
        Phase::Ended(End::Failed) => "通话中断了",
    }
}

/// What is said, once, when nobody spoke for a while.
pub const GOODBYE: &str = "好一会儿没听到你说话，我先挂断了。需要时再点通话按钮找我。";

#[cfg(test)]
mod tests {
    use super::*;
    use Effect::*;
    use Phase::*;

    fn tick(turn_running: bool, voice: bool) -> Event {
        Event::Tick {
            turn_running,
            voice,
            farewell: false,
        }
    }

    /// Plays `events` from `call`: the states passed through and every effect.
    fn play(call: Call, events: Vec<Event>) -> (Call, Vec<Phase>, Vec<Effect>) {
        let mut phases = Vec::new();
        let mut effects = Vec::new();
        let mut call = call;
        for e in events {
            let (next, fx) = call.step(e);
            if phases.last() != Some(&next.phase) {
                phases.push(next.phase);
            }
            effects.extend(fx);
            call = next;
        }
        (call, phases, effects)
    }

    /// A whole turn: heard by the site's recognizer, answered, spoken.
    fn turn(text: &str) -> Vec<Event> {
        vec![
            Event::EndOfSpeech,
            Event::Heard(text.into()),
            tick(true, false),
            tick(true, true),
            tick(false, true),
            tick(false, false),
            tick(false, false),
            tick(false, false),
        ]
    }

    #[test]
    fn a_turn_listens_thinks_speaks_and_listens_again() {
        let (call, phases, effects) = play(
            Call::IDLE,
            [vec![Event::Start], turn("我想考北京大学计算机系")].concat(),
        );
        assert_eq!(phases, vec![Listening, Thinking, Speaking, Listening]);
        assert_eq!(
            effects,
            vec![
                OpenMic,
                Listen { fresh: true },
                Transcribe,
                Send("我想考北京大学计算机系".into()),
                Listen { fresh: true },
            ]
        );
        assert_eq!(call.phase, Listening);
    }

    #[test]
    fn the_browser_recognizer_hands_over_the_words_while_listening() {
        let (_, phases, effects) = play(
            Call::IDLE,
            vec![Event::Start, Event::Heard(" 第一个导师怎么样 ".into())],
        );
        assert_eq!(phases, vec![Listening, Thinking]);
        assert_eq!(effects.last(), Some(&Send("第一个导师怎么样".into())));
    }

    #[test]
    fn nothing_understood_listens_again_without_a_turn() {
        let start = Call::IDLE.step(Event::Start).0;
        let (call, _, effects) = play(start, vec![Event::EndOfSpeech, Event::Heard("  ".into())]);
        assert_eq!(call.phase, Listening);
        assert_eq!(effects, vec![Transcribe, Listen { fresh: true }]);
    }

    #[test]
    fn a_gap_between_sentences_does_not_count_as_done() {
        let start = play(Call::IDLE, vec![Event::Start, Event::Heard("你好".into())]).0;
        // Speaking, a silent tick between two sentences, speaking again.
        let (call, _, effects) = play(
            start,
            vec![
                tick(false, true),
                tick(false, false),
                tick(false, false),
                tick(false, true),
            ],
        );
        assert_eq!(call.phase, Speaking);
        assert!(effects.is_empty());
        // A turn still running (its reply not yet in) is not done either.
        let (call, _, _) = play(start, vec![tick(true, false); 10]);
        assert_eq!(call.phase, Thinking);
    }

    #[test]
    fn a_muted_panel_listens_again_once_the_turn_is_done() {
        let start = play(Call::IDLE, vec![Event::Start, Event::Heard("你好".into())]).0;
        let (call, phases, effects) = play(start, vec![tick(false, false); 3]);
        assert_eq!(phases, vec![Thinking, Listening]);
        assert_eq!(effects, vec![Listen { fresh: true }]);
        assert_eq!(call.phase, Listening);
    }

    #[test]
    fn the_student_interrupts_the_agent_and_is_heard() {
        let speaking = play(
            Call::IDLE,
            vec![
                Event::Start,
                Event::Heard("第一个导师怎么样".into()),
                tick(false, true),
            ],
        )
        .0;
        assert_eq!(speaking.phase, Speaking);
        assert!(speaking.interruptible());
        let (call, effects) = speaking.step(Event::BargeIn);
        assert_eq!(call.phase, Listening);
        // Silenced at once; the recording that heard the start goes on.
        assert_eq!(effects, vec![Hush, Listen { fresh: false }]);
        // Then their words are the next turn.
        let (call, _, effects) = play(
            call,
            vec![Event::EndOfSpeech, Event::Heard("他的学生评价呢".into())],
        );
        assert_eq!(call.phase, Thinking);
        assert_eq!(effects.last(), Some(&Send("他的学生评价呢".into())));
    }

    #[test]
    fn nothing_interrupts_before_anything_was_sent() {
        let listening = Call::IDLE.step(Event::Start).0;
        assert!(!listening.interruptible());
        assert_eq!(listening.step(Event::BargeIn), (listening, Vec::new()));
        let transcribing = listening.step(Event::EndOfSpeech).0;
        assert!(!transcribing.interruptible());
        assert_eq!(transcribing.step(Event::BargeIn).0.phase, Thinking);
        // Nor does the agent settle before it was asked anything.
        assert_eq!(transcribing.step(tick(false, false)).0, transcribing);
    }

    #[test]
    fn a_goodbye_ends_the_call_once_the_answer_is_spoken() {
        let start = play(
            Call::IDLE,
            vec![Event::Start, Event::Heard("好了，谢谢".into())],
        )
        .0;
        let bye = |voice| Event::Tick {
            turn_running: false,
            voice,
            farewell: true,
        };
        let (call, phases, effects) = play(
            start,
            vec![bye(true), bye(true), bye(false), bye(false), bye(false)],
        );
        assert_eq!(phases, vec![Speaking, Ended(End::Farewell)]);
        assert_eq!(effects, vec![CloseMic]);
        assert!(!call.active());
        // Ended is ended: nothing but the control starts it again.
        assert_eq!(call.step(Event::Silence).0, call);
        assert_eq!(call.step(Event::Heard("你好".into())).0, call);
        assert_eq!(call.step(Event::Start).0.phase, Listening);
    }

    #[test]
    fn a_silence_is_answered_once_then_the_call_ends() {
        let listening = Call::IDLE.step(Event::Start).0;
        let (call, effects) = listening.step(Event::Silence);
        assert_eq!(call.phase, Speaking);
        assert_eq!(effects, vec![SayGoodbye]);
        // Said once: another silence while it is said changes nothing.
        assert_eq!(call.step(Event::Silence), (call, Vec::new()));
        let (_, phases, effects) = play(
            call,
            vec![
                tick(false, true),
                tick(false, false),
                tick(false, false),
                tick(false, false),
            ],
        );
        assert_eq!(phases, vec![Speaking, Ended(End::Silence)]);
        assert_eq!(effects, vec![CloseMic]);
        // Muted: nothing is heard, and it ends all the same.
        let (call, _, _) = play(
            listening,
            vec![
                Event::Silence,
                tick(false, false),
                tick(false, false),
                tick(false, false),
            ],
        );
        assert_eq!(call.phase, Ended(End::Silence));
    }

    #[test]
    fn talking_over_the_silence_goodbye_keeps_the_call() {
        let bye = Call::IDLE.step(Event::Start).0.step(Event::Silence).0;
        let (call, effects) = bye.step(Event::BargeIn);
        assert_eq!(call.phase, Listening);
        assert_eq!(effects, vec![Hush, Listen { fresh: false }]);
        let (call, _, _) = play(call, turn("北京大学"));
        assert_eq!(call.phase, Listening);
    }

    #[test]
    fn a_tap_escape_a_hidden_tab_or_a_failure_end_it_from_any_state() {
        let listening = Call::IDLE.step(Event::Start).0;
        let thinking = listening.step(Event::EndOfSpeech).0;
        let speaking = play(
            listening,
            vec![Event::Heard("你好".into()), tick(false, true)],
        )
        .0;
        for call in [listening, thinking, speaking] {
            for (event, why) in [
                (Event::Stop, End::Student),
                (Event::Hidden, End::Hidden),
                (Event::Failed, End::Failed),
            ] {
                let (next, effects) = call.step(event);
                assert_eq!(next.phase, Ended(why));
                assert_eq!(effects, vec![Hush, CloseMic]);
            }
        }
        // Without a call they mean nothing.
        assert_eq!(Call::IDLE.step(Event::Hidden), (Call::IDLE, Vec::new()));
        assert_eq!(Call::IDLE.step(Event::Stop), (Call::IDLE, Vec::new()));
    }

    #[test]
    fn every_state_has_its_words_and_the_goodbye_is_short() {
        for phase in [
            Listening,
            Thinking,
            Speaking,
            Ended(End::Student),
            Ended(End::Farewell),
            Ended(End::Silence),
            Ended(End::Hidden),
            Ended(End::Failed),
        ] {
            assert!(!status(phase).is_empty(), "{phase:?}");
        }
        assert!(status(Idle).is_empty());
        assert!(GOODBYE.chars().count() <= 50);
    }
}
