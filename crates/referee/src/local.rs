//! Players that live inside the referee process: no pipes, no clock, no
//! way to fail. `arena check-bot` plays the bot under test against
//! [`RandomPlayer`], so a bot's problems cannot be blamed on a second
//! program, and no interpreter has to be installed for the opponent.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use arena_rules::games::Position;

/// A player the game runner asks directly ([`super::Player::Local`]).
pub trait LocalPlayer: Send + std::fmt::Debug {
    /// The name the other player is told in `new_game`.
    fn name(&self) -> &str;

    /// A legal move for the side to move in `pos` (which is not over), in
    /// notation. The runner plays it with the rules engine and treats a
    /// refusal as the referee's own error, not a player failure.
    fn choose_move(&mut self, pos: &Position) -> String;
}

/// Plays a uniformly random legal move; seeded, so a run can be repeated.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    name: String,
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    pub fn new(name: &str, seed: u64) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl LocalPlayer for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose_move(&mut self, pos: &Position) -> String {
        pos.legal_moves()
            .choose(&mut self.rng)
            .map(ToString::to_string)
            // A position that is not over always has a legal move; an empty
            // string is refused by the rules engine and reported as a bug.
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_rules::games::Variant;

    #[test]
    fn plays_legal_moves_to_the_end_of_every_variant() {
        for variant in Variant::all() {
            let mut player = RandomPlayer::new("random", 7);
            let mut pos = Position::new(variant);
            while !pos.is_over() {
                let text = player.choose_move(&pos);
                pos.play_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {text:?}: {e}", variant.id));
            }
        }
    }

    #[test]
    fn the_same_seed_plays_the_same_game() {
        let variant = Variant::by_id("quinque").unwrap();
        let game = |seed| {
            let mut player = RandomPlayer::new("random", seed);
            let mut pos = Position::new(variant);
            let mut moves = Vec::new();
            while !pos.is_over() {
                moves.push(pos.play_str(&player.choose_move(&pos)).unwrap());
            }
            moves
        };
        assert_eq!(game(3), game(3));
        assert_ne!(game(3), game(4));
    }
}
