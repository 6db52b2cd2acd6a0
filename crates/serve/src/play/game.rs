//! One game on the play page: who sits where, its task (the referee's
//! [`play_game`] with a page person in one or both seats), and its state as
//! the page reads it ([`State`], sent again at every change).
//!
//! The game's task owns the bot's seat: the bot is started for the game and
//! stopped when it ends, however it ends (the result, the person leaving
//! or gone, the server stopping). A finished game is recorded by the room
//! ([`super::Room::record`]) before the page hears its result.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit};

use arena_referee::game_id::game_id;
use arena_referee::{
    play_game, BotSpec, GameConfig, GameEvent, GameRecord, Human, PageAnswer, Participant,
};
use arena_report::html::moves::{board_now, BoardNow};
use arena_rules::games::{Color, Position, Variant};
use arena_rules::protocol::TimeControl;

use super::Room;

/// Who plays one side.
#[derive(Debug, Clone)]
pub enum Side {
    /// A bot of the bots file.
    Bot(BotSpec),
    /// A person on the page, by the name they typed.
    Person(String),
}

impl Side {
    pub fn name(&self) -> &str {
        match self {
            Side::Bot(spec) => &spec.name,
            Side::Person(name) => name,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Side::Bot(_) => "bot",
            Side::Person(_) => "person",
        }
    }
}

/// What a page asked to play.
#[derive(Clone)]
pub struct Setup {
    pub variant: &'static Variant,
    pub time_control: TimeControl,
    pub sides: [Side; 2],
}

/// One game, being played or over.
pub struct Game {
    pub number: u64,
    /// The page that started it: only it may act in it.
    pub token: String,
    pub setup: Setup,
    state: watch::Sender<Arc<State>>,
    /// The person seats' inputs (`None` for a bot's side).
    answers: [Option<mpsc::Sender<PageAnswer>>; 2],
    /// Pages following the game now, and when the last one left.
    watchers: AtomicUsize,
    unwatched_since: Mutex<Option<Instant>>,
    /// The finished game's record, once over.
    pub record: std::sync::OnceLock<GameRecord>,
    /// The strip of the finished game, once computed.
    pub analysis: tokio::sync::OnceCell<Arc<serde_json::Value>>,
}

/// The game as the page reads it (docs/PLAY.md has the fields).
#[derive(Debug, Clone, Serialize)]
pub struct State {
    pub game_id: String,
    pub variant: &'static str,
    pub white: SideState,
    pub black: SideState,
    pub time_control: String,
    pub moves: Vec<String>,
    pub board: BoardNow,
    pub to_move: Option<Color>,
    /// The legal moves when a person is to move (else none).
    pub legal: Vec<String>,
    /// A bot's program is still starting.
    pub starting: bool,
    /// The bot on move is thinking.
    pub thinking: Option<Color>,
    pub clocks: Clocks,
    pub over: bool,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub message: Option<String>,
    pub cells: Vec<String>,
    /// Arena itself failed (the game is not recorded): what happened.
    pub error: Option<String>,
    /// Time each side has spent, and moves each has made (its clock).
    #[serde(skip)]
    spent: [u64; 2],
    #[serde(skip)]
    made: [u64; 2],
    /// A person's time for a move.
    #[serde(skip)]
    idle_ms: u64,
}

impl State {
    fn start(number: u64, setup: &Setup, position: &Position, idle: Duration) -> State {
        let side = |s: &Side| SideState {
            name: s.name().to_string(),
            kind: s.kind(),
        };
        let idle_ms = idle.as_millis() as u64;
        let left = Left { left_ms: idle_ms };
        let mut state = State {
            game_id: game_id(number),
            variant: setup.variant.id,
            white: side(&setup.sides[0]),
            black: side(&setup.sides[1]),
            time_control: setup.time_control.to_string(),
            moves: Vec::new(),
            board: board_now(setup.variant, &[], 0),
            to_move: None,
            legal: Vec::new(),
            starting: false,
            thinking: None,
            clocks: Clocks {
                white: left,
                black: left,
            },
            over: false,
            result: None,
            reason: None,
            message: None,
            cells: Vec::new(),
            error: None,
            spent: [0; 2],
            made: [0; 2],
            idle_ms,
        };
        let config = GameConfig::new("", setup.variant, setup.time_control);
        state.follow(setup, &config, position);
        state
    }

    /// Whose turn it is in `position`, what they may play (a person), who
    /// is thinking (a bot) and each side's time for its move.
    fn follow(&mut self, setup: &Setup, config: &GameConfig, position: &Position) {
        self.board = board_now(setup.variant, &self.moves, 0);
        let to_move = (!position.is_over()).then(|| position.to_move());
        self.to_move = to_move;
        self.legal.clear();
        self.thinking = None;
        if let Some(color) = to_move {
            match &setup.sides[color.index()] {
                Side::Person(_) => {
                    self.legal = position
                        .legal_moves()
                        .iter()
                        .map(|m| m.to_string())
                        .collect()
                }
                Side::Bot(_) => self.thinking = Some(color),
            }
        }
        let left = |color: Color| {
            let i = color.index();
            let left_ms = match (&setup.sides[i], config.time_control_of(color)) {
                (Side::Person(_), _) => self.idle_ms,
                (Side::Bot(_), TimeControl::PerMove { move_ms }) => move_ms,
                (
                    Side::Bot(_),
                    TimeControl::Clock {
                        base_ms,
                        increment_ms,
                    },
                ) => (base_ms + increment_ms * self.made[i]).saturating_sub(self.spent[i]),
            };
            Left { left_ms }
        };
        self.clocks = Clocks {
            white: left(Color::White),
            black: left(Color::Black),
        };
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct SideState {
    pub name: String,
    pub kind: &'static str,
}

/// The time each side has for its current (or next) move as of the state.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Clocks {
    pub white: Left,
    pub black: Left,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Left {
    pub left_ms: u64,
}

impl Game {
    /// A new game, not started yet: the seats' inputs are returned for
    /// [`Game::play`].
    pub fn new(
        number: u64,
        token: String,
        setup: Setup,
        idle: Duration,
    ) -> (Arc<Game>, [Option<mpsc::Receiver<PageAnswer>>; 2]) {
        let mut answers = [None, None];
        let mut inputs = [None, None];
        for (i, side) in setup.sides.iter().enumerate() {
            if let Side::Person(_) = side {
                // Room for a move and a leave; more waits its turn.
                let (tx, rx) = mpsc::channel(4);
                answers[i] = Some(tx);
                inputs[i] = Some(rx);
            }
        }
        let position = Position::new(setup.variant);
        let mut state = State::start(number, &setup, &position, idle);
        // Nobody moves before the bots are ready.
        state.legal.clear();
        state.starting = setup.sides.iter().any(|s| matches!(s, Side::Bot(_)));
        let game = Game {
            number,
            token,
            setup,
            state: watch::channel(Arc::new(state)).0,
            answers,
            watchers: AtomicUsize::new(0),
            unwatched_since: Mutex::new(Some(Instant::now())),
            record: std::sync::OnceLock::new(),
            analysis: tokio::sync::OnceCell::new(),
        };
        (Arc::new(game), inputs)
    }

    pub fn id(&self) -> String {
        game_id(self.number)
    }

    pub fn state(&self) -> Arc<State> {
        self.state.borrow().clone()
    }

    pub fn subscribe(&self) -> watch::Receiver<Arc<State>> {
        self.state.subscribe()
    }

    /// Hands the person to move `text` for the position after `ply`
    /// moves, after checking it against the game as it is now; `Err` says
    /// why not (not a person's turn, over, illegal).
    pub fn send_move(&self, ply: Option<u32>, text: &str) -> Result<(), String> {
        let state = self.state();
        if state.over {
            return Err("the game is over".into());
        }
        let Some(color) = state.to_move.filter(|_| !state.legal.is_empty()) else {
            return Err("it is not a person's turn: wait for the bot's move".into());
        };
        let now = state.moves.len() as u32;
        if ply.is_some_and(|p| p != now) {
            return Err(format!(
                "that move was for ply {}, the game is at ply {now}: reload the state",
                ply.unwrap_or_default()
            ));
        }
        if !state.legal.iter().any(|m| m == text) {
            return Err(format!("{text:?} is not a legal move here"));
        }
        let answer = PageAnswer::Move {
            ply: now,
            text: text.to_string(),
        };
        match &self.answers[color.index()] {
            Some(tx) => tx
                .try_send(answer)
                .map_err(|_| "a move is already on its way: wait for it".into()),
            None => Err("it is not a person's turn".into()),
        }
    }

    /// The people in the game leave (`why`): the one to move loses on time.
    pub fn leave(&self, why: &str) {
        for tx in self.answers.iter().flatten() {
            let _ = tx.try_send(PageAnswer::Leave(why.to_string()));
        }
    }

    /// A page follows the game until the guard is dropped.
    pub fn watch(self: &Arc<Self>) -> Watcher {
        self.watchers.fetch_add(1, Ordering::SeqCst);
        Watcher(Arc::clone(self))
    }

    /// How long no page has followed the game (`None`: one does).
    pub fn unwatched_for(&self) -> Option<Duration> {
        if self.watchers.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let since = *self.unwatched_since.lock().expect("never poisoned");
        since.map(|t| t.elapsed())
    }

    /// Plays the game to its end (or until `stop` resolves), records it
    /// and stops its bots; the board's `permit` is released then.
    pub async fn play(
        self: Arc<Self>,
        room: Arc<Room>,
        inputs: [Option<mpsc::Receiver<PageAnswer>>; 2],
        permit: OwnedSemaphorePermit,
        stop: impl std::future::Future<Output = ()>,
    ) {
        let config = room.game_config(&self);
        let mut seats = self.seats(&room, inputs);
        let outcome = {
            let [white, black] = &mut seats;
            let mut observer = |event: GameEvent<'_>| self.on_event(&config, event);
            tokio::select! {
                r = play_game(white.player(), black.player(), &config, &mut observer) => Some(r),
                () = stop => None,
            }
        };
        for seat in &mut seats {
            seat.shutdown().await;
        }
        match outcome {
            Some(Ok(record)) => {
                let error = room.record(&record).err();
                // The record first: a page told the game is over may ask
                // for its strip at once.
                let _ = self.record.set(record.clone());
                self.finish(&record, error.map(|e| format!("{e:#}")));
            }
            Some(Err(e)) => self.fail(format!("arena failed (not the players): {e:#}")),
            None => self.fail("the server stopped; the game was not finished".into()),
        }
        drop(permit);
    }

    fn seats(
        &self,
        room: &Room,
        mut inputs: [Option<mpsc::Receiver<PageAnswer>>; 2],
    ) -> [Participant; 2] {
        let seat = |i: usize, input: Option<mpsc::Receiver<PageAnswer>>| match (
            &self.setup.sides[i],
            input,
        ) {
            (Side::Person(name), Some(rx)) => {
                Participant::Human(Human::page(name, rx, room.idle()))
            }
            (Side::Bot(spec), _) => Participant::Bot(Box::new(room.seat(spec))),
            (Side::Person(name), None) => unreachable!("{name}: a person's seat has its input"),
        };
        let [w, b] = &mut inputs;
        [seat(0, w.take()), seat(1, b.take())]
    }

    /// The state after a move (or the start).
    fn on_event(&self, config: &GameConfig, event: GameEvent<'_>) {
        self.state.send_modify(|state| {
            let s = Arc::make_mut(state);
            s.starting = false;
            let position = match event {
                GameEvent::Started { position } => position,
                GameEvent::Moved {
                    position,
                    color,
                    notation,
                    time_ms,
                } => {
                    s.moves.push(notation.to_string());
                    s.spent[color.index()] += time_ms;
                    s.made[color.index()] += 1;
                    position
                }
            };
            s.follow(&self.setup, config, position);
        });
    }

    fn finish(&self, record: &GameRecord, error: Option<String>) {
        self.state.send_modify(|state| {
            let s = Arc::make_mut(state);
            s.starting = false;
            s.moves = record.moves.clone();
            s.board = board_now(self.setup.variant, &record.moves, record.opening.len());
            s.to_move = None;
            s.legal.clear();
            s.thinking = None;
            s.over = true;
            s.result = Some(record.result.as_str().to_string());
            s.reason = Some(record.reason.to_string());
            s.message = Some(record.message.clone());
            s.cells = record.cells.clone();
            s.error = error.map(|e| format!("the game could not be recorded: {e}"));
        });
    }

    fn fail(&self, error: String) {
        self.state.send_modify(|state| {
            let s = Arc::make_mut(state);
            s.starting = false;
            s.to_move = None;
            s.legal.clear();
            s.thinking = None;
            s.over = true;
            s.error = Some(error);
        });
    }
}

/// A page following a game; dropping it says the page left.
pub struct Watcher(Arc<Game>);

impl Drop for Watcher {
    fn drop(&mut self) {
        if self.0.watchers.fetch_sub(1, Ordering::SeqCst) == 1 {
            *self.0.unwatched_since.lock().expect("never poisoned") = Some(Instant::now());
        }
    }
}
