//! Counting what the rules allow, to check them against published counts:
//! move sequences ([`perft`]), distinct positions after each ply
//! ([`distinct_positions`], OEIS A212693 on 7x6) and complete games
//! ([`complete_games`], OEIS A342329 on (n+1) x n boards).

use crate::board::{Position, Size};
use engine_core::game::Game;
use std::collections::HashMap;

/// The move sequences of `depth` plies from `pos` (games that end sooner
/// are not continued and not counted).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &c in moves.iter() {
        let undo = pos.make(c);
        total += perft(pos, depth - 1);
        pos.unmake(c, undo);
    }
    total
}

/// The number of distinct positions (by exact key) after `n` plies of a
/// game from the empty board of `size`, for every `n` up to `plies`: a
/// position after a four in a row counts at its ply and is not continued.
pub fn distinct_positions(size: Size, plies: usize) -> Vec<u64> {
    let mut layer = vec![Position::new(size).key()];
    let mut counts = vec![1];
    for _ in 0..plies {
        let mut next = Vec::with_capacity(layer.len() * size.width());
        for &key in &layer {
            let mut pos = Position::from_key(size, key).expect("keys of this layer decode");
            for &c in pos.legal_moves().iter() {
                let undo = pos.make(c);
                next.push(pos.key());
                pos.unmake(c, undo);
            }
        }
        next.sort_unstable();
        next.dedup();
        counts.push(next.len() as u64);
        layer = next;
    }
    counts
}

/// The number of complete games (move sequences from the empty board of
/// `size` to a four in a row or a full board), counted once per position
/// with a table of the positions seen.
pub fn complete_games(size: Size) -> u64 {
    fn games(pos: &mut Position, seen: &mut HashMap<u64, u64>) -> u64 {
        if pos.is_terminal() {
            return 1;
        }
        if let Some(&n) = seen.get(&pos.key()) {
            return n;
        }
        let mut total = 0;
        for &c in pos.legal_moves().iter() {
            let undo = pos.make(c);
            total += games(pos, seen);
            pos.unmake(c, undo);
        }
        seen.insert(pos.key(), total);
        total
    }
    games(&mut Position::new(size), &mut HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_counts_every_sequence_before_any_four() {
        // Nothing can end before ply 7, and no column fills before ply 6:
        // 7^n sequences, the arithmetic of the rules (not a published value).
        let mut pos = Position::default();
        for n in 0..=5 {
            assert_eq!(perft(&mut pos, n), 7u64.pow(n));
        }
    }

    #[test]
    fn tiny_boards_count_by_hand() {
        // 2x1: the first player picks a column, the second has one left.
        assert_eq!(complete_games(Size::new(2, 1).unwrap()), 2);
        assert_eq!(distinct_positions(Size::new(2, 1).unwrap(), 2), [1, 2, 2]);
    }
}
