//! CPU time of this process (all threads), as the game masters charge it.

use std::time::Duration;

/// CPU time (user + system, all threads) this process has used so far.
pub fn process_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant
    // every POSIX system provides.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Measures CPU time from its creation.
#[derive(Clone, Copy, Debug)]
pub struct CpuTimer {
    start: Duration,
}

impl CpuTimer {
    /// Starts measuring now.
    pub fn start() -> Self {
        CpuTimer { start: process_cpu_time() }
    }

    /// CPU time used since [`CpuTimer::start`].
    pub fn elapsed(&self) -> Duration {
        process_cpu_time().saturating_sub(self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work() {
        let timer = CpuTimer::start();
        let mut x = 1u64;
        while timer.elapsed() < Duration::from_millis(20) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        assert!(x != 0 || timer.elapsed() >= Duration::from_millis(20));
        assert!(process_cpu_time() >= Duration::from_millis(20));
    }
}
