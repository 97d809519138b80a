//! Stopping a search: node counting, and the node and CPU-time limits
//! checked every [`CHECK_INTERVAL`] nodes.

use super::tt::{FULL_CONFIDENCE, TranspositionTable};
use crate::cputime::CpuClock;
use std::time::Duration;

/// Nodes between two looks at the clock (a clock read is a system call).
pub const CHECK_INTERVAL: u64 = 1024;

/// Node count and hard limits of one search.
#[derive(Clone, Debug)]
pub struct Control {
    /// Nodes visited so far.
    pub nodes: u64,
    next_check: u64,
    interval: u64,
    node_limit: u64,
    /// Reading of `clock` at which the search must stop.
    deadline: Option<Duration>,
    clock: CpuClock,
    stopped: bool,
    /// While false (the first iteration), limits are not enforced.
    armed: bool,
}

impl Default for Control {
    fn default() -> Self {
        Control::new(None, None, CpuClock::Process)
    }
}

impl Control {
    /// A control that stops at `node_limit` nodes or when `clock` reads
    /// `deadline`, whichever comes first.
    pub fn new(node_limit: Option<u64>, deadline: Option<Duration>, clock: CpuClock) -> Self {
        Control {
            nodes: 0,
            next_check: CHECK_INTERVAL,
            interval: CHECK_INTERVAL,
            node_limit: node_limit.unwrap_or(u64::MAX),
            deadline,
            clock,
            stopped: false,
            armed: true,
        }
    }

    /// Enforces the limits from now on (`true`) or not (`false`, for the
    /// first iteration, which must always finish).
    pub fn arm(&mut self, armed: bool) {
        self.armed = armed;
    }

    /// Moves the deadline (a reading of the control's clock).
    pub fn set_deadline(&mut self, deadline: Option<Duration>) {
        self.deadline = deadline;
    }

    /// Reads the clock every `nodes` nodes instead of [`CHECK_INTERVAL`].
    pub fn set_interval(&mut self, nodes: u64) {
        self.interval = nodes.max(1);
        self.next_check = self.nodes + self.interval;
    }

    /// Counts a node; true when the search must stop now.
    #[inline(always)]
    pub fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.stopped
    }

    /// True once a limit was hit.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    #[cold]
    fn check(&mut self) {
        self.next_check = self.nodes + self.interval;
        if !self.armed {
            return;
        }
        if self.nodes >= self.node_limit || self.deadline.is_some_and(|d| self.clock.now() >= d) {
            self.stopped = true;
        }
    }
}

/// What the recursive searches share: the transposition table and the
/// stop control.
pub struct SearchContext {
    /// The transposition table.
    pub tt: TranspositionTable,
    /// The small table of the midgame search's shallow nodes
    /// (`search.small_table_depth`).
    pub small: TranspositionTable,
    /// Node count and limits.
    pub control: Control,
    /// The confidence of the exact solver's selective cuts, in tenths of a
    /// standard deviation ([`FULL_CONFIDENCE`]: none, the solve is exact);
    /// the searcher raises it step by step at the root (see
    /// [`SOLVE_CONFIDENCES`](super::params::SOLVE_CONFIDENCES)).
    pub solve_confidence: u8,
}

impl SearchContext {
    /// A context with a main table of `tt_mb` MiB, a small one of
    /// `small_mb` MiB and a default control.
    pub fn new(tt_mb: usize, small_mb: usize) -> Self {
        SearchContext {
            tt: TranspositionTable::new(tt_mb),
            small: TranspositionTable::new(small_mb),
            control: Control::default(),
            solve_confidence: FULL_CONFIDENCE,
        }
    }

    /// The table of a midgame node: the small one when `small`.
    #[inline(always)]
    pub fn table(&self, small: bool) -> &TranspositionTable {
        if small { &self.small } else { &self.tt }
    }

    /// See [`SearchContext::table`].
    #[inline(always)]
    pub fn table_mut(&mut self, small: bool) -> &mut TranspositionTable {
        if small { &mut self.small } else { &mut self.tt }
    }
}
