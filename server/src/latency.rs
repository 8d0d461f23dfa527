//! Latency percentiles, shared by everything that measures requests (`server
//! load`, `server bench-scale`, the criterion-free bench binaries).

use std::time::Duration;

/// The `p`-quantile (0.0–1.0) of `samples` by the nearest rank; zero when
/// there are none. Sorts `samples` in place.
pub fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    samples.sort_unstable();
    let at = ((samples.len() - 1) as f64 * p.clamp(0.0, 1.0)).round() as usize;
    samples[at]
}

/// Milliseconds with two decimals, as the tables print them.
pub fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let mut s: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        assert_eq!(percentile(&mut s, 0.5), Duration::from_millis(51));
        assert_eq!(percentile(&mut s, 0.95), Duration::from_millis(95));
        assert_eq!(percentile(&mut s, 1.0), Duration::from_millis(100));
        assert_eq!(percentile(&mut [], 0.5), Duration::ZERO);
        assert_eq!(ms(Duration::from_micros(1234)), "1.23");
    }
}
