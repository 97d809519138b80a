//! CPU clocks: what a game master charges a player, chosen by whoever runs
//! the engine.
//!
//! A competition program is charged the CPU time of its whole process
//! ([`CpuClock::Process`]); an in-process player of `selfplay` is charged
//! the CPU time of the thread it plays on ([`CpuClock::Thread`]), so games
//! played side by side do not eat each other's budgets; tests use a
//! [`CpuClock::Simulated`] clock that advances by a fixed step at every
//! reading, which makes timed searches reproducible.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// CPU time (user + system) of `clock_id` so far; zero if unreadable.
fn read_clock(clock_id: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock ids used are
    // constants every POSIX system with threads provides.
    let rc = unsafe { libc::clock_gettime(clock_id, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// CPU time (user + system, all threads) this process has used so far.
pub fn process_cpu_time() -> Duration {
    read_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time (user + system) the calling thread has used so far.
pub fn thread_cpu_time() -> Duration {
    read_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// A clock that advances by a fixed step each time it is read (tests: a
/// search's "time" is then a function of its work alone).
#[derive(Debug)]
pub struct SimulatedClock {
    nanos: AtomicU64,
    step_nanos: u64,
}

impl SimulatedClock {
    /// A clock at zero that advances `step` per reading.
    pub fn new(step: Duration) -> Self {
        SimulatedClock { nanos: AtomicU64::new(0), step_nanos: step.as_nanos() as u64 }
    }

    /// Moves the clock forward by `by` without a reading.
    pub fn advance(&self, by: Duration) {
        self.nanos.fetch_add(by.as_nanos() as u64, Ordering::Relaxed);
    }

    fn read(&self) -> Duration {
        Duration::from_nanos(self.nanos.fetch_add(self.step_nanos, Ordering::Relaxed) + self.step_nanos)
    }
}

/// The CPU clock a search measures its time on.
#[derive(Clone, Debug, Default)]
pub enum CpuClock {
    /// The whole process's CPU time (what the handouts' game master charges).
    #[default]
    Process,
    /// The calling thread's CPU time (what `selfplay` charges an in-process
    /// player).
    Thread,
    /// A simulated clock shared by its holders.
    Simulated(Arc<SimulatedClock>),
}

impl PartialEq for CpuClock {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CpuClock::Process, CpuClock::Process) | (CpuClock::Thread, CpuClock::Thread) => true,
            (CpuClock::Simulated(a), CpuClock::Simulated(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl CpuClock {
    /// A simulated clock advancing `step` per reading.
    pub fn simulated(step: Duration) -> Self {
        CpuClock::Simulated(Arc::new(SimulatedClock::new(step)))
    }

    /// The clock's current reading.
    pub fn now(&self) -> Duration {
        match self {
            CpuClock::Process => process_cpu_time(),
            CpuClock::Thread => thread_cpu_time(),
            CpuClock::Simulated(c) => c.read(),
        }
    }

    /// A timer on this clock, started now.
    pub fn timer(&self) -> CpuTimer {
        CpuTimer { start: self.now(), clock: self.clone() }
    }
}

/// Measures CPU time on one clock from its creation.
#[derive(Clone, Debug)]
pub struct CpuTimer {
    start: Duration,
    clock: CpuClock,
}

impl CpuTimer {
    /// Starts measuring the process's CPU time now.
    pub fn start() -> Self {
        CpuClock::Process.timer()
    }

    /// CPU time used since the timer started.
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Burns CPU on the calling thread until `clock` shows `d` more.
    fn spin(clock: &CpuClock, d: Duration) -> u64 {
        let timer = clock.timer();
        let mut x = 1u64;
        while timer.elapsed() < d {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        x
    }

    #[test]
    fn the_process_clock_counts_every_thread_and_the_thread_clock_only_its_own() {
        let (process, thread) = (process_cpu_time(), thread_cpu_time());
        let other = std::thread::spawn(|| spin(&CpuClock::Thread, Duration::from_millis(60)));
        other.join().unwrap();
        assert!(thread_cpu_time() - thread < Duration::from_millis(30), "other threads' work was charged here");
        assert!(process_cpu_time() - process >= Duration::from_millis(60), "the process clock missed a thread");
    }

    #[test]
    fn a_simulated_clock_advances_by_its_step_per_reading() {
        let clock = CpuClock::simulated(Duration::from_millis(2));
        let timer = clock.timer();
        assert_eq!(timer.elapsed(), Duration::from_millis(2));
        assert_eq!(timer.elapsed(), Duration::from_millis(4));
        if let CpuClock::Simulated(c) = &clock {
            c.advance(Duration::from_secs(1));
        }
        assert_eq!(timer.elapsed(), Duration::from_millis(1006));
        assert_ne!(clock, CpuClock::simulated(Duration::from_millis(2)));
        assert_eq!(clock, clock.clone());
    }
}
