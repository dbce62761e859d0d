//! What the load tools (`kingme-load`, `kingme-floor`, `kingme-hostile`) read about a process
//! and the machine: a process's CPU time (user and system apart) and resident memory from
//! `/proc`, the load average from `/proc/loadavg`, and percentiles of measured latencies.
//! Every reader answers `None` when the file cannot be read or parsed (the process is gone, or
//! this is not Linux): the figures are reports, not checks.

use std::time::{Duration, Instant};

/// The CPU time a process has used, kernel and user apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTime {
    /// Time in user mode.
    pub user: Duration,
    /// Time in the kernel.
    pub system: Duration,
}

impl CpuTime {
    /// User and system time together.
    #[must_use]
    pub fn total(self) -> Duration {
        self.user + self.system
    }

    /// The time used since `earlier` (zero, not a panic, if the counters went backwards).
    #[must_use]
    pub fn since(self, earlier: CpuTime) -> CpuTime {
        CpuTime {
            user: self.user.saturating_sub(earlier.user),
            system: self.system.saturating_sub(earlier.system),
        }
    }
}

impl std::iter::Sum for CpuTime {
    fn sum<I: Iterator<Item = CpuTime>>(iter: I) -> CpuTime {
        iter.fold(CpuTime::default(), |sum, time| CpuTime {
            user: sum.user + time.user,
            system: sum.system + time.system,
        })
    }
}

/// The CPU time process `pid` has used (its `utime` and `stime` in `/proc/PID/stat`).
#[must_use]
pub fn cpu_time(pid: u32) -> Option<CpuTime> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_cpu_time(&stat)
}

/// `utime` and `stime` of a `/proc/PID/stat` line.
fn parse_cpu_time(stat: &str) -> Option<CpuTime> {
    // Fields after the command name (which may hold spaces and parentheses) start after the
    // last ')'; `utime` and `stime` are the 14th and 15th fields, the 12th and 13th after it.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |index: usize| fields.get(index)?.parse::<u64>().ok();
    // Linux reports in clock ticks of 1/100 s on every common configuration (`getconf
    // CLK_TCK`), so a figure is good to 10 ms.
    let time = |ticks: u64| Duration::from_millis(ticks * 10);
    Some(CpuTime {
        user: time(ticks(11)?),
        system: time(ticks(12)?),
    })
}

/// The resident memory of process `pid` in KiB (`VmRSS` in `/proc/PID/status`).
#[must_use]
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The machine's load average over 1, 5 and 15 minutes, as `uptime` prints it ("0.52, 1.10,
/// 1.37").
#[must_use]
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let averages: Vec<&str> = text.split_whitespace().take(3).collect();
    (averages.len() == 3).then(|| averages.join(", "))
}

/// The value at `fraction` (0.5 for the median, 1.0 for the largest) of `sorted`, which is
/// sorted ascending; zero for no values.
#[must_use]
pub fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() - 1) as f64 * fraction).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

/// The latencies of the moves sent at `from` or later, sorted, from `relayed`: when each move
/// was sent and its latency. From a run's start, every move; from a later moment, the play
/// without its start.
#[must_use]
pub fn sorted_latencies_from(relayed: &[(Instant, Duration)], from: Instant) -> Vec<Duration> {
    let mut chosen: Vec<Duration> = relayed
        .iter()
        .filter(|&&(sent, _)| sent >= from)
        .map(|&(_, latency)| latency)
        .collect();
    chosen.sort();
    chosen
}

/// The line the load tools print about their own clients' CPU, `players` over a run of `moves`
/// moves in `elapsed`: their time, a move's share, and the share of the machine's cores that
/// the serving process (`serving`, named `serving_name`: "relay", "server") and the players
/// used together (under 100% when other work ran beside).
#[must_use]
pub fn players_line(
    players: CpuTime,
    serving: CpuTime,
    serving_name: &str,
    moves: u64,
    elapsed: Duration,
) -> String {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let share =
        (serving.total() + players.total()).as_secs_f64() / (cores as f64 * elapsed.as_secs_f64());
    format!(
        "players' CPU (this process, on the same cores): {:.2} s: {:.1} us per move; \
         {serving_name} and players used {:.0}% of the {cores} cores' time",
        players.total().as_secs_f64(),
        players.total().as_secs_f64() * 1e6 / moves.max(1) as f64,
        share * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_line_gives_a_move_s_share_and_the_machine_s() {
        let seconds = |s: u64| CpuTime {
            user: Duration::from_secs(s),
            system: Duration::ZERO,
        };
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let line = players_line(
            seconds(2),
            seconds(4),
            "server",
            20_000,
            Duration::from_secs(3),
        );
        assert!(
            line.starts_with("players' CPU (this process, on the same cores): 2.00 s: 100.0 us per move; server and players used"),
            "{line}"
        );
        // 6 s of CPU over 3 s on every core.
        let share = 200 / cores;
        assert!(
            line.ends_with(&format!("used {share}% of the {cores} cores' time")),
            "{line}"
        );
    }

    #[test]
    fn cpu_time_reads_utime_and_stime_after_an_odd_command_name() {
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 500 0 0 0 123 45 0 0 20 0 3 0";
        assert_eq!(
            parse_cpu_time(stat),
            Some(CpuTime {
                user: Duration::from_millis(1230),
                system: Duration::from_millis(450),
            })
        );
        assert_eq!(parse_cpu_time("4242 (cut short) S 1"), None);
    }

    #[test]
    fn this_process_has_a_cpu_time_and_the_machine_a_load_average() {
        assert!(cpu_time(std::process::id()).is_some());
        assert!(rss_kib(std::process::id()).is_some_and(|kib| kib > 0));
        assert!(load_average().is_some_and(|text| text.split(", ").count() == 3));
    }

    #[test]
    fn percentiles_pick_from_the_sorted_values() {
        let sorted: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&sorted, 0.5), Duration::from_millis(51));
        assert_eq!(percentile(&sorted, 1.0), Duration::from_millis(100));
        assert_eq!(percentile(&[], 0.99), Duration::ZERO);
    }

    #[test]
    fn latencies_from_a_moment_leave_out_the_moves_sent_before() {
        let start = Instant::now();
        let relayed: Vec<(Instant, Duration)> = [900, 30, 20, 10]
            .into_iter()
            .zip(0..)
            .map(|(ms, i)| (start + Duration::from_secs(i), Duration::from_millis(ms)))
            .collect();
        assert_eq!(
            sorted_latencies_from(&relayed, start),
            [10, 20, 30, 900].map(Duration::from_millis)
        );
        assert_eq!(
            sorted_latencies_from(&relayed, start + Duration::from_secs(1)),
            [10, 20, 30].map(Duration::from_millis)
        );
        assert!(sorted_latencies_from(&relayed, start + Duration::from_secs(9)).is_empty());
    }
}
