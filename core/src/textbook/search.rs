//! MINIMAX and ALPHA-BETA as in AIMA (Figures 5.3 and 5.7, with the cutoff
//! test of section 5.4), generic over a [`Problem`] that says who MAX is,
//! which nodes are leaves and what they are worth.
//!
//! A node is a MAX node when MAX is to move in its state (so a pass is an
//! ordinary ply that changes the node type). Every node entered counts as one
//! Max-Value or Min-Value call in [`TextbookResult::calls`], leaves included.

use crate::game::{Color, Game};
use std::time::Instant;

/// The value of "Infinity" in traverse logs: the start value of a MIN node and
/// the open end of a window. No leaf may be worth this much.
pub const INFINITY: i32 = i32::MAX;

/// How often (in calls) a search with a deadline looks at the clock.
const CLOCK_CHECK_INTERVAL: u64 = 1024;

/// The moves that led to a node: the last one and the one before it
/// (`None` above the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path<M> {
    /// The move into this node.
    pub last: Option<M>,
    /// The move into its parent.
    pub before_last: Option<M>,
}

impl<M: Copy> Path<M> {
    /// The path of the root.
    pub const ROOT: Self = Path { last: None, before_last: None };

    /// The path of the child reached by `mv`.
    pub const fn then(self, mv: M) -> Self {
        Path { last: Some(mv), before_last: self.last }
    }
}

/// What a search needs besides the rules: the formal model's utility, or a
/// cutoff test with an evaluation.
pub trait Problem<G: Game> {
    /// The MAX player (the one whose values are maximised).
    fn max_player(&self) -> Color;

    /// The cutoff test: true when the node at `depth` (root 0) reached by
    /// `path` is not expanded. By default, exactly the terminal states.
    fn is_leaf(&self, state: &G, depth: u32, path: Path<G::Move>) -> bool {
        let _ = (depth, path);
        state.is_terminal()
    }

    /// The value of a leaf for MAX (the utility, or an evaluation at a cutoff).
    /// Must lie strictly between `-INFINITY` and [`INFINITY`].
    fn value(&self, state: &G) -> i32;

    /// The actions of a node that is not a leaf, in search order (by default
    /// the game's legal moves in their canonical order).
    fn actions(&self, state: &G) -> G::Moves {
        state.legal_moves()
    }
}

/// What an [`Observer`] is told about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// An inner node is entered; the value is its start value (`±INFINITY`).
    Enter,
    /// A leaf is entered; the value is its evaluation.
    Leaf,
    /// An inner node's value after a child returned to it.
    Update,
}

/// The alpha-beta window of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Best value MAX can already force above this node.
    pub alpha: i32,
    /// Best value MIN can already force above this node.
    pub beta: i32,
}

impl Window {
    /// The window of the root: everything open.
    pub const FULL: Window = Window { alpha: -INFINITY, beta: INFINITY };
}

/// One line of a traverse log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visit<M> {
    /// What happened.
    pub step: Step,
    /// The move into the node (`None` for the root).
    pub mv: Option<M>,
    /// Depth of the node, the root being 0.
    pub depth: u32,
    /// The node's current value for MAX.
    pub value: i32,
    /// The node's window (alpha-beta only).
    pub window: Option<Window>,
}

/// Sees every node a search enters and every update of a node's value.
pub trait Observer<M> {
    /// Called for each event, in search order.
    fn visit(&mut self, visit: &Visit<M>);
}

/// The observer that ignores everything.
impl<M> Observer<M> for () {
    #[inline(always)]
    fn visit(&mut self, _visit: &Visit<M>) {}
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextbookResult<M> {
    /// The root's value for MAX.
    pub value: i32,
    /// The first root action that reaches the root's value in search order
    /// (`None` when the root is a leaf).
    pub best: Option<M>,
    /// Max-Value plus Min-Value calls, leaves included.
    pub calls: u64,
    /// False when the deadline stopped the search (value and move are then
    /// meaningless).
    pub complete: bool,
}

/// The state shared by the calls of one search.
struct Run<'a, G: Game, P, O> {
    problem: &'a P,
    observer: &'a mut O,
    max: Color,
    calls: u64,
    deadline: Option<Instant>,
    stopped: bool,
    game: std::marker::PhantomData<G>,
}

impl<'a, G: Game, P: Problem<G>, O: Observer<G::Move>> Run<'a, G, P, O> {
    fn new(problem: &'a P, observer: &'a mut O, deadline: Option<Instant>) -> Self {
        let max = problem.max_player();
        Run { problem, observer, max, calls: 0, deadline, stopped: false, game: std::marker::PhantomData }
    }

    /// Counts a call; true when the search must unwind because time is up.
    #[inline]
    fn count_call(&mut self) -> bool {
        self.calls += 1;
        if self.calls.is_multiple_of(CLOCK_CHECK_INTERVAL)
            && self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn report(&mut self, step: Step, mv: Option<G::Move>, depth: u32, value: i32, window: Option<Window>) {
        self.observer.visit(&Visit { step, mv, depth, value, window });
    }

    /// Max-Value or Min-Value of `state`, depending on who is to move; returns
    /// the value and the first action reaching it.
    fn minimax(&mut self, state: &G, depth: u32, path: Path<G::Move>) -> (i32, Option<G::Move>) {
        if self.count_call() {
            return (0, None);
        }
        if self.problem.is_leaf(state, depth, path) {
            let value = self.problem.value(state);
            self.report(Step::Leaf, path.last, depth, value, None);
            return (value, None);
        }
        let is_max = state.to_move() == self.max;
        let mut v = if is_max { -INFINITY } else { INFINITY };
        let mut best = None;
        self.report(Step::Enter, path.last, depth, v, None);
        for &action in self.problem.actions(state).iter() {
            let (child, _) = self.minimax(&state.result(action), depth + 1, path.then(action));
            if self.stopped {
                return (0, None);
            }
            if (is_max && child > v) || (!is_max && child < v) {
                v = child;
                best = Some(action);
            }
            self.report(Step::Update, path.last, depth, v, None);
        }
        (v, best)
    }

    /// Max-Value or Min-Value with alpha-beta pruning: a MAX node returns as
    /// soon as v >= beta, a MIN node as soon as v <= alpha.
    fn alpha_beta(&mut self, state: &G, depth: u32, path: Path<G::Move>, mut window: Window) -> (i32, Option<G::Move>) {
        if self.count_call() {
            return (0, None);
        }
        if self.problem.is_leaf(state, depth, path) {
            let value = self.problem.value(state);
            self.report(Step::Leaf, path.last, depth, value, Some(window));
            return (value, None);
        }
        let is_max = state.to_move() == self.max;
        let mut v = if is_max { -INFINITY } else { INFINITY };
        let mut best = None;
        self.report(Step::Enter, path.last, depth, v, Some(window));
        for &action in self.problem.actions(state).iter() {
            let (child, _) = self.alpha_beta(&state.result(action), depth + 1, path.then(action), window);
            if self.stopped {
                return (0, None);
            }
            if (is_max && child > v) || (!is_max && child < v) {
                v = child;
                best = Some(action);
            }
            let cut = if is_max { v >= window.beta } else { v <= window.alpha };
            if !cut {
                if is_max {
                    window.alpha = window.alpha.max(v);
                } else {
                    window.beta = window.beta.min(v);
                }
            }
            self.report(Step::Update, path.last, depth, v, Some(window));
            if cut {
                return (v, best);
            }
        }
        (v, best)
    }

    fn outcome(&self, (value, best): (i32, Option<G::Move>)) -> TextbookResult<G::Move> {
        TextbookResult { value, best, calls: self.calls, complete: !self.stopped }
    }
}

/// MINIMAX-DECISION from `root`: the root's value for MAX and the first
/// action reaching it. Stops early (incomplete outcome) at `deadline`.
pub fn minimax<G: Game, P: Problem<G>, O: Observer<G::Move>>(
    problem: &P,
    root: &G,
    observer: &mut O,
    deadline: Option<Instant>,
) -> TextbookResult<G::Move> {
    let mut run = Run::new(problem, observer, deadline);
    let result = run.minimax(root, 0, Path::ROOT);
    run.outcome(result)
}

/// ALPHA-BETA-SEARCH from `root`, with the same result as [`minimax`] in
/// fewer calls. Stops early (incomplete outcome) at `deadline`.
pub fn alpha_beta<G: Game, P: Problem<G>, O: Observer<G::Move>>(
    problem: &P,
    root: &G,
    observer: &mut O,
    deadline: Option<Instant>,
) -> TextbookResult<G::Move> {
    let mut run = Run::new(problem, observer, deadline);
    let result = run.alpha_beta(root, 0, Path::ROOT, Window::FULL);
    run.outcome(result)
}
