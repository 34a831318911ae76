#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod action;
pub mod board;
mod check;
mod error;
mod event;
mod game;
mod legal;
pub mod movement;
mod nodes;
mod options;
mod outcome;
mod policy;
pub mod rules;
mod state;
#[cfg(feature = "testing")]
pub mod testing;
mod throw;
mod turn;
mod view;

pub use action::YutAction;
pub use check::MAX_PENDING;
pub use error::{RuleError, YutError};
pub use event::{NoEvent, YutEvent};
pub use game::Yut;
pub use legal::LegalMove;
pub use nodes::{NODES_CAP, Nodes};
pub use options::{
    BackdoFromDo, FinishRule, Mode, NAK_PERCENTS, PIECES, Preset, Ranking, StickModel,
    TURN_SECONDS, YutOptions,
};
pub use outcome::{Place, ResultStats, YutResult};
pub use rules::{NoAction, NoConfig, NoView, Rules, Standard};
pub use state::{
    Board, HomeWord, LOG_LEN, OffBoard, Origin, Phase, Piece, PieceStatus, Side, SideId,
    ThrowStats, To, YutState,
};
pub use throw::{Sticks, Throw, ThrowChance, ThrowDraw};
pub use view::{LastThrow, PieceView, PresenceView, SideView, Turn, YutView};

/// The workspace README's embedding guide, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
