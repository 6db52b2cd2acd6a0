//! The nearest known key to a misspelt one, for the "did you mean" of
//! errors about files people edit by hand (a tournament file's
//! `[tournament]` and `[[bot]]` keys).

/// The one of `known` closest to `name` by edit distance, when it is close
/// (at most 2 edits, or a quarter of its length).
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|key| (edit_distance(name, key), key))
        .filter(|&(d, key)| d <= 2.max(key.len() / 4))
        .min()
        .map(|(_, key)| key)
}

/// Levenshtein distance, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_get_a_suggestion_and_far_ones_none() {
        let keys = ["games_per_pairing", "concurrency", "command"];
        assert_eq!(nearest("games_per_paring", keys), Some("games_per_pairing"));
        assert_eq!(nearest("concurency", keys), Some("concurrency"));
        assert_eq!(nearest("comand", keys), Some("command"));
        assert_eq!(nearest("colour", keys), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
