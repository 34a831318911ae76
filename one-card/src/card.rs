//! Cards and suits, with their wire names (`"7H"`, `"10S"`, `"BJ"`).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A suit. Wire names are single letters.
///
/// ```
/// use one_card::Suit;
/// assert_eq!(serde_json::to_string(&Suit::Hearts).unwrap(), r#""H""#);
/// ```
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Suit {
    /// ♠ (`"S"`).
    #[serde(rename = "S")]
    Spades,
    /// ♥ (`"H"`).
    #[serde(rename = "H")]
    Hearts,
    /// ♦ (`"D"`).
    #[serde(rename = "D")]
    Diamonds,
    /// ♣ (`"C"`).
    #[serde(rename = "C")]
    Clubs,
}

impl Suit {
    /// Every suit, in deck order (the order a 7's declarations are listed in).
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }
}

/// The number of cards in the deck: 52 and two jokers.
pub const DECK_SIZE: usize = 54;

/// One of the 54 cards. Held as its index in the deck: the four suits in [`Suit::ALL`]
/// order, each from A to K, then the black-and-white joker and the colour joker.
///
/// ```
/// use one_card::{Card, Suit};
/// let c: Card = "10S".parse().unwrap();
/// assert_eq!((c.rank(), c.suit()), (Some(10), Some(Suit::Spades)));
/// assert_eq!(Card::BLACK_JOKER.to_string(), "BJ");
/// assert!("1S".parse::<Card>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The black-and-white joker (흑백 조커, `"BJ"`): an attack of 5.
    pub const BLACK_JOKER: Card = Card(52);
    /// The colour joker (컬러 조커, `"CJ"`): an attack of 7.
    pub const COLOR_JOKER: Card = Card(53);

    /// The card of `rank` (1 for A to 13 for K) in `suit`, or `None` for another rank.
    ///
    /// ```
    /// use one_card::{Card, Suit};
    /// assert_eq!(Card::new(1, Suit::Hearts).unwrap().to_string(), "AH");
    /// assert!(Card::new(14, Suit::Hearts).is_none());
    /// ```
    pub fn new(rank: u8, suit: Suit) -> Option<Card> {
        (1..=13)
            .contains(&rank)
            .then(|| Card(suit as u8 * 13 + rank - 1))
    }

    /// Every card, in deck order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }

    /// The card's place in deck order (0 to 53).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Whether the card is one of the two jokers.
    pub fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The rank, 1 (A) to 13 (K); `None` for a joker.
    pub fn rank(self) -> Option<u8> {
        (!self.is_joker()).then_some(self.0 % 13 + 1)
    }

    /// The suit; `None` for a joker.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[usize::from(self.0 / 13)])
    }

    /// The cards this card adds to a pending attack (0 for a card that is no attack):
    /// 2 is +2, A +3, ♠A +5, the black-and-white joker +5, the colour joker +7.
    ///
    /// ```
    /// use one_card::Card;
    /// let p = |s: &str| s.parse::<Card>().unwrap();
    /// assert_eq!([p("2D"), p("AH"), p("AS"), p("BJ"), p("CJ"), p("7H")].map(Card::attack), [2, 3, 5, 5, 7, 0]);
    /// ```
    pub fn attack(self) -> u32 {
        match (self, self.rank(), self.suit()) {
            (Card::BLACK_JOKER, _, _) => 5,
            (Card::COLOR_JOKER, _, _) => 7,
            (_, Some(1), Some(Suit::Spades)) => 5,
            (_, Some(1), _) => 3,
            (_, Some(2), _) => 2,
            _ => 0,
        }
    }

    /// Whether `self` may answer a pending attack whose last card is `attacker`
    /// (RULES.md, the answer table).
    ///
    /// ```
    /// use one_card::Card;
    /// let p = |s: &str| s.parse::<Card>().unwrap();
    /// assert!(p("2S").answers(p("2H")));
    /// assert!(p("AH").answers(p("2H")) && !p("AD").answers(p("2H")));
    /// assert!(!p("2H").answers(p("AH")));
    /// assert!(p("CJ").answers(p("BJ")) && !p("BJ").answers(p("CJ")));
    /// ```
    pub fn answers(self, attacker: Card) -> bool {
        if attacker == Card::COLOR_JOKER {
            return false;
        }
        if attacker == Card::BLACK_JOKER {
            return self == Card::COLOR_JOKER;
        }
        if self.is_joker() {
            return true;
        }
        match (attacker.rank(), attacker.suit()) {
            (Some(1), Some(Suit::Spades)) => false,
            (Some(1), _) => self.rank() == Some(1),
            (Some(2), suit) => {
                self.rank() == Some(2) || (self.rank() == Some(1) && self.suit() == suit)
            }
            _ => false,
        }
    }

    /// Whether `self` may be played, with no attack pending, on `top` while `declared` is
    /// the suit a 7 on top declared (RULES.md, matching).
    ///
    /// ```
    /// use one_card::{Card, Suit};
    /// let p = |s: &str| s.parse::<Card>().unwrap();
    /// assert!(p("3H").follows(p("9H"), None) && p("9S").follows(p("9H"), None));
    /// assert!(!p("3S").follows(p("9H"), None));
    /// assert!(p("3S").follows(p("7H"), Some(Suit::Spades)) && !p("3H").follows(p("7H"), Some(Suit::Spades)));
    /// assert!(p("BJ").follows(p("9H"), None) && p("3S").follows(p("CJ"), None));
    /// ```
    pub fn follows(self, top: Card, declared: Option<Suit>) -> bool {
        if self.is_joker() || top.is_joker() {
            return true;
        }
        let suit = declared.or(top.suit());
        self.suit() == suit || self.rank() == top.rank()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (*self, self.rank(), self.suit()) {
            (Card::BLACK_JOKER, _, _) => f.write_str("BJ"),
            (Card::COLOR_JOKER, _, _) => f.write_str("CJ"),
            (_, Some(rank), Some(suit)) => {
                match rank {
                    1 => f.write_str("A")?,
                    11 => f.write_str("J")?,
                    12 => f.write_str("Q")?,
                    13 => f.write_str("K")?,
                    n => write!(f, "{n}")?,
                }
                write!(f, "{}", suit.letter())
            }
            // Unreachable: a card that is no joker has a rank and a suit.
            _ => f.write_str("??"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that names no card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a card name (rank then suit, like `7H` or `10S`, or `BJ`/`CJ`)")]
pub struct NotACard;

impl std::str::FromStr for Card {
    type Err = NotACard;

    fn from_str(s: &str) -> Result<Self, NotACard> {
        match s {
            "BJ" => return Ok(Card::BLACK_JOKER),
            "CJ" => return Ok(Card::COLOR_JOKER),
            _ => {}
        }
        let (rank, suit) = s
            .split_at_checked(s.len().wrapping_sub(1))
            .ok_or(NotACard)?;
        let suit = match suit {
            "S" => Suit::Spades,
            "H" => Suit::Hearts,
            "D" => Suit::Diamonds,
            "C" => Suit::Clubs,
            _ => return Err(NotACard),
        };
        let rank = match rank {
            "A" => 1,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" => {
                rank.parse().map_err(|_| NotACard)?
            }
            _ => return Err(NotACard),
        };
        Card::new(rank, suit).ok_or(NotACard)
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Card {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<String> = Card::all().map(|c| c.to_string()).collect();
        schemars::json_schema!({
            "description": "A card: rank then suit (`AS` … `10S` … `KS`, suits S H D C), or a joker (`BJ`, `CJ`).",
            "type": "string",
            "enum": names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_name() {
        let names: Vec<String> = Card::all().map(|c| c.to_string()).collect();
        assert_eq!(names.len(), DECK_SIZE);
        assert_eq!(
            &names[..13].join(" "),
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
        );
        assert_eq!(&names[52..], ["BJ", "CJ"]);
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), c);
        }
        for bad in [
            "", "S", "1S", "11S", "0H", "7X", "7h", "B", "BJJ", "10", "ᄀS",
        ] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_answer_table() {
        let p = |s: &str| s.parse::<Card>().unwrap();
        // Against a 2: any 2, the A of its suit, either joker.
        assert!(p("2C").answers(p("2H")) && p("AH").answers(p("2H")));
        assert!(p("AS").answers(p("2S")) && !p("AS").answers(p("2H")));
        assert!(p("BJ").answers(p("2H")) && p("CJ").answers(p("2H")));
        assert!(!p("3H").answers(p("2H")));
        // Against an A: any A (♠A too), either joker; no 2.
        assert!(p("AD").answers(p("AH")) && p("AS").answers(p("AH")));
        assert!(!p("2H").answers(p("AH")) && p("BJ").answers(p("AH")));
        // Against ♠A: a joker only.
        assert!(!p("AH").answers(p("AS")) && p("BJ").answers(p("AS")));
        assert!(p("CJ").answers(p("AS")));
        // Against the black joker: the colour joker only; against the colour joker: nothing.
        assert!(p("CJ").answers(p("BJ")) && !p("AS").answers(p("BJ")));
        assert!(Card::all().all(|c| !c.answers(p("CJ"))));
        // No card that is no attack is ever an answer.
        assert!(Card::all().all(|c| c.attack() > 0 || !c.answers(p("2H"))));
    }
}
