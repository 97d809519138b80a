//! Connect Four against published facts, through the crate's public API:
//! position and game counts (OEIS).

use connect4::Size;
use connect4::perft::{complete_games, distinct_positions};

fn size(width: usize, height: usize) -> Size {
    Size::new(width, height).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------
// Counts

/// OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n
/// plies" (John Tromp, 2012; the b-file copies P. Kissmann's table),
/// https://oeis.org/A212693, terms a(0)..a(12).
const A212693: [u64; 13] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101];

/// Plies of A212693 counted: 12 takes about 1.5 s in the optimised test
/// build (and 256 MiB for the last ply's keys).
const A212693_PLIES: usize = 12;

#[test]
fn distinct_positions_match_oeis_a212693() {
    let counts = distinct_positions(Size::STANDARD, A212693_PLIES);
    assert_eq!(counts[..], A212693[..=A212693_PLIES]);
}

/// OEIS A342329, "Number of different games of Connect Four on an (n+1) X
/// n board" (Robin Jehn, 2021), https://oeis.org/A342329: a(1)..a(4) for
/// the 2x1, 3x2, 4x3 and 5x4 boards (width x height).
const A342329: [(usize, usize, u64); 4] = [(2, 1, 2), (3, 2, 90), (4, 3, 356_232), (5, 4, 152_505_051_772)];

#[test]
fn complete_games_match_oeis_a342329() {
    for (width, height, games) in A342329 {
        assert_eq!(complete_games(size(width, height)), games, "{width}x{height}");
    }
}
