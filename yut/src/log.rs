//! The recent events a view shows: a ring of [`LOG_LEN`] slots, written in place.

use std::fmt;
use std::iter::Chain;
use std::slice;

use serde::{Serialize, Serializer};

use crate::YutEvent;

/// How many recent events the state keeps for the view.
pub const LOG_LEN: usize = 32;

// The slot of the `n`th event is `n` masked: no comparison, and no bounds check either.
const _: () = assert!(LOG_LEN.is_power_of_two());

/// The most recent events, at most [`LOG_LEN`], read oldest first. Once full, a new event
/// overwrites the oldest in its slot: nothing shifts and nothing is allocated after the
/// log is made. Serialized as a JSON array, oldest first.
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
pub struct EventLog<E> {
    /// Every slot exists from the start, `None` in a new log, so that a write is one
    /// store at a masked index: no length to test and no push path. An event with a spare
    /// tag value (every `YutEvent`) makes the `Option` free: a slot is an event's size.
    /// The log reads slots `0..written` until the ring is full, then all of them; a
    /// cleared log leaves its plain events in the slots beyond, unread, to be overwritten.
    slots: Box<Slots<E>>,
    /// How many events were ever written: the next goes to slot `written % LOG_LEN`, and
    /// the log holds `min(written, LOG_LEN)`. One counter is the whole of a write's
    /// bookkeeping.
    written: usize,
    /// The events beyond [`LOG_LEN`] that a restored log had: counted, not held, so that
    /// its length is the stored one and the state's checks refuse it. 0 in play.
    dropped: usize,
    /// The slots that may hold an event that owns something (one with drop glue), a bit
    /// each: a slot whose bit is clear is empty or plain. While no bit is set, a write
    /// overwrites without looking at what it replaces; in play that holds until the
    /// game's end (its `gameOver` owns the winners' ids). Bits are set by the writes of
    /// owning events and cleared only with the log, which then drops what the set bits'
    /// slots hold and no more.
    owning: u32,
}

// `owning` has a bit for every slot.
const _: () = assert!(LOG_LEN <= u32::BITS as usize);

/// The log's one allocation: the ring, and beside it the event a clear kept for reuse.
struct Slots<E> {
    /// The ring of [`LOG_LEN`] slots.
    ring: [Option<E>; LOG_LEN],
    /// The `gameOver` a clear for the next game took out of the ring, kept rather than
    /// dropped so that the next game's end writes its winners into this one's list and
    /// ids instead of allocating them ([`EventLog::clear_for_next_game`]). Not part of
    /// the log's value: no read, comparison, copy or serialization sees it.
    spare: Option<E>,
}

// By hand: the derived copy of the boxed array builds it on the stack and then moves it
// to the heap, and an assignment to a slot would run the drop glue of the `None` it
// replaces; this one writes each event once, in its new slot, and copies a full log in
// fewer instructions than either.
impl<E: Clone> Clone for EventLog<E> {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        // The held slots: the others are empty, or hold plain events overwritten in
        // place that nothing reads (see `clear`).
        let held = self.written.min(LOG_LEN);
        for (to, from) in copy.slots.ring[..held]
            .iter_mut()
            .zip(&self.slots.ring[..held])
        {
            // `to` is a new slot's `None`: nothing to drop.
            std::mem::forget(std::mem::replace(to, from.clone()));
        }
        Self {
            written: self.written,
            dropped: self.dropped,
            owning: self.owning,
            ..copy
        }
    }

    /// Into this log's slots, allocating nothing: what may own something is dropped
    /// first, then each held event of `source` is written once into its slot.
    fn clone_from(&mut self, source: &Self) {
        self.clear();
        let held = source.written.min(LOG_LEN);
        for (to, from) in self.slots.ring[..held]
            .iter_mut()
            .zip(&source.slots.ring[..held])
        {
            // `to` is empty or plain now (see `owning`): nothing to drop.
            std::mem::forget(std::mem::replace(to, from.clone()));
        }
        self.written = source.written;
        self.dropped = source.dropped;
        // The copies own what the originals own, in the same slots.
        self.owning = source.owning;
    }
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
            slots: Box::new(Slots {
                ring: [const { None }; LOG_LEN],
                spare: None,
            }),
            written: 0,
            dropped: 0,
            owning: 0,
        }
    }

    /// Empties the log, dropping the events it holds that own something, and keeps its
    /// slots: afterwards it equals [`EventLog::new`], with nothing allocated (a state
    /// reused for a new game). The plain events stay in their slots unread, to be
    /// overwritten: a game's log is cleared in a few instructions, not a slot at a time.
    pub(crate) fn clear(&mut self) {
        let mut owning = self.owning;
        while owning != 0 {
            self.slots.ring[owning.trailing_zeros() as usize] = None;
            owning &= owning - 1;
        }
        self.written = 0;
        self.dropped = 0;
        self.owning = 0;
    }

    /// The `owning` bits of the first `n` slots.
    fn first_slots(n: usize) -> u32 {
        match n {
            0 => 0,
            n if n >= LOG_LEN => u32::MAX >> (u32::BITS as usize - LOG_LEN),
            n => (1 << n) - 1,
        }
    }

    /// A log of `events`, oldest first; only the newest [`LOG_LEN`] are kept.
    ///
    /// ```
    /// let log = yut::EventLog::from_events(vec![1, 2, 3]);
    /// assert_eq!(log.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
    /// ```
    pub fn from_events(events: Vec<E>) -> Self {
        let mut log = Self::new();
        let extra = events.len().saturating_sub(LOG_LEN);
        for event in events.into_iter().skip(extra) {
            log.slots.ring[log.written % LOG_LEN] = Some(event);
            log.written += 1;
        }
        if std::mem::needs_drop::<E>() {
            log.owning = Self::first_slots(log.written);
        }
        log
    }

    /// A log whose length is that of the stored `events`, however many: a restored state
    /// with more than [`LOG_LEN`] is refused by its checks, which must see that length.
    /// Only the newest [`LOG_LEN`] are held; a refused state is never played or shown.
    pub(crate) fn from_stored(events: Vec<E>) -> Self {
        Self {
            dropped: events.len().saturating_sub(LOG_LEN),
            ..Self::from_events(events)
        }
    }

    /// Appends a copy of `event`, overwriting the oldest once the log is full.
    #[inline]
    pub fn push(&mut self, event: &E)
    where
        E: Clone,
    {
        let n = self.written % LOG_LEN;
        // An assignment: what the slot held is dropped, whatever it was.
        self.slots.ring[n] = Some(event.clone());
        self.written += 1;
        if std::mem::needs_drop::<E>() {
            self.owning |= 1 << n;
        }
    }

    /// How many events it holds.
    pub fn len(&self) -> usize {
        self.written.min(LOG_LEN) + self.dropped
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The events, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &E> + Clone {
        let (older, newer) = if self.written < LOG_LEN {
            (&self.slots.ring[..self.written], &[][..])
        } else {
            let (newer, older) = self.slots.ring.split_at(self.written % LOG_LEN);
            (older, newer)
        };
        Iter {
            filled: older.iter().chain(newer),
        }
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
        // The held events, not `len`: a restored log may count more than it holds.
        let held = self.written.min(LOG_LEN);
        let kept: Vec<E> = self.iter().skip(held.saturating_sub(n)).cloned().collect();
        *self = Self::from_events(kept);
    }
}

impl<X> EventLog<YutEvent<X>> {
    /// [`EventLog::clear`] for a state reset into a new game: a `gameOver` it holds is
    /// kept aside for the new game's end ([`EventLog::spare_winners`]), so that a series
    /// of games allocates nothing for its winners.
    pub(crate) fn clear_for_next_game(&mut self) {
        let mut owning = self.owning;
        while owning != 0 {
            let slot = &mut self.slots.ring[owning.trailing_zeros() as usize];
            if matches!(slot, Some(YutEvent::GameOver { .. })) {
                self.slots.spare = slot.take();
                break;
            }
            owning &= owning - 1;
        }
        self.clear();
    }

    /// The winners' list of the `gameOver` the last [`EventLog::clear_for_next_game`] kept
    /// aside, ids and all, to be written over in place; or a new empty list.
    pub(crate) fn spare_winners(&mut self) -> Vec<String> {
        match self.slots.spare.take() {
            Some(YutEvent::GameOver { winners }) => winners,
            _ => Vec::new(),
        }
    }

    /// Appends `event` itself, overwriting the oldest once the log is full: the engine
    /// writes each event into the log as it happens, with no copy made afterwards.
    #[inline(always)]
    pub(crate) fn put(&mut self, event: YutEvent<X>) {
        // The counter is stepped before the slot is written: the other order compiles to
        // longer code on every step's path.
        let n = self.written;
        self.written = n + 1;
        let slot = &mut self.slots.ring[n % LOG_LEN];
        // Known where the event is made: a plain one's write has no store of the bits.
        let plain = event.is_plain();
        if self.owning != 0 {
            // Dropped as usual, whatever the slot holds.
            *slot = Some(event);
        } else {
            // Every slot is empty or plain (see `owning`): overwritten without the drop
            // glue's look at the slot, nothing is lost.
            std::mem::forget(slot.replace(event));
        }
        if !plain {
            self.owning |= 1 << (n % LOG_LEN);
        }
    }
}

impl<X> YutEvent<X> {
    /// Whether the event owns nothing (has nothing for the drop glue to free). That the
    /// variants named own nothing is checked by the compiler: `YutEvent`'s `clone` binds
    /// every field of each of them by copy, which only `Copy` fields (never owning) allow;
    /// a rule's event counts as plain only if its type has no drop glue (the augments'
    /// events are `Copy`). Any other variant, one added later too, counts as owning.
    #[inline(always)]
    fn is_plain(&self) -> bool {
        matches!(
            self,
            YutEvent::Thrown { .. }
                | YutEvent::Nak { .. }
                | YutEvent::Moved { .. }
                | YutEvent::Carried { .. }
                | YutEvent::Stacked { .. }
                | YutEvent::Captured { .. }
                | YutEvent::FinishedPieces { .. }
                | YutEvent::Discarded { .. }
                | YutEvent::TurnChanged { .. }
                | YutEvent::SideFinished { .. }
                | YutEvent::Conceded { .. }
        ) || (!std::mem::needs_drop::<X>() && matches!(self, YutEvent::Rule(_)))
    }
}

/// The filled slots of a log, oldest first.
struct Iter<'a, E> {
    /// Only filled slots; an empty one would be skipped rather than panicked on.
    filled: Chain<slice::Iter<'a, Option<E>>, slice::Iter<'a, Option<E>>>,
}

// By hand: derived, it would ask `E: Clone`, which copying references does not need.
impl<E> Clone for Iter<'_, E> {
    fn clone(&self) -> Self {
        Self {
            filled: self.filled.clone(),
        }
    }
}

impl<'a, E> Iterator for Iter<'a, E> {
    type Item = &'a E;

    fn next(&mut self) -> Option<&'a E> {
        self.filled.find_map(Option::as_ref)
    }

    // Exact, every slot being filled: a collected copy of the log allocates once.
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.filled.size_hint()
    }
}

impl<E> DoubleEndedIterator for Iter<'_, E> {
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(event) = self.filled.next_back()? {
                return Some(event);
            }
        }
    }
}

impl<E: fmt::Debug> fmt::Debug for EventLog<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
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

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    /// What the ring must read as: the newest [`LOG_LEN`] of everything written.
    fn newest<T: Clone>(written: &[T]) -> Vec<T> {
        written[written.len().saturating_sub(LOG_LEN)..].to_vec()
    }

    fn assert_reads_as<T: Clone + PartialEq + fmt::Debug + Serialize>(
        log: &EventLog<T>,
        expected: &[T],
    ) {
        assert_eq!(log.len(), expected.len());
        assert_eq!(log.is_empty(), expected.is_empty());
        assert_eq!(log.iter().cloned().collect::<Vec<_>>(), expected);
        let mut backwards: Vec<T> = log.iter().rev().cloned().collect();
        backwards.reverse();
        assert_eq!(backwards, expected);
        assert_eq!(
            log.iter().size_hint(),
            (expected.len(), Some(expected.len()))
        );
        assert_eq!(
            serde_json::to_string(log).unwrap(),
            serde_json::to_string(expected).unwrap()
        );
        assert_eq!(format!("{log:?}"), format!("{expected:?}"));
        let copy = log.clone();
        assert_eq!(&copy, log);
        assert_eq!(copy.iter().cloned().collect::<Vec<_>>(), expected);
        // Into used logs: an empty one, and a full one.
        let mut used = vec![EventLog::new()];
        if let Some(first) = expected.first() {
            used.push(EventLog::from_events(vec![first.clone(); 3 * LOG_LEN]));
        }
        for mut into in used {
            into.clone_from(log);
            assert_eq!(&into, log);
            assert_eq!(into.iter().cloned().collect::<Vec<_>>(), expected);
        }
    }

    /// Through several wraps of the ring, by `push` and by `put`, the log reads as a list
    /// that keeps the newest [`LOG_LEN`], and so does one made from those events, or one
    /// cut to fewer.
    #[test]
    fn a_ring_wrapped_many_times_reads_as_the_newest_events() {
        let mut pushed = EventLog::new();
        let mut put = EventLog::new();
        let mut written = Vec::new();
        assert_reads_as(&pushed, &written);
        for i in 0..5 * LOG_LEN as u8 + 3 {
            let event: YutEvent = YutEvent::TurnChanged { seat: i, side: 0 };
            pushed.push(&event);
            put.put(event.clone());
            written.push(event);
            let expected = newest(&written);
            assert_reads_as(&pushed, &expected);
            assert_reads_as(&put, &expected);
            assert_eq!(pushed, put);
            assert_reads_as(&EventLog::from_events(written.clone()), &expected);
            for n in [0, 1, 5, LOG_LEN, LOG_LEN + 1] {
                let mut cut = put.clone();
                cut.keep_newest(n);
                assert_reads_as(&cut, &expected[expected.len().saturating_sub(n)..]);
            }
        }
        assert_ne!(
            pushed,
            EventLog::from_events(newest(&written)[1..].to_vec())
        );
    }

    /// A clear for the next game keeps a `gameOver` for its winners, wherever the ring
    /// stands (wrapped or not), drops every other event that owns something, and leaves a
    /// log equal to a new one; a later clear with no `gameOver` keeps nothing, and a plain
    /// clear keeps nothing either.
    #[test]
    fn a_clear_for_the_next_game_keeps_its_game_over() {
        let over = |name: &str| -> YutEvent {
            YutEvent::GameOver {
                winners: vec![name.to_string()],
            }
        };
        let plain: YutEvent = YutEvent::TurnChanged { seat: 0, side: 0 };
        let presence: YutEvent = YutEvent::PresenceChanged {
            player: "p".into(),
            connected: false,
            away: false,
        };
        // (events before the game's end, plain events after it)
        for (before, after) in [(0, 0), (3, 2), (31, 0), (29, 7), (40, 31)] {
            let mut log = EventLog::new();
            for i in 0..before {
                log.put(if i % 5 == 1 {
                    presence.clone()
                } else {
                    plain.clone()
                });
            }
            log.put(over("a"));
            for _ in 0..after {
                log.put(plain.clone());
            }
            log.clear_for_next_game();
            assert_eq!(log, EventLog::new());
            let owning = log.slots.ring.iter().flatten().filter(|e| !e.is_plain());
            assert_eq!(owning.count(), 0, "{before} {after}");
            assert_eq!(log.spare_winners(), ["a"], "{before} {after}");
            assert_eq!(log.spare_winners(), Vec::<String>::new());
            log.put(presence.clone());
            log.clear_for_next_game();
            assert_eq!(log.spare_winners(), Vec::<String>::new());
            log.put(over("b"));
            log.clear();
            assert_eq!(log.spare_winners(), Vec::<String>::new());
        }
    }

    /// An overwritten event that owns something is dropped, whichever kind, and a copy
    /// owns its own: nothing leaks, and nothing is dropped twice.
    #[test]
    fn overwritten_events_are_dropped() {
        let owner = Rc::new(());
        let mut log = EventLog::new();
        for i in 0..3 * LOG_LEN {
            log.put(match i % 3 {
                0 => YutEvent::Rule(Rc::clone(&owner)),
                1 => YutEvent::GameOver {
                    winners: vec!["a".into()],
                },
                _ => YutEvent::Nak { side: 0 },
            });
            let rules = log
                .iter()
                .filter(|e| matches!(e, YutEvent::Rule(_)))
                .count();
            assert_eq!(Rc::strong_count(&owner), 1 + rules);
            let copy = log.clone();
            assert_eq!(Rc::strong_count(&owner), 1 + 2 * rules);
            drop(copy);
            assert_eq!(Rc::strong_count(&owner), 1 + rules);
            // Into a used log, one that owns as much, and one that owns nothing.
            let mut into = EventLog::from_events(vec![YutEvent::Rule(Rc::clone(&owner)); 40]);
            into.clone_from(&log);
            assert_eq!(into, log);
            assert_eq!(Rc::strong_count(&owner), 1 + 2 * rules);
            let mut plain = EventLog::new();
            plain.put(YutEvent::Nak { side: 1 });
            plain.clone_from(&log);
            assert_eq!(plain, log);
            // A copy's owning events are dropped when overwritten, as the original's are.
            for _ in 0..LOG_LEN {
                plain.put(YutEvent::Nak { side: 0 });
            }
            assert_eq!(Rc::strong_count(&owner), 1 + 2 * rules);
            drop((into, plain));
            assert_eq!(Rc::strong_count(&owner), 1 + rules);
        }
        drop(log);
        assert_eq!(Rc::strong_count(&owner), 1);
    }

    /// A log of plain events overwrites without looking; the first event that owns
    /// something turns the looking back on, so that overwriting it drops it, and a cleared
    /// log is plain again.
    #[test]
    fn an_owning_event_among_plain_ones_is_dropped_when_overwritten() {
        let owner = Rc::new(());
        let mut log = EventLog::new();
        let nak = || YutEvent::Nak { side: 0 };
        for round in 0..3 {
            for _ in 0..LOG_LEN + round {
                log.put(nak());
            }
            assert_eq!(log.owning, 0);
            log.put(YutEvent::Rule(Rc::clone(&owner)));
            assert_ne!(log.owning, 0);
            assert_eq!(Rc::strong_count(&owner), 2);
            for _ in 0..LOG_LEN - 1 {
                log.put(nak());
            }
            assert_eq!(Rc::strong_count(&owner), 2, "held until overwritten");
            log.put(nak());
            assert_eq!(Rc::strong_count(&owner), 1, "dropped when overwritten");
            log.put(YutEvent::Rule(Rc::clone(&owner)));
            log.put(nak());
            log.put(YutEvent::Rule(Rc::clone(&owner)));
            assert_eq!(Rc::strong_count(&owner), 3);
            log.clear();
            assert_eq!(Rc::strong_count(&owner), 1, "dropped when cleared");
            assert_eq!(log.owning, 0);
            assert_eq!(log, EventLog::new());
            // The plain events left in the slots are not read again.
            let turn = YutEvent::TurnChanged { seat: 1, side: 1 };
            log.put(turn.clone());
            assert_eq!(log.iter().collect::<Vec<_>>(), [&turn]);
            assert_eq!(log.clone().iter().collect::<Vec<_>>(), [&turn]);
            log.clear();
        }
    }

    /// A stored log keeps its stored length, more than the ring holds included, so that
    /// the state's checks see it and refuse it.
    #[test]
    fn a_stored_log_keeps_its_length() {
        for n in [0, 1, LOG_LEN - 1, LOG_LEN, LOG_LEN + 1, 3 * LOG_LEN] {
            let events: Vec<YutEvent> = (0..n)
                .map(|i| YutEvent::TurnChanged {
                    seat: i as u8,
                    side: 0,
                })
                .collect();
            let log = EventLog::from_stored(events.clone());
            assert_eq!(log.len(), n);
            assert_eq!(log.iter().cloned().collect::<Vec<_>>(), newest(&events));
            let mut cut = log.clone();
            cut.keep_newest(LOG_LEN);
            assert_reads_as(&cut, &newest(&events));
        }
    }
}
