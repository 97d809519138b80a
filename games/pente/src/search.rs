//! What the shared search (`engine_core::search`) needs to know about Pente: the
//! [`SearchGame`] hooks. Immediate wins end a node at once, replies to the
//! opponent's immediate wins are forced (and searched without using up
//! depth), quiet nodes search only their best-ordered candidate moves, moves
//! are ordered by the threats they make and block, and the root first looks
//! for a win by continuous fours (VCF).

use super::board::{Cell, PentePosition};
use super::length::GameLength;
use super::threats::{self, CAPTURE_WIN_THRESHOLD, Vcf};
use engine_core::bitboard::Isa;
use engine_core::cputime::CpuClock;
use engine_core::game::{Color, Game};
use engine_core::search::{SearchGame, SearchParams, Tactics};
use std::time::Duration;

/// Moves searched at a node that is not forced, by remaining depth
/// (index `min(depth, len - 1)`); the root searches them all.
const WIDTH: [usize; 6] = [0, 48, 36, 28, 22, 18];
/// Move-ordering values of the side to move's shape on a cell, per line.
const ORDER_OWN: [i32; 9] = [0, 1, 4, 10, 30, 120, 500, 5_000, 100_000];
/// Move-ordering values of the opponent's shape on a cell (blocking), per line.
const ORDER_OPP: [i32; 9] = [0, 1, 3, 8, 25, 100, 400, 2_500, 50_000];
/// Move-ordering value of a captured pair.
const ORDER_CAPTURE: i32 = 300;
/// Move-ordering value of a created capture threat.
const ORDER_THREAT: i32 = 40;
/// Capture-threat ordering factor once one more capture wins or nearly does.
const ORDER_THREAT_NEAR_WIN: i32 = 4;
/// Move-ordering penalty for leaving an own pair capturable.
const ORDER_EXPOSED: i32 = 60;
/// Forcing moves a VCF line may hold.
pub const VCF_DEPTH: u32 = 12;
/// VCF probe moves per second of its time budget.
const VCF_NODES_PER_SECOND: f64 = 100_000.0;
/// Largest VCF probe, in moves (also the probe of an untimed search).
pub const MAX_VCF_NODES: u64 = 400_000;
/// Below this many CPU seconds left, the `pente` program answers with
/// [`quick_move`] without searching.
pub const PANIC_SECONDS: f64 = 0.15;

/// Pente's time plan puts the weight on the opening: its first moves build
/// the threats that decide the game, while the last ones are mostly found
/// by the threat reading at no cost, and the game may end any time. The
/// proof match is in the book (journal/time-plan.md). The plan keeps its shares
/// as they are (a fixed overrun of 1) until a match proves a running one.
const PENTE_PARAMS: SearchParams = SearchParams {
    peak_progress: 0.0,
    peak_bonus: 2.0,
    peak_spread: 0.5,
    extra_moves: 1.0,
    overrun_moves: FIXED_OVERRUN_MOVES,
    ..SearchParams::DEFAULT
};
/// A prior this heavy keeps the plan's overrun at `time.overrun`.
const FIXED_OVERRUN_MOVES: f64 = 1000.0;

impl SearchGame for PentePosition {
    /// Width-limited nodes live on their ordering: hints everywhere.
    const HINT_DEPTH: u32 = 0;
    const WIN_LOSS: bool = true;
    const QUIET: bool = false;
    const PARAMS: SearchParams = PENTE_PARAMS;
    type Params = engine_core::search::NoParams;
    type Expansion<I: Isa> = ();

    #[inline(always)]
    fn expand_on<I: Isa>(&self) {}

    #[inline(always)]
    fn move_index(mv: Cell) -> usize {
        mv.index()
    }

    #[inline]
    fn order_hint(&self, mv: Cell) -> i32 {
        order_score(self, mv, self.to_move())
    }

    /// From the game lengths learnt from the project's games.
    fn own_moves_left(&self) -> f64 {
        GameLength::compiled().own_moves_left(self.placed(self.to_move()))
    }

    fn progress(&self) -> f64 {
        let placed = f64::from(self.placed(self.to_move()));
        placed / (placed + self.own_moves_left())
    }

    #[inline]
    fn search_width(depth: u32) -> usize {
        WIDTH[(depth as usize).min(WIDTH.len() - 1)]
    }

    fn tactics(&self) -> Tactics<Self> {
        if self.is_terminal() {
            return Tactics::Over;
        }
        let me = self.to_move();
        if let Some(cell) = threats::first_win(self, me) {
            return Tactics::Win(cell);
        }
        let threats = threats::wins(self, me.opponent());
        if threats.is_empty() { Tactics::Quiet } else { Tactics::Forced(threats::defences(self, &threats)) }
    }

    fn forced_win(&mut self, budget: Option<Duration>, clock: &CpuClock) -> (Option<Cell>, u64) {
        let (nodes, time) = match budget {
            None => (MAX_VCF_NODES, Duration::MAX),
            Some(t) => (((t.as_secs_f64() * VCF_NODES_PER_SECOND) as u64).min(MAX_VCF_NODES), t),
        };
        let mut vcf = Vcf::new(nodes, time, clock);
        let win = vcf.find(self, VCF_DEPTH);
        (win, vcf.nodes())
    }
}

/// Ordering score of `cell` for `me`: what `me` makes there and what it
/// takes from the opponent (also the static choice when there is no time).
pub fn order_score(pos: &PentePosition, cell: Cell, me: Color) -> i32 {
    let threat_value =
        if pos.captured(me) + 2 >= CAPTURE_WIN_THRESHOLD { ORDER_THREAT * ORDER_THREAT_NEAR_WIN } else { ORDER_THREAT };
    let mut s = 0;
    let pairs = pos.pattern_pairs(cell);
    for p in pairs[me.index()] {
        s += ORDER_OWN[p.shape() as usize] + ORDER_CAPTURE * p.captures() as i32 + threat_value * p.threats() as i32
            - ORDER_EXPOSED * p.exposed() as i32;
    }
    for p in pairs[me.opponent().index()] {
        s += ORDER_OPP[p.shape() as usize] + ORDER_CAPTURE * p.captures() as i32;
    }
    s
}

/// The best cell by the static ordering score among the legal moves (an
/// immediate win first, then the moves that stop the opponent's immediate
/// wins, as [`SearchGame::tactics`] reads them): the answer when there is
/// no time to search.
pub fn quick_move(pos: &PentePosition) -> Cell {
    let pool = match pos.tactics() {
        Tactics::Win(cell) => return cell,
        Tactics::Forced(defences) if !defences.is_empty() => defences,
        _ => pos.legal_moves(),
    };
    let me = pos.to_move();
    pool.iter().copied().max_by_key(|&c| (order_score(pos, c, me), std::cmp::Reverse(c))).unwrap_or(Cell::CENTRE)
}
