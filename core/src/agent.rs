//! Players: anything that picks a move for a [`Game`] state under a clock.
//!
//! The match runner, the competition programs and the interactive game all
//! drive players through [`Agent`], so the strong engine, the reference
//! agents and (in `selfplay`) external programs meet in one match loop.
//! The file-protocol programs of every game share the file names, the
//! number format and the small helpers here.

use crate::game::Game;
use crate::mix::SplitMix;
use crate::playout::random_move;

/// The game master's input file, which a file-protocol agent reads.
pub const INPUT_FILE: &str = "input.txt";
/// The move file the game master reads.
pub const OUTPUT_FILE: &str = "output.txt";
/// A machine's speed, which a calibration program writes beside an agent.
pub const CALIBRATION_FILE: &str = "calibration.txt";

/// The time situation when a move is asked for, in CPU seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Time the mover has left for the rest of the game.
    pub own_remaining: f64,
    /// Time the opponent has left.
    pub opponent_remaining: f64,
}

impl Clock {
    /// A clock with plenty of time for both sides (untimed play).
    pub const UNLIMITED: Clock = Clock { own_remaining: f64::INFINITY, opponent_remaining: f64::INFINITY };
}

/// A chosen move and what the search knew about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision<M> {
    /// The move to play; always legal in the state it was chosen for.
    pub mv: M,
    /// Search score from the mover's side, in the evaluator's units, if any.
    pub score: Option<i32>,
    /// Depth of the last completed iteration, if the agent searches.
    pub depth: Option<u32>,
    /// Nodes visited for this move.
    pub nodes: u64,
}

impl<M> Decision<M> {
    /// A decision with no search information.
    pub const fn just(mv: M) -> Self {
        Decision { mv, score: None, depth: None, nodes: 0 }
    }
}

/// The line a competition program logs on stderr after choosing `mv`: what
/// its search found (`None`: chosen without a search) and the CPU seconds
/// the process has used.
pub fn played_line<M: std::fmt::Display>(mv: M, search: Option<&Decision<M>>, cpu: f64) -> String {
    match search {
        Some(d) => format!(
            "played {mv} (search depth {} score {} nodes {}, {cpu:.4} s CPU)",
            d.depth.unwrap_or(0),
            d.score.map_or("-".to_string(), |s| s.to_string()),
            d.nodes
        ),
        None => format!("played {mv} (one-ply, {cpu:.4} s CPU)"),
    }
}

/// What a [`played_line`] says, read back by [`parse_played_line`].
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedLine {
    /// The move, as the program displayed it.
    pub mv: String,
    /// Search score from the mover's side (`None`: no search, or `-`).
    pub score: Option<i32>,
    /// Completed search depth (`None`: chosen without a search).
    pub depth: Option<u32>,
    /// Nodes searched (`None`: chosen without a search).
    pub nodes: Option<u64>,
    /// CPU seconds the process had used when it logged the line.
    pub cpu: f64,
}

/// Reads a line written by [`played_line`] back: `played MOVE (search depth
/// D score S nodes N, C s CPU)` or `played MOVE (one-ply, C s CPU)`, with
/// surrounding whitespace ignored. Anything else gives `None`.
pub fn parse_played_line(line: &str) -> Option<PlayedLine> {
    let rest = line.trim().strip_prefix("played ")?;
    let (mv, rest) = rest.split_once(' ')?;
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    let (info, cpu) = inner.rsplit_once(", ")?;
    let cpu: f64 = cpu.strip_suffix(" s CPU")?.parse().ok().filter(|c: &f64| c.is_finite() && *c >= 0.0)?;
    if mv.is_empty() || mv.contains(['(', ')']) {
        return None;
    }
    let mv = mv.to_string();
    if info == "one-ply" {
        return Some(PlayedLine { mv, score: None, depth: None, nodes: None, cpu });
    }
    let words: Vec<&str> = info.split(' ').collect();
    let ["search", "depth", depth, "score", score, "nodes", nodes] = words[..] else { return None };
    let score = if score == "-" { None } else { Some(score.parse().ok()?) };
    Some(PlayedLine { mv, score, depth: Some(depth.parse().ok()?), nodes: Some(nodes.parse().ok()?), cpu })
}

/// Whether a program's arguments ask for its help text (`-h` or `--help`
/// anywhere): the file-protocol programs take no other options worth a
/// parser, yet answer `--help` like the others.
pub fn asks_for_help<S: AsRef<str>>(mut args: impl Iterator<Item = S>) -> bool {
    args.any(|a| matches!(a.as_ref(), "-h" | "--help"))
}

/// Seconds as the input files write them: the shortest text that reads back
/// as the same number (`300` for 300.0, `0.004` for 0.004), so a small
/// positive time never rounds to zero.
pub fn seconds_text(seconds: f64) -> String {
    format!("{seconds}")
}

/// The one line of a program's `output.txt` (blank lines after it are
/// allowed), or the error that there are more.
pub fn single_line(text: &str) -> Result<&str, String> {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    if lines.any(|l| !l.trim().is_empty()) {
        return Err("expected one line holding the move, found more".into());
    }
    Ok(first)
}

/// A player of `G`.
pub trait Agent<G: Game>: Send {
    /// A short name for logs and result tables.
    fn name(&self) -> String;

    /// Called before the first move of each game (clear per-game state).
    fn new_game(&mut self) {}

    /// Picks a legal move for the player to move in `state`, which is not
    /// terminal.
    fn choose(&mut self, state: &G, clock: &Clock) -> Decision<G::Move>;
}

/// Plays a uniformly random legal move (the graders' random agent).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: SplitMix,
}

impl RandomAgent {
    /// A random agent whose choices are fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: SplitMix(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, _clock: &Clock) -> Decision<G::Move> {
        Decision::just(random_move(state, &mut self.rng).expect("RandomAgent asked to move in a finished game"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::Game;
    use crate::testing::Subtraction;

    #[test]
    fn seconds_read_back_as_the_same_number() {
        for t in [300.0, 286.46, 0.004, 1e-9, 0.1 + 0.2, 59.999_999_7] {
            assert_eq!(seconds_text(t).parse::<f64>(), Ok(t));
        }
        assert_eq!(seconds_text(300.0), "300");
    }

    #[test]
    fn random_agent_plays_legal_moves_reproducibly() {
        let play = |seed| {
            let mut agent = RandomAgent::new(seed);
            let mut state = Subtraction::new(40);
            let mut moves = Vec::new();
            while !state.is_terminal() {
                let mv = agent.choose(&state, &Clock::UNLIMITED).mv;
                assert!(state.legal_moves().contains(&mv));
                moves.push(mv);
                state.make(mv);
            }
            moves
        };
        assert_eq!(play(1), play(1));
        assert_ne!(play(1), play(2));
    }

    #[test]
    fn played_lines_read_back() {
        let searched = Decision { mv: "d3", score: Some(-250), depth: Some(7), nodes: 123_456 };
        let line = played_line("d3", Some(&searched), 1.23456);
        let back = parse_played_line(&line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!((back.mv.as_str(), back.score, back.depth, back.nodes), ("d3", Some(-250), Some(7), Some(123_456)));
        assert!((back.cpu - 1.2346).abs() < 1e-9, "{line}");
        let unscored = Decision { score: None, ..searched };
        let back = parse_played_line(&played_line("d3", Some(&unscored), 0.0)).unwrap();
        assert_eq!((back.score, back.depth), (None, Some(7)));
        let line = played_line("10K", None, 0.5) + "\n";
        let back = parse_played_line(&line).unwrap();
        assert_eq!(back, PlayedLine { mv: "10K".into(), score: None, depth: None, nodes: None, cpu: 0.5 });
    }

    #[test]
    fn malformed_played_lines_give_nothing() {
        for line in [
            "",
            "played",
            "played d3",
            "warning: played d3 (one-ply, 0.1000 s CPU)",
            "played  (one-ply, 0.1000 s CPU)",
            "played d3 (one-ply, 0.1000 s CPU",
            "played d3 (one-ply 0.1000 s CPU)",
            "played d3 (one-ply, 0.1000 s)",
            "played d3 (one-ply, -1 s CPU)",
            "played d3 (one-ply, NaN s CPU)",
            "played d3 (one-ply, x s CPU)",
            "played d3 (two-ply, 0.1000 s CPU)",
            "played d3 (search depth 4 score 5, 0.1000 s CPU)",
            "played d3 (search depth -4 score 5 nodes 6, 0.1000 s CPU)",
            "played d3 (search depth 4 score five nodes 6, 0.1000 s CPU)",
            "played d3 (search depth 4 score 5 nodes -6, 0.1000 s CPU)",
            "played d3 (search depth 4 score 5 nodes 6 extra 7, 0.1000 s CPU)",
            "played d3 (search depth 4  score 5 nodes 6, 0.1000 s CPU)",
            "played d3 (search depth 4 score 5 nodes 6, 0.1000 s CPU) trailing",
            "played d3 e4 (one-ply, 0.1000 s CPU)",
        ] {
            assert_eq!(parse_played_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn damaged_played_lines_never_panic() {
        // Every prefix, and every line with one byte replaced, of a good line.
        let line = played_line("d3", Some(&Decision { mv: "d3", score: Some(12), depth: Some(3), nodes: 99 }), 0.25);
        for end in 0..line.len() {
            assert_eq!(parse_played_line(&line[..end]), None, "{:?}", &line[..end]);
        }
        for i in 0..line.len() {
            for b in [b' ', b'(', b')', b',', b'-', b'9', b'x', 0xff] {
                let mut bytes = line.clone().into_bytes();
                bytes[i] = b;
                let _ = parse_played_line(&String::from_utf8_lossy(&bytes));
            }
        }
    }
}
