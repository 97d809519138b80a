//! The Pente search: iterative deepening PVS with a transposition table,
//! forced replies to immediate threats (searched without using up depth),
//! threat-ordered and width-limited candidate moves, and a VCF probe at the
//! root. It sees the rules through [`Game`] and [`Position`]'s read-only line
//! information, and the evaluation through [`Evaluator`].

use super::board::{BOARD_CELLS, Cell, Moves, Position};
use super::pattern::patterns;
use super::threats::{self, CAPTURE_WIN_THRESHOLD, Vcf};
use crate::cputime::CpuTimer;
use crate::eval::Evaluator;
use crate::game::{Color, Game, MoveList};
use std::time::Duration;

/// Score of a won position (minus the plies to the win).
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
const WIN_BOUND: i32 = WIN - 1_000;
/// Deepest ply the search reaches (forced replies extend the depth).
const MAX_PLY: usize = 64;
/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 2048;
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
/// The root VCF probe gets at most this fraction of the soft budget.
const VCF_SHARE: u32 = 4;
/// Forcing moves a VCF line may hold.
pub const VCF_DEPTH: u32 = 12;

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Stop deepening once this much CPU time is used (checked between iterations).
    pub soft: Duration,
    /// Abort the search once this much CPU time is used.
    pub hard: Duration,
    /// Deepest iteration.
    pub max_depth: u32,
    /// Moves made by the root VCF probe at most.
    pub vcf_nodes: u64,
}

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// The move to play.
    pub mv: Cell,
    /// Its score for the side to move.
    pub score: i32,
    /// Last completed depth (0 when decided without searching).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// A scored move list (ordering score, cell).
type Scored = MoveList<(i32, Cell), BOARD_CELLS>;

/// What one pass over the candidate cells tells a node.
struct Scan {
    /// A cell where the side to move wins at once.
    win: Option<Cell>,
    /// Cells where the opponent wins at once.
    threats: Moves,
    /// Candidate moves with ordering scores.
    moves: Scored,
}

/// Per-game search state: transposition table, history and counters.
pub struct Searcher<E: Evaluator<Position>> {
    eval: E,
    tt: Vec<TtEntry>,
    history: Vec<i32>,
    nodes: u64,
    timer: CpuTimer,
    hard: Duration,
    stopped: bool,
}

impl<E: Evaluator<Position>> Searcher<E> {
    /// A searcher with a transposition table of about `tt_mb` MiB.
    pub fn new(eval: E, tt_mb: usize) -> Self {
        let entries = ((tt_mb.max(1) << 20) / std::mem::size_of::<TtEntry>()).next_power_of_two() / 2;
        Searcher {
            eval,
            tt: vec![TtEntry::default(); entries.max(1024)],
            history: vec![0; 2 * 1024],
            nodes: 0,
            timer: CpuTimer::start(),
            hard: Duration::MAX,
            stopped: false,
        }
    }

    /// Forgets everything learnt in earlier games.
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    fn scan(&self, pos: &Position) -> Scan {
        let me = pos.to_move();
        let mut scan = Scan { win: None, threats: Moves::default(), moves: Scored::default() };
        let opening = pos.is_first_white_stone() || pos.is_second_white_stone();
        let cells = if opening { pos.legal_moves() } else { pos.candidates().collect() };
        for &cell in cells.iter() {
            if scan.win.is_none() && threats::wins_at(pos, cell, me) {
                scan.win = Some(cell);
            }
            if threats::wins_at(pos, cell, me.opponent()) {
                scan.threats.push(cell);
            }
            let h = self.history[me.index() * 1024 + cell.index()];
            scan.moves.push((order_score(pos, cell, me) + h, cell));
        }
        scan
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) && self.timer.elapsed() >= self.hard {
            self.stopped = true;
        }
        self.stopped
    }

    /// Chooses a move for the side to move in `pos` (not finished) within `limits`.
    pub fn choose(&mut self, pos: &Position, limits: Limits) -> Outcome {
        self.timer = CpuTimer::start();
        self.hard = limits.hard;
        self.stopped = false;
        self.nodes = 0;
        let mut pos = pos.clone();
        let scan = self.scan(&pos);
        let decided = |mv, score| Outcome { mv, score, depth: 0, nodes: 0 };
        if let Some(win) = scan.win {
            return decided(win, WIN - 1);
        }
        let mut root: Scored = if scan.threats.is_empty() {
            scan.moves
        } else {
            let allowed = threats::defences(&pos, &scan.threats);
            scan.moves.iter().copied().filter(|(_, c)| allowed.contains(c)).collect()
        };
        if root.is_empty() {
            // Lost whatever we do: still play a legal move.
            return decided(scan.moves.first().map_or(scan.threats[0], |m| m.1), -WIN + 2);
        }
        root.as_mut_slice().sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        if root.len() == 1 || limits.max_depth == 0 {
            return decided(root[0].1, 0);
        }
        if scan.threats.is_empty() && limits.vcf_nodes > 0 {
            let mut vcf = Vcf::new(limits.vcf_nodes, limits.soft / VCF_SHARE);
            if let Some(mv) = vcf.find(&mut pos, VCF_DEPTH) {
                return Outcome { mv, score: WIN - 2, depth: 0, nodes: vcf.nodes() };
            }
            self.nodes += vcf.nodes();
        }
        let mut best = Outcome { mv: root[0].1, score: 0, depth: 0, nodes: 0 };
        for depth in 1..=limits.max_depth {
            let (mv, score, complete) = self.root_search(&mut pos, &mut root, depth as i32);
            if complete || mv != best.mv {
                // A move that beat the previous best in a partial iteration
                // was searched fully; keep it.
                best.mv = mv;
                best.score = score;
            }
            if !complete {
                break;
            }
            best.depth = depth;
            if score.abs() >= WIN_BOUND || self.timer.elapsed() * 2 >= limits.soft {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// One root iteration; returns the best move, its score and whether the
    /// iteration completed. Moves the best move to the front.
    fn root_search(&mut self, pos: &mut Position, root: &mut Scored, depth: i32) -> (Cell, i32, bool) {
        let mut alpha = -WIN;
        let beta = WIN;
        let mut best = (root[0].1, -WIN);
        for i in 0..root.len() {
            let mv = root[i].1;
            let undo = pos.make(mv);
            let score = if i == 0 {
                -self.search(pos, depth - 1, -beta, -alpha, 1)
            } else {
                let mut s = -self.search(pos, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && !self.stopped {
                    s = -self.search(pos, depth - 1, -beta, -alpha, 1);
                }
                s
            };
            pos.unmake(mv, undo);
            if self.stopped {
                return (best.0, best.1, false);
            }
            if score > best.1 {
                best = (mv, score);
                alpha = alpha.max(score);
                let item = root[i];
                root.as_mut_slice().copy_within(0..i, 1);
                root.as_mut_slice()[0] = item;
            }
        }
        (best.0, best.1, true)
    }

    fn search(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if pos.winner().is_some() {
            return -(WIN - ply as i32);
        }
        if pos.is_terminal() {
            return 0;
        }
        if self.out_of_time() {
            return 0;
        }
        let me = pos.to_move();
        let scan = self.scan(pos);
        if scan.win.is_some() {
            return WIN - ply as i32 - 1;
        }
        let forced = !scan.threats.is_empty();
        if ply >= MAX_PLY || (depth <= 0 && !forced) {
            return self.eval.evaluate(pos);
        }
        let key = pos.hash();
        let entry = self.tt[self.tt_index(key)];
        let mut tt_move = None;
        if entry.key == key {
            tt_move = Some(Cell::from_index(entry.mv as usize));
            if entry.depth as i32 >= depth {
                let s = from_tt(entry.score, ply);
                if entry.bound == EXACT || (entry.bound == LOWER && s >= beta) || (entry.bound == UPPER && s <= alpha) {
                    return s;
                }
            }
        }
        let mut moves: Scored = if forced {
            let allowed = threats::defences(pos, &scan.threats);
            if allowed.is_empty() {
                return -(WIN - ply as i32 - 2);
            }
            scan.moves.iter().copied().filter(|(_, c)| allowed.contains(c)).collect()
        } else {
            scan.moves
        };
        if let Some(t) = tt_move {
            for m in moves.as_mut_slice() {
                if m.1 == t {
                    m.0 = i32::MAX;
                }
            }
        }
        moves.as_mut_slice().sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
        let width = if forced { moves.len() } else { WIDTH[(depth as usize).min(WIDTH.len() - 1)].min(moves.len()) };
        let next_depth = if forced { depth } else { depth - 1 };
        let alpha_start = alpha;
        let mut best = (-WIN, moves[0].1);
        for (i, &(_, mv)) in moves[..width].iter().enumerate() {
            let undo = pos.make(mv);
            let score = if i == 0 {
                -self.search(pos, next_depth, -beta, -alpha, ply + 1)
            } else {
                let mut s = -self.search(pos, next_depth, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(pos, next_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            pos.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best.0 {
                best = (score, mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.history[me.index() * 1024 + mv.index()] += depth * depth;
                        break;
                    }
                }
            }
        }
        let bound = if best.0 >= beta {
            LOWER
        } else if best.0 > alpha_start {
            EXACT
        } else {
            UPPER
        };
        let idx = self.tt_index(key);
        self.tt[idx] = TtEntry { key, score: to_tt(best.0, ply), mv: best.1.index() as u16, depth: depth as i8, bound };
        best.0
    }
}

/// A score for the table: wins counted from this node rather than the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Ordering score of `cell` for `me`: what `me` makes there and what it
/// takes from the opponent (also the static choice when there is no time).
pub fn order_score(pos: &Position, cell: Cell, me: Color) -> i32 {
    let threat_value =
        if pos.captured(me) + 2 >= CAPTURE_WIN_THRESHOLD { ORDER_THREAT * ORDER_THREAT_NEAR_WIN } else { ORDER_THREAT };
    let mut s = 0;
    for p in patterns(pos, cell, me) {
        s += ORDER_OWN[p.shape() as usize] + ORDER_CAPTURE * p.captures() as i32 + threat_value * p.threats() as i32
            - ORDER_EXPOSED * p.exposed() as i32;
    }
    for p in patterns(pos, cell, me.opponent()) {
        s += ORDER_OPP[p.shape() as usize] + ORDER_CAPTURE * p.captures() as i32;
    }
    s
}

/// The best cell by the static ordering score among the legal moves (an
/// immediate win first, then the moves that stop the opponent's immediate
/// wins): the answer when there is no time to search.
pub fn quick_move(pos: &Position) -> Cell {
    let me = pos.to_move();
    let legal = pos.legal_moves();
    if let Some(&w) = legal.iter().find(|&&c| threats::wins_at(pos, c, me)) {
        return w;
    }
    let threats: Moves = legal.iter().copied().filter(|&c| threats::wins_at(pos, c, me.opponent())).collect();
    let allowed = if threats.is_empty() { legal } else { threats::defences(pos, &threats) };
    let pool = if allowed.is_empty() { legal } else { allowed };
    pool.iter().copied().max_by_key(|&c| (order_score(pos, c, me), std::cmp::Reverse(c))).unwrap_or(Cell::CENTRE)
}
