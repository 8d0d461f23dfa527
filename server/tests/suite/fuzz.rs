//! The fuzz targets' short run, on stable and in seconds (`make test`):
//! every seed and every input a fuzzing run ever crashed on
//! (`fuzz/seeds/<target>/`, `fuzz/regressions/<target>/`) replayed, then
//! the seeds mutated for a fixed number of rounds from a fixed seed, so
//! that the run is the same on every machine. The long runs are libFuzzer's
//! (`make fuzz`); the targets' bodies are the same file.

#[path = "../../../fuzz/src/targets.rs"]
mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use targets::{Target, TARGETS};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `fuzz/<folder>/<target>/`, by name (so the order is fixed).
fn files(folder: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = fuzz_dir().join(folder).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Runs `target` on `data`; the panic's message with `what` when it breaks.
fn run(target: &Target, what: &str, data: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(data))).map_err(|e| {
        let message = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!(
            "{} on {what} ({} bytes): {message}",
            target.name,
            data.len()
        )
    })
}

#[test]
fn every_target_has_seeds_of_real_files() {
    for target in TARGETS {
        let seeds = files("seeds", target.name);
        assert!(
            seeds.len() >= 3,
            "fuzz/seeds/{} has {} files",
            target.name,
            seeds.len()
        );
        assert!(seeds.iter().all(|(_, s)| s.len() <= target.max_len));
        // The largest input fed fits the memory the target may hold (which
        // libFuzzer's runs check, fuzz/src/lib.rs).
        assert!(target.max_len <= target.memory, "{}", target.name);
    }
}

#[test]
fn seeds_and_every_crash_found_so_far_replay() {
    let mut broken = Vec::new();
    for target in TARGETS {
        for folder in ["seeds", "regressions"] {
            for (name, data) in files(folder, target.name) {
                if let Err(e) = run(target, &format!("{folder}/{name}"), &data) {
                    broken.push(e);
                }
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// splitmix64: a fixed sequence from a fixed seed, no crate needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Values that sizes and counts break on, as libFuzzer also tries them.
const INTERESTING: [u64; 10] = [
    0,
    1,
    0x7F,
    0xFF,
    0x7FFF,
    0xFFFF,
    0x7FFF_FFFF,
    0xFFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFF,
    u64::MAX,
];

/// One to four of libFuzzer's kinds of mutation of `data`: a bit flipped,
/// a byte or a little- or big-endian word set to a value sizes break on,
/// bytes inserted, removed, or copied from elsewhere in it or another seed.
fn mutate(rng: &mut Rng, data: &[u8], other: &[u8], max_len: usize) -> Vec<u8> {
    let mut d = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(d.len() + 1);
        match rng.below(7) {
            0 if !d.is_empty() => {
                let i = rng.below(d.len());
                d[i] ^= 1 << rng.below(8);
            }
            1 if !d.is_empty() => {
                let i = rng.below(d.len());
                d[i] = rng.next() as u8;
            }
            2 => {
                let v = INTERESTING[rng.below(INTERESTING.len())];
                let width = [1, 2, 4, 8][rng.below(4)];
                let bytes = if rng.below(2) == 0 {
                    v.to_be_bytes()[8 - width..].to_vec()
                } else {
                    v.to_le_bytes()[..width].to_vec()
                };
                let end = (at + width).min(d.len());
                d.splice(at..end, bytes);
            }
            3 => {
                let n = 1 + rng.below(16);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                d.splice(at..at, bytes);
            }
            4 if at < d.len() => {
                let end = at + 1 + rng.below((d.len() - at).min(64));
                d.drain(at..end);
            }
            5 if !other.is_empty() => {
                let from = rng.below(other.len());
                let end = from + 1 + rng.below((other.len() - from).min(256));
                d.splice(at..at, other[from..end].iter().copied());
            }
            _ if !d.is_empty() => {
                let from = rng.below(d.len());
                let end = from + 1 + rng.below((d.len() - from).min(64));
                let copy = d[from..end].to_vec();
                d.splice(at..at, copy);
            }
            _ => d.push(rng.next() as u8),
        }
    }
    d.truncate(max_len);
    d
}

/// Rounds per target: `FUZZ_ROUNDS` (default 3000, about 2 s in all), a tenth for the
/// multipart route, whose inputs are whole recordings.
fn rounds(target: &Target) -> usize {
    let n: usize = std::env::var("FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    if target.name == "multipart" {
        n / 10
    } else {
        n
    }
}

#[test]
fn mutated_seeds_never_break_a_target() {
    let mut broken = Vec::new();
    for target in TARGETS {
        let seeds: Vec<Vec<u8>> = files("seeds", target.name)
            .into_iter()
            .map(|(_, d)| d)
            .collect();
        let mut rng = Rng(0x5EED_F00D ^ target.name.len() as u64);
        for round in 0..rounds(target) {
            let seed = &seeds[rng.below(seeds.len())];
            let other = &seeds[rng.below(seeds.len())];
            let data = mutate(&mut rng, seed, other, target.max_len);
            if let Err(e) = run(target, &format!("round {round}"), &data) {
                let path = std::env::temp_dir().join(format!("{}-{round}", target.name));
                std::fs::write(&path, &data).unwrap();
                broken.push(format!("{e} (input in {})", path.display()));
                break;
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The seed recordings are real browsers' and ffmpeg's: each is accepted,
/// in the container its name says, lasting what its name says (to a
/// Opus frame and the recorder's start), or unknown where the container
/// does not say (a fragmented MP4).
#[test]
fn real_recordings_are_read_as_what_was_recorded() {
    use server::transcribe::audio::{check, Container};
    use std::time::Duration;
    for (name, data) in files("seeds", "recording") {
        let r = check(&data).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let container = match name.rsplit('.').next().unwrap() {
            "webm" => Container::Webm,
            "ogg" => Container::Ogg,
            "wav" => Container::Wav,
            _ => Container::Mp4,
        };
        assert_eq!(r.container, container, "{name}");
        let recorded: f64 = name
            .rsplit('-')
            .next()
            .and_then(|s| s.split("s.").next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name} names no length"));
        let recorded = Duration::from_secs_f64(recorded);
        match r.duration {
            Some(d) => assert!(
                d.abs_diff(recorded) <= Duration::from_millis(150),
                "{name}: {d:?}"
            ),
            None => assert!(
                name.contains("timeslice") && r.container == Container::Mp4,
                "{name}"
            ),
        }
        println!("{name}: {:?}", r.duration);
    }
}
