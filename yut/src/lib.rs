#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// First: the `words!` macro of the enums' wire words is used by the modules below.
#[macro_use]
mod words;

mod action;
pub mod bot;
mod check;
mod error;
mod event;
mod game;
pub mod graph;
mod inline_list;
mod legal;
mod log;
pub mod movement;
mod node_list;
mod options;
mod outcome;
mod path;
mod policy;
pub mod rules;
mod seat_list;
mod side_list;
mod state;
#[cfg(feature = "testing")]
pub mod testing;
mod throw;
mod throw_list;
mod trail;
mod turn;
mod view;

pub use action::YutAction;
pub use bot::{BotKind, PolicyBot, SeatBot, StrongBot, StrongModel, StrongParams};
pub use check::MAX_PENDING;
pub use error::{RuleError, YutError};
pub use event::{NoEvent, YutEvent};
pub use game::Yut;
pub use inline_list::InlineList;
pub use legal::LegalMove;
pub use log::{EventLog, LOG_LEN};
pub use node_list::NodeList;
pub use options::{
    BackdoFromDo, FinishRule, Mode, NAK_PERCENTS, PIECES, Preset, Ranking, StickModel,
    TURN_SECONDS, YutOptions,
};
pub use outcome::{Place, ResultStats, YutResult};
pub use path::Path;
pub use rules::{NoAction, NoConfig, NoView, Rules, Standard};
pub use seat_list::{MAX_SEATS, SeatList};
pub use side_list::{MAX_SIDES, SideList};
pub use state::{
    Board, HomeWord, MAX_PIECES, OffBoard, Origin, Phase, Piece, PieceStatus, Side, SideId,
    ThrowStats, To, YutState,
};
pub use throw::{Sticks, Throw, ThrowChance, ThrowDraw};
pub use throw_list::{PackedThrows, ThrowList};
pub use trail::Trail;
pub use view::{LastThrow, PieceView, PresenceView, SideView, Turn, YutView};
pub use words::UnknownWord;
