//! The recording so far, sent to the recognizer at a pause, and who hands
//! its answer on. A student who pauses has often said everything: the
//! recording up to the pause goes ahead (`recorder::Take::peek`), and if
//! nothing is said after it the answer is the message, on screen as soon
//! as the recording ends or even before. Three things race: the answer
//! coming back, the recording ending, and the student speaking again (the
//! pause was only a breath, and the whole recording must be heard).
//!
//! Pure bookkeeping, shared by the record button (`mic`, one message) and
//! the voice call (`call::run`, a take per turn), so the race is decided
//! in one place and tested without a browser: each caller keeps an
//! `Option<Ahead>` and calls these functions on it.

/// What was heard: the text, or the message to show.
pub type Heard = Result<String, String>;

/// One recording so far, sent at the pause `mark` of the take `take`.
#[derive(Debug, PartialEq)]
pub struct Ahead {
    take: u64,
    mark: u32,
    heard: Option<Heard>,
    /// The take ended with nothing said after the pause: its answer is
    /// the take's.
    taken: bool,
    /// The recording was handed over before the answer came back: the
    /// answer, when it comes, is delivered by whoever receives it.
    claimed: bool,
}

/// What the end of a take does with what went ahead.
#[derive(Debug, PartialEq)]
pub enum Claim {
    /// Its answer, to deliver now.
    Ready(Heard),
    /// Its answer is on its way and will be delivered when it comes:
    /// nothing to send.
    Waiting,
    /// Nothing went ahead that holds the whole take: recognize it.
    Recognize,
}

/// The recording of take `take` up to the pause `mark` has gone to the
/// recognizer; an earlier one is forgotten (its pause was a breath).
pub fn sent(slot: &mut Option<Ahead>, take: u64, mark: u32) {
    *slot = Some(Ahead {
        take,
        mark,
        heard: None,
        taken: false,
        claimed: false,
    });
}

/// The answer for take `take`'s pause `mark` came back: returned when it
/// is to be delivered now (the take ended and claimed it), else kept for
/// the end. An answer to a forgotten pause is dropped.
pub fn answered(slot: &mut Option<Ahead>, take: u64, mark: u32, heard: Heard) -> Option<Heard> {
    let a = slot.as_mut().filter(|a| a.take == take && a.mark == mark)?;
    if a.claimed {
        *slot = None;
        Some(heard)
    } else {
        a.heard = Some(heard);
        None
    }
}

/// Take `take` ended: what went ahead is its message if nothing was said
/// since the pause (`quiet_since(mark)`, the endpointer's word), else it
/// is forgotten.
pub fn ended(slot: &mut Option<Ahead>, take: u64, quiet_since: impl Fn(u32) -> bool) {
    match slot.as_mut() {
        Some(a) if a.take == take && quiet_since(a.mark) => a.taken = true,
        _ => *slot = None,
    }
}

/// Take `take`'s whole recording is handed over: its answer from ahead, a
/// wait for it, or the whole recording to recognize.
pub fn claim(slot: &mut Option<Ahead>, take: u64) -> Claim {
    let Some(a) = slot.as_mut().filter(|a| a.take == take && a.taken) else {
        return Claim::Recognize;
    };
    match a.heard.take() {
        Some(heard) => {
            *slot = None;
            Claim::Ready(heard)
        }
        None => {
            a.claimed = true;
            Claim::Waiting
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Heard {
        Ok(s.to_string())
    }

    #[test]
    fn an_answer_back_before_the_end_is_the_message() {
        let mut slot = None;
        sent(&mut slot, 1, 40);
        assert_eq!(answered(&mut slot, 1, 40, text("北大计算机")), None);
        ended(&mut slot, 1, |_| true);
        assert_eq!(claim(&mut slot, 1), Claim::Ready(text("北大计算机")));
        assert_eq!(slot, None);
    }

    #[test]
    fn an_answer_after_the_end_is_delivered_when_it_comes() {
        let mut slot = None;
        sent(&mut slot, 1, 40);
        ended(&mut slot, 1, |_| true);
        assert_eq!(claim(&mut slot, 1), Claim::Waiting);
        assert_eq!(answered(&mut slot, 1, 40, text("浙大")), Some(text("浙大")));
        assert_eq!(slot, None);
        // A failure is the answer too: the whole recording holds the
        // same speech, so asking again would only double the wait.
        sent(&mut slot, 2, 10);
        ended(&mut slot, 2, |_| true);
        assert_eq!(claim(&mut slot, 2), Claim::Waiting);
        let failed: Heard = Err("识别失败".into());
        assert_eq!(answered(&mut slot, 2, 10, failed.clone()), Some(failed));
    }

    #[test]
    fn speech_after_the_pause_sends_the_whole_recording() {
        let mut slot = None;
        sent(&mut slot, 1, 40);
        assert_eq!(answered(&mut slot, 1, 40, text("我想考")), None);
        ended(&mut slot, 1, |mark| mark > 40);
        assert_eq!(slot, None);
        assert_eq!(claim(&mut slot, 1), Claim::Recognize);
    }

    #[test]
    fn only_the_last_pause_of_this_take_counts() {
        let mut slot = None;
        sent(&mut slot, 1, 20);
        sent(&mut slot, 1, 60);
        // The first pause's answer is for a recording that was cut short.
        assert_eq!(answered(&mut slot, 1, 20, text("我想")), None);
        ended(&mut slot, 1, |_| true);
        assert_eq!(claim(&mut slot, 1), Claim::Waiting);
        assert_eq!(
            answered(&mut slot, 1, 60, text("我想考复旦")),
            Some(text("我想考复旦"))
        );

        // Another take's pause is not this take's message.
        sent(&mut slot, 3, 30);
        ended(&mut slot, 4, |_| true);
        assert_eq!(claim(&mut slot, 4), Claim::Recognize);
        assert_eq!(answered(&mut slot, 3, 30, text("清华")), None);
    }

    #[test]
    fn nothing_ahead_is_recognized_whole() {
        let mut slot = None;
        ended(&mut slot, 1, |_| true);
        assert_eq!(claim(&mut slot, 1), Claim::Recognize);
        // A take not yet ended claims nothing.
        sent(&mut slot, 2, 5);
        assert_eq!(claim(&mut slot, 2), Claim::Recognize);
        assert!(slot.is_some());
    }
}
