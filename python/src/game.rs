//! `arena.Game`: one game of a variant, its moves and its outcome, with the
//! rules crate's `Position` doing every check; moves are the protocol's
//! texts (`"c3"`, `"place c3"`, `"capture d4 b2 e5"`).

use numpy::prelude::*;
use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use arena_rules::games::{Color, Move, Outcome, Position};

use crate::actions::Actions;
use crate::variants::{json_to_py, variant_of};
use crate::{observation, playout};

/// A game of one variant: `Game("qango6")`, or `Game("qango6", ["c3",
/// "d4"])` to start from those moves.
///
/// Moves are texts exactly as the protocol and `arena judge` spell them
/// (`legal_moves()` lists them); an illegal one raises `ValueError` and
/// leaves the game unchanged. For learning: `action_size`,
/// `legal_action_mask()`, `move_to_action`, `action_to_move` and
/// `observation()` (their numbering and planes: docs/PYTHON.md, and the
/// docstrings of `action_to_move` and `observation`).
#[pyclass(module = "arena", name = "Game")]
#[derive(Clone)]
pub struct Game {
    pos: Position,
}

/// What `__reduce__` gives: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Vec<String>));

fn color_name(color: Option<Color>) -> Option<&'static str> {
    color.map(Color::name)
}

impl Game {
    fn actions(&self) -> &'static Actions {
        Actions::of(self.pos.variant())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    /// The `ValueError` of an illegal `text` here.
    fn illegal(&self, text: &str, why: &dyn std::fmt::Display) -> PyErr {
        PyValueError::new_err(format!(
            "illegal move {text:?} in {} at ply {} ({} to move): {why}",
            self.pos.variant().id,
            self.pos.ply(),
            self.pos.to_move()
        ))
    }

    fn player(&self, player: Option<&str>) -> PyResult<Color> {
        match player {
            None => Ok(self.pos.to_move()),
            Some("white") => Ok(Color::White),
            Some("black") => Ok(Color::Black),
            Some(other) => Err(PyValueError::new_err(format!(
                "player {other:?}: expected \"white\" or \"black\""
            ))),
        }
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant, moves = None))]
    fn new(variant: &str, moves: Option<Vec<String>>) -> PyResult<Game> {
        let mut game = Game {
            pos: Position::new(variant_of(variant)?),
        };
        for m in moves.unwrap_or_default() {
            game.play(&m)?;
        }
        Ok(game)
    }

    /// The variant's id (`"qango6"`, ..., `"quinque"`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().id
    }

    /// The moves played so far, as texts.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.pos.history().iter().map(Move::to_string).collect()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    /// `"white"` or `"black"`: whose turn it is (after the end, whose turn
    /// it would be; `status` says the game is over).
    #[getter]
    fn to_move(&self) -> &'static str {
        self.pos.to_move().name()
    }

    /// `"ongoing"`, `"win"` or `"draw"`, as `arena judge` says.
    #[getter]
    fn status(&self) -> &'static str {
        match self.outcome() {
            None => "ongoing",
            Some(o) if o.winner.is_some() => "win",
            Some(_) => "draw",
        }
    }

    /// `"white"`, `"black"`, or `None` (ongoing or drawn).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        color_name(self.outcome().and_then(|o| o.winner))
    }

    /// Why the game ended, as `arena judge`'s `reason`: `"group"`,
    /// `"square"`, `"line"`, `"full"`, `"out_of_discs"`, `"no_moves"`;
    /// `None` while it goes on.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        self.outcome().map(|o| o.reason.as_str())
    }

    /// `[reason]` once the game is over, `[]` before (the rules name one
    /// reason per game: the first pattern completed).
    #[getter]
    fn reasons(&self) -> Vec<&'static str> {
        self.reason().into_iter().collect()
    }

    /// The winning cells (`arena judge`'s `cells`; empty for draws and
    /// `no_moves`).
    #[getter]
    fn cells(&self) -> Vec<String> {
        let cells = self.outcome().map(|o| o.cells).unwrap_or_default();
        cells.iter().map(ToString::to_string).collect()
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.pos.is_over()
    }

    /// The legal moves now, in the rules' order (empty once it is over).
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::with_capacity(64);
        self.pos.for_each_legal_move(|m| moves.push(m.to_string()));
        moves
    }

    /// Plays `move` (its exact text); `ValueError` naming the move, the
    /// variant and the rules' reason if it is illegal, the game unchanged.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        if self.pos.is_over() {
            return Err(self.illegal(r#move, &"the game is already over"));
        }
        self.pos
            .play_str(r#move)
            .map(|_| ())
            .map_err(|e| self.illegal(r#move, &e))
    }

    /// Plays the move of action index `action` (`play(action_to_move(a))`).
    fn play_action(&mut self, action: usize) -> PyResult<()> {
        let m = self.action_move(action)?;
        self.pos
            .play(&m)
            .map_err(|e| self.illegal(&m.to_string(), &e))
    }

    /// An independent copy of this game.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// Pickles as `Game(variant, moves)` (for multiprocessing and vector
    /// environments); unpickling replays the moves through the rules.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let game = slf.borrow();
        let class = slf.get_type().into_any();
        Ok((class, (game.variant().to_string(), game.moves())))
    }

    /// The number of action indices of this variant: Qango `rows * cols`
    /// (36 or 49), Quinque 7600 (their numbering: `action_to_move`).
    #[getter]
    fn action_size(&self) -> usize {
        self.actions().size()
    }

    /// The action index of `move` (a move's text, legal now or not);
    /// `ValueError` for a text that is no move of this variant.
    fn move_to_action(&self, r#move: &str) -> PyResult<usize> {
        let m = self
            .pos
            .parse_move(r#move)
            .ok()
            .filter(|m| m.to_string() == r#move)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{move:?} is not a move of {} (moves are spelt as legal_moves() spells them)",
                    self.pos.variant().id
                ))
            })?;
        self.actions().index_of(&m).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{move:?} has no action index in {}",
                self.variant()
            ))
        })
    }

    /// The move text of action index `action`. Qango: action `row * cols +
    /// col` is that cell. Quinque (7600): 0-24 `place`, 25-49 `double`,
    /// 50-74 `triple`, 75-99 `enclose` on cell `row * 5 + col`; 100-699
    /// `capture T W` at `100 + T * 24 + w` (`w`: `W` among the 24 cells
    /// other than `T`); 700-7599 `capture T W S` at `700 + T * 276 + k`
    /// (`k`: the pair `W` < `S` among the cells other than `T`, in the order
    /// (0,1), (0,2), ..., (22,23)).
    fn action_to_move(&self, action: usize) -> PyResult<String> {
        Ok(self.action_move(action)?.to_string())
    }

    /// A bool array of `action_size`: True at the action of each legal move.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.action_size()];
        self.pos.for_each_legal_move(|m| {
            if let Some(i) = self.actions().index_of(&m) {
                mask[i] = true;
            }
        });
        PyArray1::from_vec(py, mask)
    }

    /// The action indices of the legal moves, in `legal_moves()`'s order.
    fn legal_actions(&self) -> Vec<usize> {
        let mut actions = Vec::with_capacity(64);
        self.pos
            .for_each_legal_move(|m| actions.extend(self.actions().index_of(&m)));
        actions
    }

    /// The position as float32 planes `(planes, rows, cols)` seen by
    /// `player` (`"white"`/`"black"`; default: the side to move).
    /// Qango, `3 + groups` planes: 0 the player's discs, 1 the opponent's,
    /// 2 the playable cells, then one per colour group of the board (its
    /// cells, in `variant_info(v)["groups"]` order): (15, 6, 6) for Qango 6,
    /// (19, 7, 7) for Qango 7, (15, 7, 7) for Qango 7 Plus. Quinque,
    /// (9, 5, 5): 0-2 the player's singles, doubles, triples; 3-5 the
    /// opponent's; 6 the stack just taken by a capture or enclosure (not
    /// capturable this turn); 7 the player's supply / 20 and 8 the
    /// opponent's (constant planes).
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let planes = observation::planes(&self.pos, self.player(player)?);
        PyArray1::from_vec(py, planes.data).reshape(planes.shape)
    }

    /// Plays uniformly random legal moves from here to the end, natively
    /// and without the GIL, and returns the winner (`"white"`, `"black"`,
    /// `None` for a draw). The game itself is unchanged; `seed` makes it
    /// repeatable.
    #[pyo3(signature = (seed = None))]
    fn random_playout<'py>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
    ) -> Option<Bound<'py, PyString>> {
        let pos = &self.pos;
        let winner =
            py.detach(|| playout::with_rng(seed, |rng| playout::playout(pos, rng, |_| {})));
        // Interned: a new string per call was a visible share of a playout.
        winner.map(|w| match w {
            Color::White => intern!(py, "white").clone(),
            Color::Black => intern!(py, "black").clone(),
        })
    }

    /// `n` random playouts from here in one call (natively, without the
    /// GIL): `{"white": wins, "black": wins, "draw": draws}`.
    #[pyo3(signature = (n, seed = None))]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        seed: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let pos = &self.pos;
        let [white, black, draw] =
            py.detach(|| playout::with_rng(seed, |rng| playout::count(pos, n, rng)));
        let out = PyDict::new(py);
        out.set_item("white", white)?;
        out.set_item("black", black)?;
        out.set_item("draw", draw)?;
        Ok(out)
    }

    /// Plays the moves `random_playout(seed)` would play on this game
    /// itself (so they are in `moves`), and returns the winner.
    #[pyo3(signature = (seed = None))]
    fn play_random(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<Option<&'static str>> {
        let mut moves = Vec::new();
        let pos = &self.pos;
        py.detach(|| playout::with_rng(seed, |rng| playout::playout(pos, rng, |m| moves.push(m))));
        for m in moves {
            self.pos
                .play(&m)
                .map_err(|e| self.illegal(&m.to_string(), &e))?;
        }
        Ok(self.winner())
    }

    /// The position as the protocol's `turn` message gives it (`board`,
    /// `to_move`, and `discs` or Quinque's `supply` and `locked`).
    fn state(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(json_to_py(py, &self.pos.state_json())?.unbind())
    }

    /// The board as text (`arena games`' drawing: `W`/`B` discs, Quinque
    /// stacks as `W2`, `B1`, ...); `ansi` adds terminal colours.
    #[pyo3(signature = (ansi = false))]
    fn render(&self, ansi: bool) -> String {
        self.pos.render(ansi)
    }

    fn __str__(&self) -> String {
        self.pos.render(false)
    }

    fn __repr__(&self) -> String {
        let state = match self.outcome() {
            None => format!("{} to move", self.to_move()),
            Some(o) => match o.winner {
                Some(w) => format!("{w} won ({})", o.reason),
                None => format!("drawn ({})", o.reason),
            },
        };
        format!(
            "<arena.Game {} after {} moves, {state}>\n{}",
            self.variant(),
            self.ply(),
            self.pos.render(false)
        )
    }
}

impl Game {
    fn action_move(&self, action: usize) -> PyResult<Move> {
        self.actions().move_at(action).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "action {action} is out of range: {} has actions 0 to {}",
                self.variant(),
                self.action_size() - 1
            ))
        })
    }
}
