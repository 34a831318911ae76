//! The seeded random number generator every game keeps inside its state.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A seeded, serializable ChaCha8 generator.
///
/// It lives inside the game state so that a saved state continues with exactly the draws the
/// original would have made. Views must never contain it: it predicts every future draw.
///
/// Value stability is a contract: the same seed gives the same sequence of draws in every
/// version of this crate (see the fixed vectors in the tests).
///
/// ```
/// use game_core::GameRng;
/// let mut a = GameRng::from_seed(7);
/// let mut b = GameRng::from_seed(7);
/// assert_eq!(a.below(6), b.below(6));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct GameRng(ChaCha8Rng);

/// The generator as stored (`rand_chacha`'s own fields), read strictly: no unknown field,
/// and a word position that fits in 64 bits. The stream's counter would take a position
/// of up to 2^68 words, but no game draws a fraction of 2^64, and a larger one cannot be
/// written back as a JSON number (a stored state that cannot be stored again).
#[derive(Deserialize)]
#[serde(rename = "GameRng", deny_unknown_fields)]
struct StoredRng {
    seed: [u8; 32],
    stream: u64,
    word_pos: u64,
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let stored = StoredRng::deserialize(d)?;
        // What `rand_chacha` does with the same three fields.
        let mut rng = ChaCha8Rng::from_seed(stored.seed);
        rng.set_stream(stored.stream);
        rng.set_word_pos(u128::from(stored.word_pos));
        Ok(Self(rng))
    }
}

impl GameRng {
    /// A generator seeded from a 64-bit seed.
    ///
    /// ```
    /// let rng = game_core::GameRng::from_seed(42);
    /// assert_eq!(rng, game_core::GameRng::from_seed(42));
    /// ```
    pub fn from_seed(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// The next raw 32-bit word.
    ///
    /// ```
    /// let mut rng = game_core::GameRng::from_seed(1);
    /// let _word: u32 = rng.next_u32();
    /// ```
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// True with probability exactly `numerator / denominator` (up to the 2^-32 grain of one
    /// draw), compared in integers so no float rounding enters the rules.
    ///
    /// Always consumes one word, whatever the odds, so that the sequence of later draws does
    /// not depend on the probabilities in force.
    ///
    /// ```
    /// let mut rng = game_core::GameRng::from_seed(3);
    /// assert!(!rng.chance(0, 100));
    /// assert!(rng.chance(100, 100));
    /// ```
    #[inline]
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        let word = u64::from(self.next_u32());
        // word / 2^32 < numerator / denominator  <=>  word * denominator < numerator * 2^32
        word * u64::from(denominator) < u64::from(numerator) << 32
    }

    /// Two [`GameRng::chance`] draws of the same odds, in order: exactly the words and the
    /// answers of two calls, taken with one look at the buffer instead of two (a throw's
    /// four sticks are two pairs).
    ///
    /// ```
    /// let (mut a, mut b) = (game_core::GameRng::from_seed(4), game_core::GameRng::from_seed(4));
    /// assert_eq!(a.chance_pair(1, 2), [b.chance(1, 2), b.chance(1, 2)]);
    /// assert_eq!(a.next_u32(), b.next_u32());
    /// ```
    #[inline]
    pub fn chance_pair(&mut self, numerator: u32, denominator: u32) -> [bool; 2] {
        // The first word is the low half: the order of two `next_u32` calls.
        let words = self.0.next_u64();
        let limit = u64::from(numerator) << 32;
        let den = u64::from(denominator);
        [
            (words & 0xffff_ffff) * den < limit,
            (words >> 32) * den < limit,
        ]
    }

    /// [`GameRng::chance`] at odds worked out beforehand: the same word and the same
    /// answer, without the multiplication.
    ///
    /// ```
    /// use game_core::{GameRng, Odds};
    /// let (mut a, mut b) = (GameRng::from_seed(6), GameRng::from_seed(6));
    /// assert_eq!(a.odds(Odds::new(3, 5)), b.chance(3, 5));
    /// ```
    #[inline]
    pub fn odds(&mut self, odds: Odds) -> bool {
        u64::from(self.next_u32()) < odds.0
    }

    /// [`GameRng::chance_pair`] at odds worked out beforehand: the same two words and
    /// answers.
    ///
    /// ```
    /// use game_core::{GameRng, Odds};
    /// let (mut a, mut b) = (GameRng::from_seed(4), GameRng::from_seed(4));
    /// const FLAT: Odds = Odds::new(3, 5);
    /// assert_eq!(a.odds_pair(FLAT), b.chance_pair(3, 5));
    /// ```
    #[inline]
    pub fn odds_pair(&mut self, odds: Odds) -> [bool; 2] {
        // The first word is the low half: the order of two `next_u32` calls.
        let words = self.0.next_u64();
        [words & 0xffff_ffff < odds.0, words >> 32 < odds.0]
    }

    /// A uniform integer in `0..n` without modulo bias. Returns 0 when `n` is 0 or 1.
    ///
    /// ```
    /// let mut rng = game_core::GameRng::from_seed(9);
    /// assert!(rng.below(3) < 3);
    /// ```
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        // Lemire's multiply-shift with rejection of the biased low zone: a word is taken
        // when its low half is at least `threshold = 2^32 mod n`. The threshold is below
        // `n`, so a low half of `n` or more is taken without computing it (no division on
        // nearly every draw); the words taken and rejected are exactly the same.
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }
}

/// The odds `numerator / denominator` of [`GameRng::chance`], as the bound a word is
/// compared with: a word `w` (of `0..2^32`) succeeds when `w · denominator < numerator ·
/// 2^32`, which for an integer `w` is `w < ⌈numerator · 2^32 / denominator⌉`. Made once
/// (at compile time for constant odds), a draw is one comparison.
///
/// ```
/// use game_core::Odds;
/// assert_eq!(Odds::new(1, 2), Odds::new(2, 4));
/// assert_eq!(Odds::new(5, 5), Odds::new(9, 5)); // certain
/// assert_eq!(Odds::new(0, 7), Odds::new(0, 0)); // never
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Odds(u64);

impl Odds {
    /// The odds `numerator / denominator` (certain when the numerator is at least the
    /// denominator; a denominator of 0 makes any numerator but 0 certain, as
    /// [`GameRng::chance`] answers it).
    pub const fn new(numerator: u32, denominator: u32) -> Self {
        let limit = (numerator as u64) << 32;
        if denominator == 0 {
            // `w · 0 < limit`: always when the limit is above 0, never otherwise.
            return Self(if limit > 0 { 1 << 32 } else { 0 });
        }
        let bound = limit.div_ceil(denominator as u64);
        // Past 2^32 every word succeeds: the same as 2^32.
        Self(if bound > 1 << 32 { 1 << 32 } else { bound })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed vectors: if these change, saved games and replays change. Never update them
    /// without a format-version bump.
    #[test]
    fn value_stability_fixed_vectors() {
        let mut rng = GameRng::from_seed(0);
        let words: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(words, FIXED_SEED0);
        let mut rng = GameRng::from_seed(20261130);
        let picks: Vec<u32> = (0..8).map(|_| rng.below(6)).collect();
        assert_eq!(picks, FIXED_BELOW6);
    }

    const FIXED_SEED0: [u32; 4] = [2811902828, 3045455719, 3134767159, 2001118559];
    const FIXED_BELOW6: [u32; 8] = [3, 4, 3, 3, 0, 4, 4, 0];

    /// Two generators of `seed`, each `skip` words in.
    fn twins_at(seed: u64, skip: usize) -> (GameRng, GameRng) {
        let (mut a, mut b) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
        for _ in 0..skip {
            a.next_u32();
            b.next_u32();
        }
        (a, b)
    }

    #[test]
    fn a_chance_pair_is_two_chances_at_every_buffer_position() {
        // Every offset into the block buffer, the last word of a block included.
        for skip in 0..70 {
            let (mut pair, mut single) = twins_at(13, skip);
            for (num, den) in [(1, 2), (3, 5), (0, 7), (7, 7)] {
                let one = [single.chance(num, den), single.chance(num, den)];
                assert_eq!(pair.chance_pair(num, den), one, "skip {skip}, {num}/{den}");
            }
            assert_eq!(pair, single);
        }
    }

    #[test]
    fn odds_answer_as_the_chance_does() {
        // The documented test of a word, at the words around each bound and at the ends.
        let chance =
            |w: u32, num: u32, den: u32| u64::from(w) * u64::from(den) < u64::from(num) << 32;
        let cases = [
            (3, 5),
            (1, 2),
            (0, 7),
            (7, 7),
            (9, 5),
            (1, 3),
            (2, 3),
            (99, 100),
            (1, u32::MAX),
            (u32::MAX - 1, u32::MAX),
            (0, 0),
            (4, 0),
        ];
        for (num, den) in cases {
            let odds = Odds::new(num, den);
            let near = odds.0.min(u64::from(u32::MAX)) as u32;
            for w in [
                0,
                1,
                near.saturating_sub(2),
                near.saturating_sub(1),
                near,
                near.saturating_add(1),
                near.saturating_add(2),
                u32::MAX - 1,
                u32::MAX,
            ] {
                assert_eq!(
                    u64::from(w) < odds.0,
                    chance(w, num, den),
                    "word {w}, {num}/{den}"
                );
            }
        }
        // And draw by draw, every offset into the block buffer.
        for skip in 0..70 {
            let (mut by_odds, mut by_chance) = twins_at(21, skip);
            for (num, den) in cases {
                let odds = Odds::new(num, den);
                assert_eq!(
                    by_odds.odds(odds),
                    by_chance.chance(num, den),
                    "skip {skip}, {num}/{den}"
                );
                let pair = [by_chance.chance(num, den), by_chance.chance(num, den)];
                assert_eq!(by_odds.odds_pair(odds), pair, "skip {skip}, {num}/{den}");
            }
            assert_eq!(by_odds, by_chance);
        }
    }

    #[test]
    fn chance_is_exact_at_the_edges() {
        let mut rng = GameRng::from_seed(5);
        for _ in 0..1000 {
            assert!(!rng.chance(0, 5));
            assert!(rng.chance(5, 5));
        }
    }

    #[test]
    fn a_stored_rng_is_read_strictly() {
        let mut rng = GameRng::from_seed(11);
        for _ in 0..100 {
            rng.next_u32();
        }
        let json = serde_json::to_string(&rng).unwrap();
        // What `rand_chacha` reads, this reads the same.
        let theirs: ChaCha8Rng = serde_json::from_str(&json).unwrap();
        assert_eq!(
            serde_json::from_str::<GameRng>(&json).unwrap(),
            GameRng(theirs)
        );
        let with = |field: &str| json.replacen('{', &format!("{{{field},"), 1);
        assert!(serde_json::from_str::<GameRng>(&with(r#""extra":1"#)).is_err());
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut far = value.clone();
        far["word_pos"] = serde_json::json!(u64::MAX);
        let far: GameRng = serde_json::from_value(far).unwrap();
        assert_eq!(far.0.get_word_pos(), u128::from(u64::MAX));
        // Past 64 bits: refused (written as text, the way a tampered file would hold it).
        let past = json.replace(
            &format!("\"word_pos\":{}", rng.0.get_word_pos()),
            "\"word_pos\":18446744073709551616",
        );
        assert_ne!(past, json);
        assert!(serde_json::from_str::<GameRng>(&past).is_err());
    }

    #[test]
    fn serialized_rng_continues_identically() {
        let mut rng = GameRng::from_seed(11);
        rng.next_u32();
        let json = serde_json::to_string(&rng).unwrap();
        let mut back: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(rng.next_u32(), back.next_u32());
    }

    /// `below` as first written: the threshold computed before every draw.
    fn below_reference(rng: &mut GameRng, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u64::from(rng.next_u32()) * u64::from(n);
            if (m as u32) >= threshold {
                return (m >> 32) as u32;
            }
        }
    }

    #[test]
    fn below_takes_and_rejects_the_same_words_as_the_reference() {
        // Large bounds reject often (2^31 + 1 rejects almost half the words), so both
        // paths of the rejection are exercised, not only the common one.
        let bounds = [
            0,
            1,
            2,
            3,
            5,
            6,
            7,
            100,
            1 << 31,
            (1 << 31) + 1,
            3_000_000_000,
            u32::MAX,
        ];
        for seed in 0..20 {
            let mut fast = GameRng::from_seed(seed);
            let mut reference = fast.clone();
            for i in 0..2_000 {
                let n = bounds[i % bounds.len()];
                assert_eq!(
                    fast.below(n),
                    below_reference(&mut reference, n),
                    "seed {seed}, n {n}"
                );
            }
            assert_eq!(fast, reference, "seed {seed}: the same words consumed");
        }
    }

    #[test]
    fn below_is_roughly_uniform() {
        let mut rng = GameRng::from_seed(8);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[rng.below(3) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }
}
