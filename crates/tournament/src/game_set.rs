//! A set of game ids as a bitset: one bit per game, for "which games are
//! done" over tournaments of any length.

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameSet {
    words: Vec<u64>,
    len: u64,
}

impl GameSet {
    pub fn new() -> GameSet {
        GameSet::default()
    }

    /// Adds `id`; `false` if it was already there.
    pub fn insert(&mut self, id: u64) -> bool {
        let (word, bit) = ((id / 64) as usize, id % 64);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let mask = 1u64 << bit;
        if self.words[word] & mask != 0 {
            return false;
        }
        self.words[word] |= mask;
        self.len += 1;
        true
    }

    pub fn contains(&self, id: u64) -> bool {
        self.words
            .get((id / 64) as usize)
            .is_some_and(|w| w & (1u64 << (id % 64)) != 0)
    }

    /// The ids in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().enumerate().flat_map(|(word, &bits)| {
            (0..64u64)
                .filter(move |bit| bits & (1 << bit) != 0)
                .map(move |bit| word as u64 * 64 + bit)
        })
    }

    /// Number of ids in the set.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_and_finds_ids_across_words() {
        let mut set = GameSet::new();
        assert!(!set.contains(0) && set.is_empty());
        for id in [0, 63, 64, 1000] {
            assert!(set.insert(id));
        }
        assert!(!set.insert(64));
        assert_eq!(set.len(), 4);
        assert!(set.contains(63) && set.contains(1000) && !set.contains(65));
        assert!(!set.contains(100_000));
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 63, 64, 1000]);
    }
}
