//! The one drawing of a board on a page: `board.js` (the table with
//! coordinates, colour groups, the hatched centre, discs and stacks, the
//! marks of the last move, the opening and the winning cells; the legend)
//! and `board.css`, with the colour of each kind of cell from the rules
//! engine's one table ([`arena_rules::games::look`]). The report's page
//! embeds both (its viewer draws with them); the live page of `arena serve`
//! is that page, so its cards draw with them too; the play page embeds
//! [`BOARD_JS`] and [`board_css`]. What a board shows comes as data: the
//! variant's [`arena_rules::games::look::BoardLook`] and one content code
//! per cell ([`super::moves`]).

use arena_rules::games::look::kind_css;

/// The script that draws boards (`window.arenaBoard`).
pub const BOARD_JS: &str = include_str!("board.js");

const BOARD_CSS: &str = include_str!("board.css");

/// The styles of a drawn board: the kinds' colours, then `board.css`.
pub fn board_css() -> String {
    format!("{}{BOARD_CSS}", kind_css())
}
