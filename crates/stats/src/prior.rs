//! Where the joint fit needs its prior: the bots whose maximum-likelihood
//! rating is not finite ([`needs_prior`], from the graph of who won or drew
//! against whom), and why a pure maximum-likelihood fit has no maximum at
//! all (`no_maximum`, for `--no-prior`).

use std::fmt;

use crate::pair_counts::PairCounts;
use crate::wdl::Wdl;

/// Why the maximum-likelihood estimate does not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoMaximum {
    /// These bots (indices) form groups that lost no game, or won no game,
    /// against the rest of the field (or never met it): their ratings run off
    /// to infinity.
    Unbounded { bots: Vec<usize> },
    /// No game was drawn, so the draw parameter runs to 0.
    NoDraws,
    /// Every game was drawn, so the draw parameter runs to infinity.
    OnlyDraws,
    /// No game was played.
    NoGames,
    /// White (or black) never lost: the first-player advantage runs off.
    OneSidedColours,
    /// The draw parameter runs off together with the ratings: the ratings
    /// alone order every game's result (wins above draws above losses).
    RunsOff,
}

impl fmt::Display for NoMaximum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMaximum::Unbounded { bots } => write!(
                f,
                "bots {bots:?} won no game or lost no game against the rest of the field"
            ),
            NoMaximum::NoDraws => write!(f, "no game was drawn"),
            NoMaximum::OnlyDraws => write!(f, "every game was drawn"),
            NoMaximum::NoGames => write!(f, "no game was played"),
            NoMaximum::OneSidedColours => {
                write!(f, "one colour never lost a game")
            }
            NoMaximum::RunsOff => write!(
                f,
                "the draw parameter and the ratings run off together (the results are \
                 perfectly ordered by strength)"
            ),
        }
    }
}

/// Which bots need the prior for their rating to be finite: with an edge
/// `i -> j` whenever `i` won or drew a game against `j`, the maximum-likelihood
/// ratings exist exactly when this graph is strongly connected (every split of
/// the field into two groups has a win or draw each way). Otherwise the groups
/// that never lost to the rest (sources of the graph of strongly connected
/// components) and those that never won or drew against it (sinks; a bot
/// without games is both) get the prior. Anchoring every source and sink to
/// the field mean makes the fit finite, since every other group lies between
/// a source and a sink. All `false` when the graph is strongly connected.
pub fn needs_prior(counts: &PairCounts) -> Vec<bool> {
    let n = counts.bots();
    let mut scored = vec![false; n * n];
    for white in 0..n {
        for black in 0..n {
            if white == black {
                continue;
            }
            let white_wdl = counts.wdl(white, black);
            scored[white * n + black] |= white_wdl.wins + white_wdl.draws > 0;
            scored[black * n + white] |= white_wdl.losses + white_wdl.draws > 0;
        }
    }
    let component = strongly_connected_components(n, &scored);
    let groups = component.iter().map(|&c| c + 1).max().unwrap_or(0);
    if groups <= 1 {
        return vec![false; n];
    }
    let (mut has_in, mut has_out) = (vec![false; groups], vec![false; groups]);
    for i in 0..n {
        for j in 0..n {
            if scored[i * n + j] && component[i] != component[j] {
                has_out[component[i]] = true;
                has_in[component[j]] = true;
            }
        }
    }
    (0..n)
        .map(|i| !has_in[component[i]] || !has_out[component[i]])
        .collect()
}

/// Component index of each node of the directed graph `edge[i * n + j]`
/// (Kosaraju: finishing order on the graph, then search the reversed graph).
fn strongly_connected_components(n: usize, edge: &[bool]) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        // (node, next neighbour to look at), iteratively.
        let mut stack = vec![(start, 0)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(j) = (*next..n).find(|&j| edge[node * n + j] && !seen[j]) {
                *next = j + 1;
                seen[j] = true;
                stack.push((j, 0));
            } else {
                order.push(node);
                stack.pop();
            }
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut groups = 0;
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = groups;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for j in 0..n {
                if edge[j * n + node] && component[j] == usize::MAX {
                    component[j] = groups;
                    stack.push(j);
                }
            }
        }
        groups += 1;
    }
    component
}

/// Why the pure maximum-likelihood fit has no finite maximum, checked before
/// fitting (`needs` from [`needs_prior`]). `None` does not promise a
/// maximum in every case (the colour advantage and draw rate can run off
/// jointly with the ratings), but the fit then reports that it did not
/// converge.
pub(crate) fn no_maximum(counts: &PairCounts, needs: &[bool]) -> Option<NoMaximum> {
    let bots: Vec<usize> = (0..needs.len()).filter(|&i| needs[i]).collect();
    if !bots.is_empty() {
        return Some(NoMaximum::Unbounded { bots });
    }
    let n = counts.bots();
    // White's results over all games.
    let white: Wdl = (0..n)
        .flat_map(|w| (0..n).map(move |b| (w, b)))
        .map(|(w, b)| counts.wdl(w, b))
        .sum();
    if white.games() == 0 {
        Some(NoMaximum::NoGames)
    } else if white.draws == 0 {
        Some(NoMaximum::NoDraws)
    } else if white.wins + white.losses == 0 {
        Some(NoMaximum::OnlyDraws)
    } else if white.wins == 0 || white.losses == 0 {
        Some(NoMaximum::OneSidedColours)
    } else {
        None
    }
}
