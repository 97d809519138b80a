//! Threats: immediate wins (five or the tenth captured stone), the moves that
//! answer them, forcing moves, and the threat-space search for wins by
//! continuous fours (VCF) that knows captures break lines and may win alone.

use super::board::{CAPTURE_WIN_STONES, Cell, Moves, PentePosition};
use super::pattern::Shape;
use engine_core::cputime::{CpuClock, CpuTimer};
use engine_core::game::{Color, Game};
use std::time::Duration;

/// Captured stones from which one more capture wins.
pub const CAPTURE_WIN_THRESHOLD: u32 = CAPTURE_WIN_STONES - 2;

/// The first cell (in index order) where `color` wins at once, if any.
#[inline]
pub fn first_win(pos: &PentePosition, color: Color) -> Option<Cell> {
    pos.winning_cells(color).next()
}

/// Every cell where `color` wins at once.
#[inline]
pub fn wins(pos: &PentePosition, color: Color) -> Moves {
    pos.winning_cells(color).collect()
}

/// Every cell where a stone of `color` captures at least one pair.
#[inline]
pub fn capture_moves(pos: &PentePosition, color: Color) -> Moves {
    pos.capturing_cells(color).collect()
}

/// The moves that can stop the opponent's immediate wins `threats`: taking
/// a threatened cell, or capturing (which may break the line or the pair).
/// Any other move loses at once.
pub fn defences(pos: &PentePosition, threats: &Moves) -> Moves {
    let mut out = *threats;
    for c in capture_moves(pos, pos.to_move()).iter() {
        if !out.contains(c) {
            out.push(*c);
        }
    }
    out
}

/// True when a stone of `color` on `cell` forces a reply: it makes a four,
/// or (with [`CAPTURE_WIN_THRESHOLD`] stones captured) a capture threat.
#[inline]
pub fn is_forcing(pos: &PentePosition, cell: Cell, color: Color) -> bool {
    let ps = pos.patterns(cell, color);
    ps.iter().any(|p| p.shape().is_four())
        || (pos.captured(color) >= CAPTURE_WIN_THRESHOLD && ps.iter().any(|p| p.threats() > 0))
}

/// Threat-space search for a win by continuous forcing moves.
#[derive(Debug)]
pub struct Vcf {
    nodes: u64,
    node_limit: u64,
    timer: CpuTimer,
    time_limit: Duration,
}

/// Moves between two looks at the clock.
const VCF_CLOCK_INTERVAL: u64 = 256;

impl Vcf {
    /// A search that gives up (finding nothing) after `node_limit` moves made
    /// or `time_limit` of CPU time on `clock`.
    pub fn new(node_limit: u64, time_limit: Duration, clock: &CpuClock) -> Self {
        Vcf { nodes: 0, node_limit, timer: clock.timer(), time_limit }
    }

    /// Counts a move; false when the search must give up.
    fn step(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(VCF_CLOCK_INTERVAL) && self.timer.elapsed() >= self.time_limit {
            self.node_limit = 0;
            return false;
        }
        true
    }

    /// Moves made so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A first move of a forced win for the side to move within `depth`
    /// forcing moves, where every reply is forced (blocks or captures) and the
    /// win is five or ten captured stones. `None` when none was found.
    pub fn find(&mut self, pos: &mut PentePosition, depth: u32) -> Option<Cell> {
        self.attack(pos, depth)
    }

    fn attack(&mut self, pos: &mut PentePosition, depth: u32) -> Option<Cell> {
        let me = pos.to_move();
        if pos.is_terminal() {
            return None;
        }
        if let Some(win) = first_win(pos, me) {
            return Some(win);
        }
        if depth == 0 || first_win(pos, me.opponent()).is_some() {
            return None;
        }
        let mut attacks: Moves = pos.candidates().filter(|&c| is_forcing(pos, c, me)).collect();
        // Open fours first: they usually end the search at once.
        attacks.as_mut_slice().sort_by_key(|&c| {
            std::cmp::Reverse(pos.patterns(c, me).iter().map(|p| p.shape()).max().unwrap_or(Shape::Dead))
        });
        for &m in attacks.iter() {
            if !self.step() {
                return None;
            }
            let undo = pos.make(m);
            let won = self.defend(pos, me, depth);
            pos.unmake(m, undo);
            if won {
                return Some(m);
            }
        }
        None
    }

    /// True when `attacker` (who just moved) wins against every reply.
    fn defend(&mut self, pos: &mut PentePosition, attacker: Color, depth: u32) -> bool {
        if pos.winner() == Some(attacker) {
            return true;
        }
        let defender = pos.to_move();
        if pos.is_terminal() || first_win(pos, defender).is_some() {
            return false;
        }
        let threats = wins(pos, attacker);
        if threats.is_empty() {
            return false;
        }
        for &reply in defences(pos, &threats).iter() {
            if !self.step() {
                return false;
            }
            let undo = pos.make(reply);
            let won = self.attack(pos, depth - 1).is_some();
            pos.unmake(reply, undo);
            if !won {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::mix::SplitMix;
    use rand::RngExt;

    /// True when a stone of `color` on the empty `cell` wins at once: five in a
    /// row, or captures that reach ten stones.
    fn wins_at(pos: &PentePosition, cell: Cell, color: Color) -> bool {
        let ps = pos.patterns(cell, color);
        ps.iter().any(|p| p.shape() == Shape::Five)
            || pos.captured(color) + 2 * ps.iter().map(|p| p.captures()).sum::<u32>() >= CAPTURE_WIN_STONES
    }

    /// The cells the kept counts name equal a scan of every candidate cell
    /// with [`wins_at`] and the pattern table, through games of random
    /// moves (captures, capture wins and fives included) and back.
    #[test]
    fn kept_winning_and_capturing_cells_equal_a_scan() {
        let mut checked = 0;
        for seed in 0..40 {
            let mut rng = SplitMix(seed);
            let mut pos = PentePosition::new();
            let mut line = Vec::new();
            while !pos.is_terminal() && line.len() < 120 {
                for color in Color::BOTH {
                    let scanned: Moves = pos.candidates().filter(|&c| wins_at(&pos, c, color)).collect();
                    assert_eq!(&wins(&pos, color)[..], &scanned[..], "{pos:?}");
                    let capturing: Moves =
                        pos.candidates().filter(|&c| pos.patterns(c, color).iter().any(|p| p.captures() > 0)).collect();
                    assert_eq!(&capture_moves(&pos, color)[..], &capturing[..], "{pos:?}");
                    checked += scanned.len();
                }
                let moves = pos.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                line.push((mv, pos.make(mv)));
            }
            while let Some((mv, undo)) = line.pop() {
                pos.unmake(mv, undo);
                pos.check_consistency().unwrap();
            }
        }
        assert!(checked > 0, "no position with an immediate win");
    }
}
