//! The demo's random numbers: SplitMix64 written out by hand, so that no
//! crate upgrade can ever change a draw, and the few distributions the
//! generator needs (uniform, chance, an approximate normal, weighted choice)
//! built from `+ - * /` only, bit-exact on every platform.

/// SplitMix64 (Steele, Lea, Flood 2014), written out so that its output can
/// never change under us.
#[derive(Clone, Debug)]
pub(in crate::demo) struct Rng {
    state: u64,
}

impl Rng {
    /// An independent stream per purpose, so tuning one part of the generator
    /// does not reshuffle the others.
    pub(in crate::demo) fn stream(seed: u64, stream: u64) -> Rng {
        let mut mixer = Rng {
            state: seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03),
        };
        Rng {
            state: mixer.next_u64(),
        }
    }

    pub(in crate::demo) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; `n > 0`).
    pub(in crate::demo) fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub(in crate::demo) fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)` with 53 bits.
    pub(in crate::demo) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    pub(in crate::demo) fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Approximately standard normal: Irwin–Hall sum of four uniforms,
    /// rescaled. Only `+ - *`, so bit-exact on every platform.
    pub(in crate::demo) fn normal(&mut self) -> f64 {
        let s = self.unit() + self.unit() + self.unit() + self.unit();
        (s - 2.0) * 1.732_050_807_568_877_2
    }

    pub(in crate::demo) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// An index drawn with the given non-negative weights (not all zero).
    pub(in crate::demo) fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs of SplitMix64 seeded with 0 (reference implementation).
        let mut r = Rng { state: 0 };
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }
}
