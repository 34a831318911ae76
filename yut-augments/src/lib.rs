#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod action;
mod augment;
mod config;
mod event;
mod inline;
mod rules;
mod state;
mod view;

pub use action::{
    AugmentAction, AugmentError, NO_DRAFT, UNKNOWN_CANDIDATE, no_draft, unknown_candidate,
};
pub use augment::{Augment, Slot, UnknownAugment};
pub use config::{AugmentConfig, AugmentOptions, app_options, plain_options};
pub use event::{AugmentEvent, Effect, HouseRule, Source};
pub use inline::{Candidates, Marks, OwnedList};
pub use rules::{Augments, bonus_steps};
pub use state::{AugmentState, Draft, Owned, SideAugments};
pub use view::{AugmentView, CandidateView, DraftView, OwnedView, SideAugmentView};

/// The game with the augment layer.
pub type AugmentedYut = yut::Yut<Augments>;

/// The game with the augment layer: `yut::Yut::new(Augments)`.
///
/// ```
/// use game_core::{Game, GameExt};
/// assert_eq!(yut_augments::game().id(), "yut-augments");
/// ```
pub const fn game() -> AugmentedYut {
    yut::Yut::new(Augments)
}
