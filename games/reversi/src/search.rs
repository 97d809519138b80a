//! The shared search's hooks for Reversi on every board size: move indices,
//! ordering hints, the time-planning estimates and the exact endgame solver
//! as the search's solver hook; and the cell-level access the solver needs.

use super::endgame::{self, EndgameBoard, MoveLines, PARITY_REGIONS};
use super::geometry::Lines;
use super::last_flip::{SIDE as LAST_FLIP_SIDE, last_flip_count};
use super::params::ReversiParams;
use super::{
    Geometry, MAX_MOVES, Move, Position, Size8, Size12, corner_cells, legal_moves_with, neighbours, stable_discs_of,
};
use crate::eval::Evaluator;
use engine_core::bitboard::{BitSet, Isa, Portable};
use engine_core::game::{Color, Game, MoveList};
use engine_core::search::control::SearchContext;
use engine_core::search::{SearchGame, SearchParams};

/// Ordering weight of one reply left to the opponent (midgame hint).
const HINT_REPLY_WEIGHT: i32 = 16;
/// Cell priorities for move ordering: corners first, cells next to an empty
/// corner last.
const CORNER_PRIORITY: i32 = 40;
const EDGE_PRIORITY: i32 = 6;
const X_SQUARE_PRIORITY: i32 = -30;
const C_SQUARE_PRIORITY: i32 = -10;
/// The last empties solve almost at once: moves there need no time budget.
const QUICK_END_EMPTIES: u32 = 12;

/// Reversi's departures from the default parameters (book: engine/time-plan.md).
/// The overrun to start a game from was measured on duo12 at 300 s a game:
/// moves spent 1.4-1.8x the share the plan gave them (extensions,
/// iterations running on to the hard limit). The end of a game is known
/// from the empties and the solve starts where it fits a move's time, so
/// 1.5 extra moves and one move for the endgame are enough. Wherever
/// Multi-ProbCut is on, a side to move with less than a fifth of the discs
/// is searched in full (book: engine/selectivity.md; journal/selectivity.md,
/// "Wipeouts": a wipeout it missed).
const REVERSI_PARAMS: SearchParams =
    SearchParams { overrun: 1.4, extra_moves: 1.5, endgame_moves: 1.0, ..SearchParams::DEFAULT };

/// Reversi's own parameters on every board but 8x8 (the guard against
/// wipeouts of [`REVERSI_PARAMS`]).
const REVERSI_GAME_PARAMS: ReversiParams = ReversiParams { mpc_min_disc_share: 0.2, ..ReversiParams::DEFAULT };

/// 12x12 boards add Multi-ProbCut with the duo12 fit (`analyze
/// --fit-probcut` at depth 9), proven there by match (book:
/// journal/selectivity.md); the sizes without a fit search full width.
const TWELVE_PARAMS: SearchParams =
    SearchParams { mpc_confidence: 1.5, mpc_sigma: 1.158, mpc_sigma_per_ply: 0.34, ..REVERSI_PARAMS };

/// The cells of the boards [`TWELVE_PARAMS`] is for.
const TWELVE_CELLS: usize = Size12::CELLS;

/// 8x8 adds Multi-ProbCut with its own fit (`analyze --fit-probcut`,
/// book: journal/selectivity.md), proven there by match, and an exact solver that
/// tries the stable-disc ceiling from 4 empties when alpha is 2 discs per
/// empty or more, weighs the two-ply look-ahead less, and from 19 empties
/// orders by a search of the evaluation (1 ply, 3 from 23 empties, 5 from
/// 27) weighted 48 a disc (measured on the FFO suite, book: journal/endgame.md,
/// "The stable-disc ceiling near the end" and "Sorting by a shallow search");
/// a solve with no midgame iteration before it takes its first guess and
/// root order from 10 plies, not 6, and a solve from 25 empties on climbs
/// the whole ladder of selective solves, from 73%, with the evaluation's
/// depth-0 endgame fit (`analyze --fit-endgame 0`) before the exact one
/// (book: journal/endgame.md, "The solve's first guess and the ladder on
/// 8x8", "The ladder from 73%"), its sigma narrowed from the fit's 6.97 discs to 5.5, which
/// solved FFO #47-59 and 40 held-out positions in fewer nodes (book:
/// journal/endgame.md, "A narrower sigma for the selective solves"); nodes two plies deep ask
/// for every child's table bucket while they order (book:
/// journal/search-speed.md, "Every child's bucket at depth 2").
/// Multi-ProbCut's confidence, depth ratio and sigma and five factors of
/// the time plan are SPSA's (`data/spsa/othello8-run.sh`: 280 iterations at
/// 10 s a game, proven by a match at 30 s against the values before;
/// book: journal/tuning-loop.md, "SPSA over Multi-ProbCut and the time plan").
const EIGHT_PARAMS: SearchParams = SearchParams {
    mpc_confidence: 1.095,
    mpc_depth_ratio: 0.562,
    mpc_sigma: 0.667,
    peak_bonus: 0.637,
    start_allowance: 0.912,
    min_use: 0.504,
    unstable_factor: 1.336,
    extra_moves: 1.178,
    mpc_sigma_per_ply: 0.235,
    guess_depth: 10.0,
    solve_first_confidence: 0.0,
    solve_ladder_plies: 25.0,
    prefetch_children_depth: 2.0,
    ..REVERSI_PARAMS
};

/// The 8x8 solver's settings of [`EIGHT_PARAMS`].
const EIGHT_GAME_PARAMS: ReversiParams = ReversiParams {
    endgame_stability_empties: 4.0,
    endgame_stability_alpha_per_empty: 2.0,
    endgame_lookahead_weight: 8.0,
    endgame_sort_empties: 19.0,
    endgame_sort_step: 4.0,
    endgame_eval_disc_weight: 48.0,
    endgame_probcut_empties: 10.0,
    endgame_probcut_depth: 0.0,
    endgame_probcut_scale: 2.2,
    endgame_probcut_sigma: 5.5,
    endgame_probcut_sigma_per_empty: 0.041,
    ..REVERSI_GAME_PARAMS
};

/// The cells of the board [`EIGHT_PARAMS`] is for.
const EIGHT_CELLS: usize = Size8::CELLS;

/// The search defaults of a board of `cells` cells.
const fn reversi_params(cells: usize) -> SearchParams {
    match cells {
        TWELVE_CELLS => TWELVE_PARAMS,
        EIGHT_CELLS => EIGHT_PARAMS,
        _ => REVERSI_PARAMS,
    }
}

/// Reversi's own defaults on a board of `cells` cells.
const fn reversi_game_params(cells: usize) -> ReversiParams {
    match cells {
        EIGHT_CELLS => EIGHT_GAME_PARAMS,
        _ => REVERSI_GAME_PARAMS,
    }
}

/// Distance of `i` from the nearer edge of a line of length `n`.
const fn edge_distance(i: usize, n: usize) -> usize {
    if i < n - 1 - i { i } else { n - 1 - i }
}

/// Static ordering value of `cell` on an `n`x`n` board.
const fn priority(cell: usize, n: usize) -> i32 {
    let (r, c) = (edge_distance(cell / n, n), edge_distance(cell % n, n));
    match (r, c) {
        (0, 0) => CORNER_PRIORITY,
        (1, 1) => X_SQUARE_PRIORITY,
        (0, 1) | (1, 0) => C_SQUARE_PRIORITY,
        (0, _) | (_, 0) => EDGE_PRIORITY,
        _ => 0,
    }
}

/// Widest board side a priority table covers: the widest board's.
const MAX_SIDE: usize = Size12::N;

/// [`priority`] of every cell of every board side up to [`MAX_SIDE`],
/// indexed by side and cell: a load instead of the branches that decide a
/// cell's kind, which a move's ordering would mispredict.
const PRIORITIES: [[i8; MAX_SIDE * MAX_SIDE]; MAX_SIDE + 1] = {
    let mut table = [[0i8; MAX_SIDE * MAX_SIDE]; MAX_SIDE + 1];
    let mut n = 2;
    while n <= MAX_SIDE {
        let mut cell = 0;
        while cell < n * n {
            table[n][cell] = priority(cell, n) as i8;
            cell += 1;
        }
        n += 1;
    }
    table
};

/// [`priority`] of `cell` on `G`'s board, read from [`PRIORITIES`].
#[inline(always)]
fn cell_priority_on<G: Geometry>(cell: usize) -> i32 {
    i32::from(PRIORITIES[G::N][cell])
}

impl<G: Geometry> SearchGame for Position<G> {
    const PARAMS: SearchParams = reversi_params(G::CELLS);
    type Params = ReversiParams;
    const GAME_PARAMS: ReversiParams = reversi_game_params(G::CELLS);
    const SIBLING_PREFETCH: bool = true;

    /// Duo-Othello: a level score goes to the side with more time left,
    /// then to `X` (Black).
    fn tie_break(&self) -> Option<Color> {
        self.scoring().ties_by_time.then_some(Color::Black)
    }

    #[inline(always)]
    fn plainly_over(&self) -> bool {
        self.player().is_empty() || self.opponent().is_empty()
    }

    #[inline(always)]
    fn probcut_safe(&self, params: &ReversiParams) -> bool {
        let (own, theirs) = (self.player().count(), self.opponent().count());
        f64::from(own) >= params.mpc_min_disc_share * f64::from(own + theirs)
    }

    #[inline(always)]
    fn move_index(mv: Move<G>) -> usize {
        mv.cell().unwrap_or(G::CELLS)
    }

    /// The walks along every line from the mover's discs: the moves, and
    /// each move's flips without walking again.
    type Expansion<I: Isa> = Lines<G, I>;

    #[inline(always)]
    fn expand_on<I: Isa>(&self) -> Lines<G, I> {
        Lines::new(self.player(), self.opponent())
    }

    #[inline(always)]
    fn legal_moves_from<I: Isa>(&self, lines: &Lines<G, I>) -> MoveList<Move<G>, MAX_MOVES> {
        self.move_list_from(lines.moves())
    }

    #[inline(always)]
    fn make_from<I: Isa>(&mut self, lines: &Lines<G, I>, mv: Move<G>) -> Position<G> {
        let before = *self;
        *self = self.result_from(lines, mv);
        before
    }

    #[inline(always)]
    fn result_from<I: Isa>(&self, lines: &Lines<G, I>, mv: Move<G>) -> Self {
        match mv.cell() {
            Some(cell) => self.play_flips(cell, lines.flips(cell)),
            None => self.pass(),
        }
    }

    #[inline(always)]
    fn order_hint_from<I: Isa>(&self, lines: &Lines<G, I>, mv: Move<G>) -> i32 {
        match mv.cell() {
            Some(cell) => {
                let child = self.result_from(lines, mv);
                cell_priority_on::<G>(cell)
                    - HINT_REPLY_WEIGHT * legal_moves_with::<G, I>(child.player(), child.opponent()).count() as i32
            }
            None => 0,
        }
    }

    #[inline(always)]
    fn order_hint(&self, mv: Move<G>) -> i32 {
        self.order_hint_from(&self.expand_on::<Portable>(), mv)
    }

    #[inline(always)]
    fn plies_to_end(&self) -> Option<u32> {
        Some(self.empty_count())
    }

    fn own_moves_left(&self) -> f64 {
        (f64::from(self.empty_count().saturating_sub(QUICK_END_EMPTIES)) / 2.0).max(1.0)
    }

    /// The filled share of the board (a position does not know which
    /// variant's start it came from: Othello starts with 4 discs, Duo with 8).
    fn progress(&self) -> f64 {
        1.0 - f64::from(self.empty_count()) / G::CELLS as f64
    }

    fn solve_exact<E: Evaluator<Self>>(
        &self,
        ctx: &mut SearchContext,
        eval: &E,
        params: &ReversiParams,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        Some(endgame::solve_window(ctx, eval, params, self, alpha, beta))
    }
}

impl<G: Geometry, I: Isa> MoveLines<G::Bits> for Lines<G, I> {
    #[inline(always)]
    fn moves(&self) -> G::Bits {
        Lines::moves(self)
    }

    #[inline(always)]
    fn flips(&self, cell: usize) -> G::Bits {
        Lines::flips(self, cell)
    }
}

impl<G: Geometry> EndgameBoard for Position<G> {
    type Cells = G::Bits;

    #[inline(always)]
    fn empty_cells(&self) -> G::Bits {
        self.empty()
    }

    #[inline(always)]
    fn opponent_move_cells(&self) -> G::Bits {
        self.opponent_moves()
    }

    type Lines<I: Isa> = Lines<G, I>;

    #[inline(always)]
    fn lines<I: Isa>(&self) -> Lines<G, I> {
        Lines::new(self.player(), self.opponent())
    }

    #[inline(always)]
    fn after(&self, cell: usize, flips: G::Bits) -> Self {
        self.play_flips(cell, flips)
    }

    #[inline(always)]
    fn passed(&self) -> Self {
        self.pass()
    }

    #[inline(always)]
    fn final_discs(&self) -> i32 {
        self.final_score_for_mover()
    }

    fn parity_regions() -> [G::Bits; PARITY_REGIONS] {
        let half = G::N / 2;
        let mut regions = [G::Bits::EMPTY; PARITY_REGIONS];
        for cell in 0..G::CELLS {
            let (r, c) = (cell / G::N, cell % G::N);
            regions[usize::from(r >= half) * 2 + usize::from(c >= half)] |= G::Bits::bit(cell);
        }
        regions
    }

    #[inline(always)]
    fn cell_priority(cell: usize) -> i32 {
        cell_priority_on::<G>(cell)
    }

    fn score_limit(&self) -> i32 {
        G::CELLS as i32 + i32::from(self.scoring().black_bonus).abs()
    }

    #[inline]
    fn score_ceiling(&self, alpha: i32) -> Option<i32> {
        let limit = self.score_limit();
        // Only worth computing when the opponent has discs enough to cut.
        if limit - 2 * self.opponent().count() as i32 > alpha {
            return None;
        }
        let stable = stable_discs_of::<G>(self.opponent(), self.empty()).count() as i32;
        Some(limit - 2 * stable)
    }

    #[inline(always)]
    fn potential_mobility(&self) -> u32 {
        neighbours::<G>(self.opponent(), self.empty()).count()
    }

    #[inline(always)]
    fn weighted_mobility<I: Isa>(&self) -> u32 {
        let moves = self.lines::<I>().moves();
        moves.count() + (moves & corner_cells::<G>()).count()
    }

    #[inline(always)]
    fn last_move_discs<I: Isa>(&self, cell: usize) -> Option<i32> {
        if G::N != LAST_FLIP_SIDE {
            return endgame::last_move_discs_by_flips::<Self, I>(self, cell);
        }
        debug_assert!(self.empty() == G::Bits::bit(cell));
        let flipped = last_flip_count(self.player().word(0), cell);
        if flipped == 0 {
            return None;
        }
        let mover = self.player().count() + 1 + flipped;
        let other = G::CELLS as u32 - mover;
        let (black, white) = if self.to_move() == Color::Black { (mover, other) } else { (other, mover) };
        Some(self.scoring().score(black, white, 0) * self.to_move().sign())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Size4, Size8};

    #[test]
    fn priorities_follow_the_board_shape() {
        assert_eq!(priority(0, 8), CORNER_PRIORITY);
        assert_eq!(priority(63, 8), CORNER_PRIORITY);
        assert_eq!(priority(9, 8), X_SQUARE_PRIORITY);
        assert_eq!(priority(1, 8), C_SQUARE_PRIORITY);
        assert_eq!(priority(3, 8), EDGE_PRIORITY);
        assert_eq!(priority(27, 8), 0);
        assert_eq!(priority(5, 4), X_SQUARE_PRIORITY);
    }

    /// The table the search reads holds the shape's priority of every cell
    /// of every board.
    fn table_matches<G: Geometry>() {
        for cell in 0..G::CELLS {
            assert_eq!(cell_priority_on::<G>(cell), priority(cell, G::N), "{}x{} cell {cell}", G::N, G::N);
        }
    }

    /// Every board has 4 corners, 4 X-squares, 8 C-squares and 4(n-4)
    /// other edge cells; the rest (the inner cells but the X-squares) have
    /// no priority.
    fn counts_match_the_square_names<G: Geometry>() {
        let n = G::N;
        let count = |p: i32| (0..G::CELLS).filter(|&cell| cell_priority_on::<G>(cell) == p).count();
        let side = format!("{n}x{n}");
        assert_eq!(count(CORNER_PRIORITY), 4, "{side} corners");
        assert_eq!(count(X_SQUARE_PRIORITY), 4, "{side} X-squares");
        assert_eq!(count(C_SQUARE_PRIORITY), 8, "{side} C-squares");
        assert_eq!(count(EDGE_PRIORITY), 4 * (n - 4), "{side} other edge cells");
        assert_eq!(count(0), (n - 2) * (n - 2) - 4, "{side} inner cells");
    }

    /// Both checks above on the board of `G`.
    fn check_priorities<G: Geometry>() {
        table_matches::<G>();
        counts_match_the_square_names::<G>();
    }

    #[test]
    fn the_priority_table_holds_every_board_and_its_named_squares() {
        on_every_size!(check_priorities);
    }

    #[test]
    fn parity_regions_split_the_board() {
        let regions = <Position<Size8> as EndgameBoard>::parity_regions();
        let union = regions.iter().fold(<Size8 as Geometry>::Bits::EMPTY, |a, &r| a | r);
        assert_eq!(union, Size8::ALL);
        assert!(regions.iter().all(|r| r.count() == 16));
        assert!(regions[3].contains(63) && regions[0].contains(0));
        assert!(<Position<Size4> as EndgameBoard>::parity_regions().iter().all(|r| r.count() == 4));
    }
}
