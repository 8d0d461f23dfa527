//! The panel's end of a recording (`endpoint`) run on recordings instead of
//! a microphone, for `make eval-asr` (scripts/asr/eval.py): when each
//! recording would have been ended, as the panel reads its analyser (the
//! last 43 ms every 50 ms), with the room's noise and a click added if
//! asked. The decision is the panel's own code, not a copy of it.
//!
//!     cargo run -q -p app --example endpoint -- [--noise RMS] [--click S] [--before 1] FILE.wav...
//!
//! prints one line a file: `FILE STOP_MS WHY` (`WHY`: spoke, nothing,
//! too-long, none). 16-bit PCM WAV, mono; 3 s of silence (or the noise)
//! follow the recording, so that it can end. `--before 1`: the rule the
//! panel had before, kept here only to be measured beside the new one (the
//! level every 100 ms against the quietest level heard, 1.2 s of quiet).

use app::components::recording_endpoint::{Endpointer, Frame, Stop, TICK_MS};

fn read_wav(path: &str) -> Result<(Vec<f32>, f64), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(format!("{path}: not a WAV file"));
    }
    let (mut rate, mut channels, mut bits, mut at) = (0u32, 0u16, 0u16, 12usize);
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        let body = &bytes[at + 8..(at + 8 + size).min(bytes.len())];
        if id == b"fmt " && body.len() >= 16 {
            channels = u16::from_le_bytes([body[2], body[3]]);
            rate = u32::from_le_bytes(body[4..8].try_into().unwrap());
            bits = u16::from_le_bytes([body[14], body[15]]);
        } else if id == b"data" {
            if bits != 16 || channels != 1 {
                return Err(format!("{path}: 16-bit mono PCM only"));
            }
            let samples = body
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32 / 32768.0)
                .collect();
            return Ok((samples, rate as f64));
        }
        at += 8 + size + (size & 1);
    }
    Err(format!("{path}: no data"))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut option = |name: &str| -> f64 {
        match args.iter().position(|a| a == name) {
            Some(i) if i + 1 < args.len() => {
                let v = args.remove(i + 1);
                args.remove(i);
                v.parse().unwrap_or(0.0)
            }
            _ => 0.0,
        }
    };
    let noise = option("--noise");
    let click = option("--click");
    let before = option("--before") > 0.0;
    for path in &args {
        let (mut samples, rate) = match read_wav(path) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let spoken = samples.len();
        samples.extend(std::iter::repeat_n(0.0, 3 * rate as usize));
        // The room: deterministic white noise, summed down to a rumble.
        let mut x: u64 = 7;
        let mut rumble = 0.0f64;
        for s in samples.iter_mut() {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let white = ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0;
            rumble = 0.9 * rumble + white;
            *s += (noise * (0.5 * white + 0.2 * rumble)) as f32;
        }
        if click > 0.0 {
            let at = spoken + (click * rate) as usize;
            for (i, s) in samples.iter_mut().skip(at).take(48).enumerate() {
                *s += if i % 2 == 0 { 0.8 } else { -0.8 };
            }
        }
        if before {
            println!("{path} {}", level_rule(&samples, rate));
            continue;
        }
        let window = (0.0427 * rate) as usize;
        let step = (TICK_MS as f64 / 1000.0 * rate) as usize;
        let mut ears = Endpointer::new();
        let mut end = (0, "none");
        let mut t = step;
        while t <= samples.len() {
            let frame = Frame::of(&samples[t.saturating_sub(window)..t], rate);
            if let Some(stop) = ears.tick(frame) {
                let why = match stop {
                    Stop::Spoke => "spoke",
                    Stop::NothingSaid => "nothing",
                    Stop::TooLong => "too-long",
                };
                end = (ears.elapsed_ms(), why);
                break;
            }
            t += step;
        }
        println!("{path} {} {}", end.0, end.1);
    }
}

/// The panel's rule before: the RMS of 1024 samples at 48 kHz every 100 ms,
/// speech at three times the quietest level heard (at least 0.012), the
/// end after 1.2 s of quiet once 300 ms of speech were heard.
fn level_rule(samples: &[f32], rate: f64) -> String {
    let (window, step) = ((0.0213 * rate) as usize, (0.1 * rate) as usize);
    let (mut elapsed, mut speech, mut quiet, mut noise) = (0u32, 0u32, 0u32, 0.02f64);
    let mut t = step;
    while t <= samples.len() {
        elapsed += 100;
        let w = &samples[t.saturating_sub(window)..t];
        let level = (w.iter().map(|s| (*s as f64).powi(2)).sum::<f64>() / w.len() as f64).sqrt();
        noise = noise.min(level).max(0.004);
        if level >= (noise * 3.0).max(0.012) {
            speech += 100;
            quiet = 0;
        } else {
            quiet += 100;
        }
        if speech >= 300 && quiet >= 1200 {
            return format!("{elapsed} spoke");
        }
        if speech < 300 && elapsed >= 7000 {
            return format!("{elapsed} nothing");
        }
        t += step;
    }
    "0 none".to_string()
}
