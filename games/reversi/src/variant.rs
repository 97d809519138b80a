//! The named Reversi variants: board size, start position, first player and
//! scoring, and the dispatch from a runtime variant to compile-time geometry.

use super::geometry::Geometry;
use super::position::{Position, Scoring};
use engine_core::bitboard::BitSet;
use engine_core::game::Color;
use std::fmt;
use std::str::FromStr;

/// A Reversi variant, chosen by name on command lines and in files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// 4x4, standard start (the "Reversi Tiny" handout).
    Tiny4,
    /// 6x6, standard start.
    Othello6,
    /// 8x8 Othello.
    Othello8,
    /// 10x10, standard start.
    Othello10,
    /// 12x12, standard start.
    Othello12,
    /// 12x12 Duo-Othello: eight-disc start, `O` moves first, `X` gets +1.
    Duo12,
}

/// A start-position disc: (row, col) from 0 at the top left.
type Cell = (usize, usize);

impl Variant {
    /// Every variant, smallest board first.
    pub const ALL: [Variant; 6] =
        [Variant::Tiny4, Variant::Othello6, Variant::Othello8, Variant::Othello10, Variant::Othello12, Variant::Duo12];

    /// The name used on command lines.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tiny4 => "tiny4",
            Variant::Othello6 => "othello6",
            Variant::Othello8 => "othello8",
            Variant::Othello10 => "othello10",
            Variant::Othello12 => "othello12",
            Variant::Duo12 => "duo12",
        }
    }

    /// Board side length.
    pub const fn size(self) -> usize {
        match self {
            Variant::Tiny4 => 4,
            Variant::Othello6 => 6,
            Variant::Othello8 => 8,
            Variant::Othello10 => 10,
            Variant::Othello12 | Variant::Duo12 => 12,
        }
    }

    /// Who moves first from the start position.
    pub const fn first_to_move(self) -> Color {
        match self {
            Variant::Duo12 => Color::White,
            _ => Color::Black,
        }
    }

    /// How a finished game is scored. The handouts of the 4x4 and Duo-Othello
    /// games count discs only; the Othello boards use the tournament rule
    /// (empties go to the winner), which the published endgame scores use.
    pub const fn scoring(self) -> Scoring {
        match self {
            Variant::Tiny4 => Scoring::PLAIN,
            Variant::Duo12 => Scoring::DUO,
            _ => Scoring::WOF,
        }
    }

    /// Start discs `(black, white)`.
    pub fn start_cells(self) -> (Vec<Cell>, Vec<Cell>) {
        match self {
            Variant::Duo12 => (vec![(2, 2), (3, 3), (8, 8), (9, 9)], vec![(2, 3), (3, 2), (8, 9), (9, 8)]),
            _ => {
                let m = self.size() / 2 - 1;
                (vec![(m, m + 1), (m + 1, m)], vec![(m, m), (m + 1, m + 1)])
            }
        }
    }

    /// Number of discs on the board at the start.
    pub fn start_discs(self) -> u32 {
        let (black, white) = self.start_cells();
        (black.len() + white.len()) as u32
    }

    /// The start position, on geometry `G` (which must have this variant's size).
    pub fn start<G: Geometry>(self) -> Position<G> {
        assert_eq!(G::N, self.size(), "geometry does not match variant {}", self.name());
        let set = |cells: &[Cell]| cells.iter().fold(G::Bits::EMPTY, |b, &(r, c)| b | G::Bits::bit(r * G::N + c));
        let (black, white) = self.start_cells();
        Position::from_discs(set(&black), set(&white), self.first_to_move(), self.scoring())
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| {
            let names: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!("unknown variant `{s}`: expected one of {}", names.join(", "))
        })
    }
}

/// Runs `$body` with `$g` bound to the geometry type of the variant's board
/// size, so runtime-chosen variants reach size-specialised code.
///
/// ```
/// use reversi::{Geometry, Variant};
/// let v = Variant::Othello8;
/// let cells = reversi::with_geometry!(v, G => G::CELLS);
/// assert_eq!(cells, 64);
/// ```
#[macro_export]
macro_rules! with_geometry {
    ($variant:expr, $g:ident => $body:expr) => {
        match $variant.size() {
            4 => {
                type $g = $crate::Size4;
                $body
            }
            6 => {
                type $g = $crate::Size6;
                $body
            }
            8 => {
                type $g = $crate::Size8;
                $body
            }
            10 => {
                type $g = $crate::Size10;
                $body
            }
            12 => {
                type $g = $crate::Size12;
                $body
            }
            n => unreachable!("no geometry for board size {n}"),
        }
    };
}
