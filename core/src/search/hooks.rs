//! What the search needs to know about a game beyond [`Game`]: cheap move
//! ordering hints, move indices for tables, a time-planning estimate, the
//! tactical check of a node and an exact solver for positions near the end.
//!
//! Each game implements them beside its rules: Reversi with an exact
//! endgame solver and no tactics, Pente with tactics and no solver.

use super::control::SearchContext;
use super::params::{ParamRegistry, SearchParams};
use crate::bitboard::Isa;
use crate::cputime::CpuClock;
use crate::eval::Evaluator;
use crate::game::{Color, Game};
use std::time::Duration;

/// Move indices are below this bound (history and transposition tables).
pub const MOVE_SLOTS: usize = 1024;

/// What a game's tactical check says about a search node, before any move
/// is searched.
pub enum Tactics<G: Game> {
    /// Nothing the search must treat specially.
    Quiet,
    /// The game is over: the node's value is the final score.
    Over,
    /// The side to move wins at once with this move.
    Win(G::Move),
    /// The opponent wins at once unless the side to move plays one of these
    /// moves (none: the node is lost). They are searched without using up
    /// depth, like check evasions in chess.
    Forced(G::Moves),
}

/// A game the strong search can play.
pub trait SearchGame: Game {
    /// A small index of `mv`, below [`MOVE_SLOTS`], distinct for distinct moves
    /// of one game (a cell number; the pass gets its own index).
    fn move_index(mv: Self::Move) -> usize;

    /// A cheap static ordering score for `mv` in this state: higher is tried
    /// first. Reversi: corners up, moves that leave the opponent few replies up.
    fn order_hint(&self, mv: Self::Move) -> i32;

    /// What a search node works out once about its state and reuses for
    /// every move it tries (Reversi: the walks along every line from the
    /// mover's discs, from which the moves and each move's flips follow),
    /// computed with instruction set `I` (the search's per-CPU copies).
    /// Games with nothing to share use `()`.
    type Expansion<I: Isa>: Copy;

    /// This state's [`SearchGame::Expansion`].
    fn expand_on<I: Isa>(&self) -> Self::Expansion<I>;

    /// [`Game::legal_moves`] from this state's `expansion`.
    #[inline(always)]
    fn legal_moves_from<I: Isa>(&self, _expansion: &Self::Expansion<I>) -> Self::Moves {
        self.legal_moves()
    }

    /// [`Game::make`] from this state's `expansion`.
    #[inline(always)]
    fn make_from<I: Isa>(&mut self, _expansion: &Self::Expansion<I>, mv: Self::Move) -> Self::Undo {
        self.make(mv)
    }

    /// [`Game::result`] from this state's `expansion`.
    #[inline(always)]
    fn result_from<I: Isa>(&self, _expansion: &Self::Expansion<I>, mv: Self::Move) -> Self {
        self.result(mv)
    }

    /// [`SearchGame::order_hint`] from this state's `expansion`.
    #[inline(always)]
    fn order_hint_from<I: Isa>(&self, _expansion: &Self::Expansion<I>, mv: Self::Move) -> i32 {
        self.order_hint(mv)
    }

    /// Nodes at least this many plies above the horizon order their moves
    /// by [`SearchGame::order_hint`]; lower nodes by the table move and
    /// history alone (hints that cost more than they save near the leaves).
    const HINT_DEPTH: u32 = 4;

    /// True when a finished game is a win, draw or loss (Pente) rather than
    /// a margin (Reversi's discs): the search then scores a win by how soon
    /// it comes (see [`super::won_in`]).
    const WIN_LOSS: bool = false;

    /// True when [`SearchGame::tactics`] always answers
    /// [`Tactics::Quiet`]: the search then evaluates the children of nodes
    /// one ply above the horizon in place instead of calling itself. A game
    /// that overrides `tactics` sets it false.
    const QUIET: bool = true;

    /// True when [`Game::result`] and [`Game::hash`] together cost less
    /// than a table miss: the search then prefetches the next sibling's
    /// table bucket while it searches the current child.
    const SIBLING_PREFETCH: bool = false;

    /// When a level final score goes to the side with more time left (the
    /// Duo-Othello rule), the side it goes to on equal time; `None` when a
    /// level score is a draw.
    fn tie_break(&self) -> Option<Color> {
        None
    }

    /// The search and time parameters this game plays with unless told
    /// otherwise (the registry's defaults unless the game's plan differs).
    const PARAMS: SearchParams = SearchParams::DEFAULT;

    /// The game's own registered parameters (its solver's settings, say;
    /// [`super::params::NoParams`] when it has none), set by name like the
    /// core's.
    type Params: ParamRegistry;

    /// The values of [`SearchGame::Params`] this game plays with unless
    /// told otherwise.
    const GAME_PARAMS: Self::Params = <Self::Params as ParamRegistry>::DEFAULT;

    /// Moves searched at a node with `depth` plies left that is not forced,
    /// best-ordered first: all of them unless the game prunes the tail.
    fn search_width(_depth: u32) -> usize {
        usize::MAX
    }

    /// The game's tactical reading of this state, checked at every node
    /// before the horizon: immediate wins, threats that must be answered.
    /// Games without tactics leave it quiet.
    fn tactics(&self) -> Tactics<Self> {
        Tactics::Quiet
    }

    /// A first move of a forced win found by the game's own threat search
    /// from this (quiet) root, within `budget` CPU time on `clock` (`None`:
    /// the game's fixed node limit alone), and the moves that search made.
    /// Games without one find nothing.
    fn forced_win(&mut self, _budget: Option<Duration>, _clock: &CpuClock) -> (Option<Self::Move>, u64) {
        (None, 0)
    }

    /// True when the game is over and telling costs next to nothing
    /// (Reversi: a side has no discs left). The search asks at the horizon,
    /// where it would otherwise evaluate a finished game as a live one (a
    /// wipeout the evaluation does not see). Games without such a test
    /// answer false.
    #[inline(always)]
    fn plainly_over(&self) -> bool {
        false
    }

    /// True when a shallow search may stand in for a deep one at this node
    /// under the game's `params` (Multi-ProbCut). Reversi: unless the side
    /// to move holds less than `mpc.min_disc_share` of the discs. Games
    /// without such a rule allow it everywhere.
    #[inline(always)]
    fn probcut_safe(&self, _params: &Self::Params) -> bool {
        true
    }

    /// An upper bound on the plies left to the end of the game when known
    /// (Reversi: the empty cells), so that searches this deep are exact.
    fn plies_to_end(&self) -> Option<u32> {
        None
    }

    /// The expected number of moves the side to move still has to make in
    /// this game (time planning).
    fn own_moves_left(&self) -> f64;

    /// The game's stage from about 0 (start) to 1 (end), for spending more time in
    /// the middle game.
    fn progress(&self) -> f64;

    /// Solves this state exactly within the window (`alpha`, `beta`) in score
    /// units, when the game has an exact solver and [`SearchGame::plies_to_end`]
    /// is known; `eval` may guide its move ordering and `params` holds the
    /// solver's settings. Fail-soft. `None` when the game has no solver.
    fn solve_exact<E: Evaluator<Self>>(
        &self,
        _ctx: &mut SearchContext,
        _eval: &E,
        _params: &Self::Params,
        _alpha: i32,
        _beta: i32,
    ) -> Option<i32> {
        None
    }
}
