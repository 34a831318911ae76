//! The recent events a view shows: a ring of [`LOG_LEN`] slots, written in place.

use serde::{Serialize, Serializer};

use crate::YutEvent;

/// How many recent events the state keeps for the view.
pub const LOG_LEN: usize = 32;

/// The most recent events, at most [`LOG_LEN`], read oldest first. Once full, a new event
/// overwrites the oldest in its slot: nothing shifts and nothing is allocated after the
/// first [`LOG_LEN`] events. Serialized as a JSON array, oldest first.
///
/// ```
/// let mut log = yut::EventLog::new();
/// for i in 0..40u32 {
///     log.push(&i);
/// }
/// assert_eq!(log.len(), yut::LOG_LEN);
/// assert_eq!(log.iter().next(), Some(&8));
/// assert_eq!(log.iter().last(), Some(&39));
/// ```
#[derive(Clone, Debug)]
pub struct EventLog<E> {
    /// The slots; once all [`LOG_LEN`] are used, `oldest` is where the next event goes.
    slots: Vec<E>,
    oldest: usize,
}

impl<E> Default for EventLog<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventLog<E> {
    /// An empty log, its [`LOG_LEN`] slots allocated at once (so that play never does).
    pub fn new() -> Self {
        Self {
            slots: Vec::with_capacity(LOG_LEN),
            oldest: 0,
        }
    }

    /// A log of `events`, oldest first; only the newest [`LOG_LEN`] are kept.
    ///
    /// ```
    /// let log = yut::EventLog::from_events(vec![1, 2, 3]);
    /// assert_eq!(log.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
    /// ```
    pub fn from_events(mut events: Vec<E>) -> Self {
        let extra = events.len().saturating_sub(LOG_LEN);
        events.drain(..extra);
        events.reserve_exact(LOG_LEN - events.len());
        Self {
            slots: events,
            oldest: 0,
        }
    }

    /// A log of exactly the stored `events`, however many: a restored state with more than
    /// [`LOG_LEN`] is refused by its checks, which must see the length as stored.
    pub(crate) fn from_stored(mut events: Vec<E>) -> Self {
        events.reserve_exact(LOG_LEN.saturating_sub(events.len()));
        Self {
            slots: events,
            oldest: 0,
        }
    }

    /// Appends a copy of `event`, overwriting the oldest once the log is full.
    #[inline]
    pub fn push(&mut self, event: &E)
    where
        E: Clone,
    {
        if self.slots.len() < LOG_LEN {
            self.slots.push(event.clone());
        } else {
            self.slots[self.oldest] = event.clone();
            self.oldest = if self.oldest + 1 == LOG_LEN {
                0
            } else {
                self.oldest + 1
            };
        }
    }

    /// How many events it holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The events, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &E> + Clone {
        let (newer, older) = self.slots.split_at(self.oldest);
        older.iter().chain(newer)
    }

    /// Keeps only the newest `n` events.
    ///
    /// ```
    /// let mut log = yut::EventLog::from_events(vec![1, 2, 3]);
    /// log.keep_newest(1);
    /// assert_eq!(log.iter().copied().collect::<Vec<_>>(), [3]);
    /// ```
    pub fn keep_newest(&mut self, n: usize)
    where
        E: Clone,
    {
        let kept: Vec<E> = self
            .iter()
            .skip(self.len().saturating_sub(n))
            .cloned()
            .collect();
        *self = Self::from_events(kept);
    }
}

impl<X> EventLog<YutEvent<X>> {
    /// Appends `event` itself, overwriting the oldest once the log is full: the engine
    /// writes each event into the log as it happens, with no copy made afterwards.
    #[inline(always)]
    pub(crate) fn put(&mut self, event: YutEvent<X>) {
        if self.slots.len() < LOG_LEN {
            self.slots.push(event);
            return;
        }
        let slot = &mut self.slots[self.oldest];
        // The variants of plain fields own nothing: overwritten without the drop glue's
        // call, nothing is lost. Any other (one added later too) is dropped as usual.
        let plain = matches!(
            slot,
            YutEvent::Thrown { .. }
                | YutEvent::Nak { .. }
                | YutEvent::Moved { .. }
                | YutEvent::Stacked { .. }
                | YutEvent::Captured { .. }
                | YutEvent::FinishedPieces { .. }
                | YutEvent::Discarded { .. }
                | YutEvent::TurnChanged { .. }
                | YutEvent::SideFinished { .. }
                | YutEvent::Conceded { .. }
        );
        if plain {
            std::mem::forget(std::mem::replace(slot, event));
        } else {
            *slot = event;
        }
        // A mask, not a comparison: the length is a power of two.
        const { assert!(LOG_LEN.is_power_of_two()) };
        self.oldest = (self.oldest + 1) & (LOG_LEN - 1);
    }
}

impl<E: PartialEq> PartialEq for EventLog<E> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<E: Serialize> Serialize for EventLog<E> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}
