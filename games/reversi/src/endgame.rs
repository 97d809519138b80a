//! The exact endgame solver: the final score with perfect play, for games
//! that implement [`EndgameBoard`].
//!
//! Near the end the solver tries the moves in parity order (cells of
//! regions with an odd number of empties first) without sorting or table,
//! and finishes the last empty cell by counting flips. Higher up it orders
//! the moves fastest-first (fewest replies for the opponent, good cells,
//! the transposition table's move first), searches with null windows
//! (principal-variation search) and stores exact bounds in the
//! transposition table. Scores inside the solver are in the game's own
//! units (discs); the table and the callers see score units.

use super::params::ReversiParams;
use crate::eval::{Evaluator, SCORE_PER_DISC};
use engine_core::bitboard::{BitSet, Isa};
use engine_core::search::control::{Control, SearchContext};
use engine_core::search::tt::{Bound, FULL_CONFIDENCE, TtEntry, solved_depth};
use engine_core::search::{INFINITY, SearchGame};

/// Ordering bonus of the transposition table's move.
const TABLE_MOVE_BONUS: i32 = 1 << 20;
/// Largest number of moves a solver node keeps (more than any board has).
const MAX_NODE_MOVES: usize = 144;
/// [`Setup::confidence`] is in tenths of a standard deviation.
const CONFIDENCE_UNITS: f64 = 10.0;
/// A score bound beyond every real score, in discs.
pub const DISC_INFINITY: i32 = 1000;

/// Number of parity regions a board splits into for the endgame solver.
pub const PARITY_REGIONS: usize = 4;

/// The solver's thresholds and move-ordering weights (the registry's
/// `endgame.*` parameters), in the integer units of its node loop, and the
/// board's parity regions: what every node of one solve reads.
#[derive(Clone, Copy, Debug)]
struct Setup<C> {
    /// At most this many empties: walk the empties in parity order.
    shallow_empties: u32,
    /// At least this many empties: try the stable-disc ceiling.
    stability_empties: u32,
    /// Try it only when alpha is at least this many discs per empty cell.
    stability_alpha_per_empty: i32,
    /// At least this many empties: use the transposition table.
    table_empties: u32,
    /// At least this many empties: look up every child in the table first.
    etc_empties: u32,
    /// Nodes with at least this many empties order with a two-ply look-ahead.
    lookahead_empties: u32,
    /// Nodes with at least this many empties also order by evaluation.
    eval_order_empties: u32,
    /// Nodes with at least this many empties order by a search of the
    /// evaluation...
    sort_empties: u32,
    /// ...this many plies deep there...
    sort_depth: u32,
    /// ...and two plies deeper every this many empties more.
    sort_step: u32,
    /// Weight of one opponent reply in fastest-first ordering.
    reply_weight: i32,
    /// Weight of one empty cell the opponent may later play on.
    potential_weight: i32,
    /// Weight of the mobility kept after the opponent's best reply.
    lookahead_weight: i32,
    /// Ordering weight of one disc of evaluation.
    eval_disc_weight: i32,
    /// Ordering bonus of a move into a region with an odd number of empties.
    parity_bonus: i32,
    /// The confidence of this solve's selective cuts, tenths of a standard
    /// deviation ([`FULL_CONFIDENCE`]: exact, no cuts).
    confidence: u8,
    /// The selective cuts: at least this many empties...
    probcut_empties: u32,
    /// ...predicted by a search of the evaluation this deep, whose score
    /// times this scale...
    probcut_depth: u32,
    /// ...(see `probcut_depth`)...
    probcut_scale: f64,
    /// ...plus this offset (score units) predicts the exact score...
    probcut_offset: f64,
    /// ...with an error of this standard deviation, in score units, at no
    /// empties...
    probcut_sigma: f64,
    /// ...plus this many per empty cell.
    probcut_sigma_per_empty: f64,
    /// The board's parity regions.
    regions: [C; PARITY_REGIONS],
}

impl<C: BitSet> Setup<C> {
    /// The setup of `params` (whole numbers: the registry's values are
    /// rounded) for a board with parity regions `regions`, cutting at
    /// `confidence`.
    fn new(params: &ReversiParams, regions: [C; PARITY_REGIONS], confidence: u8) -> Self {
        let count = |v: f64| v.round() as u32;
        let weight = |v: f64| v.round() as i32;
        Setup {
            shallow_empties: count(params.endgame_shallow_empties),
            stability_empties: count(params.endgame_stability_empties),
            stability_alpha_per_empty: weight(params.endgame_stability_alpha_per_empty),
            table_empties: count(params.endgame_table_empties),
            etc_empties: count(params.endgame_etc_empties),
            lookahead_empties: count(params.endgame_lookahead_empties),
            eval_order_empties: count(params.endgame_eval_order_empties),
            sort_empties: count(params.endgame_sort_empties),
            sort_depth: count(params.endgame_sort_depth),
            sort_step: count(params.endgame_sort_step).max(1),
            reply_weight: weight(params.endgame_reply_weight),
            potential_weight: weight(params.endgame_potential_weight),
            lookahead_weight: weight(params.endgame_lookahead_weight),
            eval_disc_weight: weight(params.endgame_eval_disc_weight),
            parity_bonus: weight(params.endgame_parity_bonus),
            confidence,
            probcut_empties: count(params.endgame_probcut_empties),
            probcut_depth: count(params.endgame_probcut_depth),
            probcut_scale: params.endgame_probcut_scale,
            probcut_offset: params.endgame_probcut_offset * f64::from(SCORE_PER_DISC),
            probcut_sigma: params.endgame_probcut_sigma * f64::from(SCORE_PER_DISC),
            probcut_sigma_per_empty: params.endgame_probcut_sigma_per_empty * f64::from(SCORE_PER_DISC),
            regions,
        }
    }
}

/// One position's moves and the flips of any of its moves, from work done
/// once: what a solver node asks of the position for every move.
pub trait MoveLines<C>: Copy {
    /// The cells the side to move may play on.
    fn moves(&self) -> C;
    /// The discs that playing on the empty `cell` flips (empty: illegal).
    fn flips(&self, cell: usize) -> C;
}

/// Cell-level access for the exact endgame solver of a disc-placing game
/// whose final score is a disc count (Reversi). The
/// [`SearchGame::move_index`] of a placing move must be its cell.
pub trait EndgameBoard: SearchGame + Copy {
    /// A set of cells.
    type Cells: BitSet;

    /// The empty cells.
    fn empty_cells(&self) -> Self::Cells;
    /// The cells the opponent could play on were it its turn.
    fn opponent_move_cells(&self) -> Self::Cells;
    /// The moves of this position and the flips of any move, computed with
    /// instruction set `I`.
    type Lines<I: Isa>: MoveLines<Self::Cells>;
    /// See [`EndgameBoard::Lines`].
    fn lines<I: Isa>(&self) -> Self::Lines<I>;
    /// The state after playing on `cell` with flips `flips`.
    fn after(&self, cell: usize, flips: Self::Cells) -> Self;
    /// The state after the side to move passes.
    fn passed(&self) -> Self;
    /// The final score for the side to move if the game ended now, in the
    /// game's own units (discs).
    fn final_discs(&self) -> i32;
    /// The board split into [`PARITY_REGIONS`] regions (quadrants): moves into
    /// regions with an odd number of empties are tried first near the end.
    fn parity_regions() -> [Self::Cells; PARITY_REGIONS];
    /// A static value of `cell` for move ordering (corners high).
    fn cell_priority(cell: usize) -> i32;
    /// The largest final score, in discs, that either side can reach from
    /// any position of the game (below [`DISC_INFINITY`]): no solve needs
    /// a window wider than it.
    fn score_limit(&self) -> i32;

    /// An upper bound on the final score of the side to move, in discs
    /// (from discs the opponent can never lose). `None` when no bound better
    /// than `alpha` is cheap to find.
    fn score_ceiling(&self, _alpha: i32) -> Option<i32> {
        None
    }

    /// Empty cells next to the opponent's discs: the moves the side to move
    /// may get later (secondary fastest-first key).
    fn potential_mobility(&self) -> u32 {
        0
    }

    /// The mobility of the side to move for fastest-first ordering, moves
    /// to the most valuable cells (corners) counted twice, computed with
    /// instruction set `I`.
    fn weighted_mobility<I: Isa>(&self) -> u32 {
        self.lines::<I>().moves().count()
    }

    /// The final score in discs for the side to move after it plays on
    /// `cell`, the only empty cell, or `None` when it cannot play there,
    /// computed with instruction set `I`.
    #[inline(always)]
    fn last_move_discs<I: Isa>(&self, cell: usize) -> Option<i32> {
        last_move_discs_by_flips::<Self, I>(self, cell)
    }
}

/// [`EndgameBoard::last_move_discs`] from the move's flips: play it and
/// score the end.
#[inline(always)]
pub fn last_move_discs_by_flips<B: EndgameBoard, I: Isa>(pos: &B, cell: usize) -> Option<i32> {
    // No closures here or in the callers below: a closure does not inherit
    // the per-CPU copy's target features, so the 12x12 board's vector
    // operations inside one would be calls, not instructions.
    let flips = pos.lines::<I>().flips(cell);
    if flips.any() { Some(-pos.after(cell, flips).final_discs()) } else { None }
}

/// Solves `pos` within (`alpha`, `beta`) in score units, fail-soft, using
/// `eval` to order moves far from the end and the `endgame.*` settings of
/// `params`. The result is exact when strictly inside the window, a bound
/// otherwise, and meaningless when the context's control stopped the search.
pub fn solve_window<B: EndgameBoard, E: Evaluator<B>>(
    ctx: &mut SearchContext,
    eval: &E,
    params: &ReversiParams,
    pos: &B,
    alpha: i32,
    beta: i32,
) -> i32 {
    // No score lies beyond the limit, so a window reaching past it is
    // narrowed to it (a wipeout then cuts at once instead of being proved
    // unbeatable), and a window wholly beyond it is answered at once.
    let limit = pos.score_limit();
    let alpha = alpha.div_euclid(SCORE_PER_DISC);
    let beta = (beta + SCORE_PER_DISC - 1).div_euclid(SCORE_PER_DISC);
    if alpha >= limit {
        return limit * SCORE_PER_DISC;
    }
    if beta <= -limit {
        return -limit * SCORE_PER_DISC;
    }
    let (alpha, beta) = (alpha.max(-limit), beta.min(limit));
    let setup = Setup::new(params, B::parity_regions(), ctx.solve_confidence);
    let empties = pos.empty_cells();
    let score =
        engine_core::cpu::dispatch!(solve_node::<B, E>(ctx, eval, &setup, pos, alpha, beta, empties, empties.count()));
    score * SCORE_PER_DISC
}

/// The value of `pos` for the side to move by a `depth`-ply alpha-beta
/// search of `eval` (on the per-CPU copy of instruction set `I`), in score
/// units, fail-soft within (`alpha`, `beta`), each node counted: what a
/// selective solve's cuts predict the exact score from (and `analyze
/// --fit-endgame` measures), and what orders the moves far from the end
/// (`endgame.sort_*`).
pub fn shallow_value<B: EndgameBoard, E: Evaluator<B>, I: Isa>(
    control: &mut Control,
    eval: &E,
    pos: &B,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    // A recursive function is not inlined into its caller's copy: without
    // a copy of its own it would run without the CPU's features (every
    // vector operation and PEXT a call).
    engine_core::cpu::run_on!(
        engine_core::bitboard::code_path_of::<I>(),
        shallow_node::<B, E>(control, eval, pos, depth, alpha, beta)
    )
}

engine_core::cpu::multiversion! {
    /// [`shallow_value`] on one instruction set.
    fn shallow_node<B: EndgameBoard, E: Evaluator<B>>(
        control: &mut Control,
        eval: &E,
        pos: &B,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        control.poll();
        if depth == 0 {
            return eval.evaluate_on::<Simd>(pos);
        }
        let lines = pos.lines::<Simd>();
        let moves = lines.moves();
        if moves.is_empty() {
            if pos.opponent_move_cells().is_empty() {
                return pos.final_discs() * SCORE_PER_DISC;
            }
            return -shallow_node::<B, E>(control, eval, &pos.passed(), depth, -beta, -alpha);
        }
        let mut best = i32::MIN + 1;
        for cell in moves.iter() {
            let v = -shallow_node::<B, E>(control, eval, &pos.after(cell, lines.flips(cell)), depth - 1, -beta, -alpha);
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }
}

/// One step of a fail-soft move loop: `v`, the value of the move just
/// searched, raises `best` and, past it, `alpha`. True when `v` reaches
/// `beta` and the loop is cut.
#[inline(always)]
fn raise(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

/// The final score for the mover after the last empty cell `cell` is
/// filled (or left empty when neither side can play there).
#[inline(always)]
fn last_empty<B: EndgameBoard, I: Isa>(pos: &B, cell: usize) -> i32 {
    if let Some(v) = pos.last_move_discs::<I>(cell) {
        v
    } else if let Some(v) = pos.passed().last_move_discs::<I>(cell) {
        -v
    } else {
        pos.final_discs()
    }
}

/// The best value for the mover of `pos` (whose moves and flips `lines`
/// holds) over its moves into `a` and `b`, the only empty cells, each
/// finished by [`last_empty`] (cut at `beta`), or `None` when it can move
/// into neither. Counts each child as a node.
#[inline(always)]
fn best_of_two<B: EndgameBoard, I: Isa>(
    control: &mut Control,
    pos: &B,
    lines: &B::Lines<I>,
    a: usize,
    b: usize,
    beta: i32,
) -> Option<i32> {
    let mut best = None;
    for (cell, other) in [(a, b), (b, a)] {
        let flips = lines.flips(cell);
        if flips.any() {
            control.poll();
            let v = -last_empty::<B, I>(&pos.after(cell, flips), other);
            if best.is_none_or(|best| v > best) {
                best = Some(v);
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The value for the mover of `pos`, whose only empty cells are `a` and
/// `b` (`a` the lower), fail-soft within (`alpha`, `beta`), without the
/// general node's move loop (and without recursion, so it stays inlined in
/// each per-CPU copy of the solver, which computes with instruction set
/// `I`). It visits and counts the nodes the general solver would, in its
/// order: each child, and the position after a pass when the opponent can
/// move.
#[inline(always)]
fn two_empties<B: EndgameBoard, I: Isa>(
    control: &mut Control,
    pos: &B,
    a: usize,
    b: usize,
    alpha: i32,
    beta: i32,
) -> i32 {
    if let Some(v) = best_of_two(control, pos, &pos.lines::<I>(), a, b, beta) {
        return v;
    }
    let passed = pos.passed();
    let lines = passed.lines::<I>();
    if lines.flips(a).is_empty() && lines.flips(b).is_empty() {
        // Neither side can move: the game is over with two cells empty.
        return pos.final_discs();
    }
    control.poll();
    match best_of_two(control, &passed, &lines, a, b, -alpha) {
        Some(v) => -v,
        None => pos.final_discs(),
    }
}

/// The value for the mover of `pos`, whose only empty cells are `empties`
/// (three of them, in parity regions `regions`), fail-soft within
/// (`alpha`, `beta`): the general node's parity-ordered move loop with each
/// child finished by [`two_empties`] in place (no recursion, so it stays
/// inlined in each per-CPU copy of the solver, which computes with
/// instruction set `I`). It visits and counts the nodes the general solver
/// would, in its order.
#[inline(always)]
fn three_empties<B: EndgameBoard, I: Isa>(
    control: &mut Control,
    regions: &[B::Cells; PARITY_REGIONS],
    pos: &B,
    empties: B::Cells,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    let mut lines = pos.lines::<I>();
    let mut moves = lines.moves();
    let mut passed = None;
    if moves.is_empty() {
        if pos.opponent_move_cells().is_empty() {
            return pos.final_discs();
        }
        // The position after the pass is a node of its own.
        control.poll();
        let after_pass = pos.passed();
        lines = after_pass.lines::<I>();
        moves = lines.moves();
        passed = Some(after_pass);
        (alpha, beta) = (-beta, -alpha);
    }
    let mover = passed.as_ref().unwrap_or(pos);
    let odd = odd_regions(regions, empties);
    let mut best = -DISC_INFINITY;
    for cell in parity_order(moves, odd) {
        let rest = empties - B::Cells::bit(cell);
        let a = rest.lowest();
        control.poll();
        let child = mover.after(cell, lines.flips(cell));
        let v = -two_empties::<B, I>(control, &child, a, (rest - B::Cells::bit(a)).lowest(), -beta, -alpha);
        if raise(v, &mut best, &mut alpha, beta) {
            break;
        }
    }
    if passed.is_some() { -best } else { best }
}

/// The weighted mobility the side not to move in `pos` keeps after the
/// reply that leaves it the least (a two-ply fastest-first look-ahead).
#[inline(always)]
fn mobility_after_best_reply<B: EndgameBoard, I: Isa>(pos: &B) -> i32 {
    let mut least = i32::MAX;
    let lines = pos.lines::<I>();
    for cell in lines.moves().iter() {
        let after = pos.after(cell, lines.flips(cell));
        least = least.min(after.weighted_mobility::<I>() as i32);
    }
    if least == i32::MAX { 0 } else { least }
}

/// `moves` in parity order: those into `odd` (regions with an odd number
/// of empties) first, each part in cell order.
#[inline(always)]
fn parity_order<C: BitSet>(moves: C, odd: C) -> impl Iterator<Item = usize> {
    (moves & odd).iter().chain((moves - odd).iter())
}

/// The empties in regions with an odd number of empties.
#[inline(always)]
fn odd_regions<C: BitSet>(regions: &[C; PARITY_REGIONS], empties: C) -> C {
    let mut odd = C::EMPTY;
    for &region in regions {
        let in_region = region & empties;
        if in_region.count() & 1 == 1 {
            odd |= in_region;
        }
    }
    odd
}

engine_core::cpu::multiversion! {
    /// The value of `pos` (with `count` empty cells `empties`) for the side
    /// to move, in discs, fail-soft within (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    fn solve_node<B: EndgameBoard, E: Evaluator<B>>(
        ctx: &mut SearchContext,
        eval: &E,
        setup: &Setup<B::Cells>,
        pos: &B,
        mut alpha: i32,
        beta: i32,
        empties: B::Cells,
        count: u32,
    ) -> i32 {
        if ctx.control.poll() {
            return 0;
        }
        if count == 0 {
            return pos.final_discs();
        }
        if count == 1 {
            return last_empty::<B, Simd>(pos, empties.lowest());
        }
        if count == 2 {
            let a = empties.lowest();
            return two_empties::<B, Simd>(&mut ctx.control, pos, a, (empties - B::Cells::bit(a)).lowest(), alpha, beta);
        }
        if count >= setup.stability_empties
            && alpha >= setup.stability_alpha_per_empty * count as i32
            && let Some(ceiling) = pos.score_ceiling(alpha)
            && ceiling <= alpha
        {
            return ceiling;
        }
        if count == 3 && count <= setup.shallow_empties && count < setup.stability_empties {
            return three_empties::<B, Simd>(&mut ctx.control, &setup.regions, pos, empties, alpha, beta);
        }
        let lines = pos.lines::<Simd>();
        let moves = lines.moves();
        if moves.is_empty() {
            if pos.opponent_move_cells().is_empty() {
                return pos.final_discs();
            }
            return -solve_node::<B, E>(ctx, eval, setup, &pos.passed(), -beta, -alpha, empties, count);
        }
        // Near the end: the moves in parity order, no table, no sorting.
        if count <= setup.shallow_empties {
            let odd = odd_regions(&setup.regions, empties);
            let mut best = -DISC_INFINITY;
            for cell in parity_order(moves, odd) {
                let child = pos.after(cell, lines.flips(cell));
                let v = -solve_node::<B, E>(ctx, eval, setup, &child, -beta, -alpha, empties - B::Cells::bit(cell), count - 1);
                if raise(v, &mut best, &mut alpha, beta) {
                    break;
                }
            }
            return best;
        }

        let use_table = count >= setup.table_empties;
        let key = if use_table { pos.hash() } else { 0 };
        let mut table_move = None;
        if use_table && let Some(entry) = ctx.tt.probe(key) {
            if entry.is_solved_at(setup.confidence) && entry.cuts(alpha * SCORE_PER_DISC, beta * SCORE_PER_DISC) {
                return entry.score / SCORE_PER_DISC;
            }
            if entry.is_solved() {
                table_move = entry.best;
            }
        }
        // Selective solves: ProbCut at null-window nodes far from the end.
        if setup.confidence != FULL_CONFIDENCE && beta - alpha == 1 && count >= setup.probcut_empties {
            // The shallow score at which the prediction lies the margin
            // beyond a bound (score units).
            let sigma = setup.probcut_sigma + setup.probcut_sigma_per_empty * f64::from(count);
            let margin = f64::from(setup.confidence) / CONFIDENCE_UNITS * sigma;
            let shallow_at = |exact: i32, beyond: f64| {
                (f64::from(exact * SCORE_PER_DISC) + beyond - setup.probcut_offset) / setup.probcut_scale
            };
            let high = shallow_at(beta, margin).ceil() as i32;
            if shallow_value::<B, E, Simd>(&mut ctx.control, eval, pos, setup.probcut_depth, high - 1, high) >= high {
                return beta;
            }
            let low = shallow_at(alpha, -margin).floor() as i32;
            if shallow_value::<B, E, Simd>(&mut ctx.control, eval, pos, setup.probcut_depth, low, low + 1) <= low {
                return alpha;
            }
        }

        // Fastest first: few opponent replies, good cells, the table's move.
        let mut cells = [0u8; MAX_NODE_MOVES];
        let mut keys = [0i32; MAX_NODE_MOVES];
        let mut n = 0;
        let odd = odd_regions(&setup.regions, empties);
        let use_etc = count >= setup.etc_empties;
        // Children that probe the table (here, for the enhanced
        // transposition cut-off, or in their own node): their buckets are
        // asked for at once, so the misses overlap each other and the
        // ordering work.
        if count > setup.table_empties {
            for cell in moves.iter() {
                ctx.tt.prefetch(pos.after(cell, lines.flips(cell)).hash());
            }
        }
        for cell in moves.iter() {
            let child = pos.after(cell, lines.flips(cell));
            if use_etc
                && let Some(entry) = ctx.tt.probe(child.hash())
                && entry.is_solved_at(setup.confidence)
                && entry.bound != Bound::Lower
                && -entry.score / SCORE_PER_DISC >= beta
            {
                // Enhanced transposition cut-off: a child already refutes.
                return -entry.score / SCORE_PER_DISC;
            }
            let replies = child.weighted_mobility::<Simd>() as i32;
            let mut order = B::cell_priority(cell) - setup.reply_weight * replies - setup.potential_weight * child.potential_mobility() as i32;
            if count >= setup.lookahead_empties {
                order += setup.lookahead_weight * mobility_after_best_reply::<B, Simd>(&child);
            }
            if count >= setup.eval_order_empties {
                let value = if count >= setup.sort_empties {
                    let depth = setup.sort_depth + 2 * ((count - setup.sort_empties) / setup.sort_step);
                    shallow_value::<B, E, Simd>(&mut ctx.control, eval, &child, depth, -INFINITY, INFINITY)
                } else {
                    eval.evaluate_on::<Simd>(&child)
                };
                order -= setup.eval_disc_weight * value / SCORE_PER_DISC;
            }
            if odd.contains(cell) {
                order += setup.parity_bonus;
            }
            if table_move == Some(cell) {
                order += TABLE_MOVE_BONUS;
            }
            cells[n] = cell as u8;
            keys[n] = order;
            n += 1;
        }

        let alpha_in = alpha;
        let mut best = -DISC_INFINITY;
        let mut best_cell = cells[0] as usize;
        for i in 0..n {
            // Selection sort, one step per move: cut-offs come early.
            let mut top = i;
            for j in i + 1..n {
                if keys[j] > keys[top] {
                    top = j;
                }
            }
            cells.swap(i, top);
            keys.swap(i, top);
            let cell = cells[i] as usize;
            let child = pos.after(cell, lines.flips(cell));
            let rest = empties - B::Cells::bit(cell);
            let v = if i == 0 {
                -solve_node::<B, E>(ctx, eval, setup, &child, -beta, -alpha, rest, count - 1)
            } else {
                let probe = -solve_node::<B, E>(ctx, eval, setup, &child, -alpha - 1, -alpha, rest, count - 1);
                if probe > alpha && probe < beta {
                    -solve_node::<B, E>(ctx, eval, setup, &child, -beta, -probe, rest, count - 1)
                } else {
                    probe
                }
            };
            if ctx.control.stopped() {
                return 0;
            }
            if v > best {
                best_cell = cell;
            }
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        if use_table {
            let bound = Bound::of(best, alpha_in, beta);
            let entry = TtEntry {
                score: best * SCORE_PER_DISC,
                best: Some(best_cell),
                depth: solved_depth(count),
                bound,
                confidence: setup.confidence,
            };
            ctx.tt.store(key, entry);
        }
        best
    }
}
