//! Player specifications (`engine:depth=6`, `random`, `minimax`,
//! `cmd:./agent`) and the seats the match loop plays them through, charging
//! each side the CPU time it used.
//!
//! Spec grammar (the whole spec is the player's name in the CSV files):
//!
//! - `engine[:KEY=VALUE,...]` with keys `depth`, `nodes`, `movetime`
//!   (CPU seconds per move), `tc` (CPU seconds per game), `tt` (MiB),
//!   `weights` (a file the tuner wrote), `nps` (calibrated nodes per second),
//!   `eval` (`pattern` or `classic`) and any search parameter of the core or the game (docs/src/engine/parameters.md)
//!   (`time.hard_factor=2.5`); in-process engines plan on their thread's
//!   CPU time, which is what they are charged;
//! - `classic[:KEY=VALUE,...]`: the same engine searching with the classic
//!   hand-written heuristic (`engine:eval=classic`; Reversi only), an
//!   opponent unlike the learnt evaluation;
//! - `random[:tc=SECONDS]` and `minimax[:tc=SECONDS]`;
//! - `cmd:PROGRAM [ARGS...][;tc=SECONDS][;calibrate=PROGRAM [ARGS...]]`: an
//!   external program speaking the variant's file protocol;
//! - `nboard:PROGRAM [ARGS...][;depth=D][;tc=SECONDS]`: an engine speaking
//!   the NBoard protocol (othello8 only), `set depth D` if given.

use crate::answer::{Answer, Failure, Played};
use crate::external::{ExternalPlayer, ExternalSpec};
use crate::nboard::{NBoardPlayer, NBoardSpec};
use crate::protocol::GameProtocol;
use engine_core::agent::{Agent, Clock};
use engine_core::cputime::{CpuClock, thread_cpu_time};
use engine_core::eval::Evaluation;
use engine_core::game::Game;
use engine_core::search::EngineConfig;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// What kind of player a spec names.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// The strong engine with these limits.
    Engine(EngineConfig),
    /// The graders' random agent (Reversi: uniform over the legal moves;
    /// Pente: a cell next to a stone), seeded per game.
    Random,
    /// The graders' reference minimax agent.
    Minimax,
    /// An external program.
    External(ExternalSpec),
    /// An NBoard engine.
    NBoard(NBoardSpec),
}

/// A parsed player spec.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The spec as written: the player's name in results.
    pub text: String,
    /// What plays.
    pub kind: PlayerKind,
    /// CPU seconds per game, if the spec sets them (else the run's `--tc`).
    pub tc: Option<f64>,
}

impl PlayerSpec {
    /// True when one seat can play game after game (engines, reset by
    /// `new_game`); reference agents are re-seeded (Pente's minimax breaks
    /// ties at random) and external ones get a fresh folder per game.
    pub fn reusable(&self) -> bool {
        matches!(self.kind, PlayerKind::Engine(_))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn parse_number<T: FromStr>(key: &str, value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("`{key}={value}`: expected a number"))
}

fn parse_seconds(key: &str, value: &str) -> Result<f64, String> {
    let secs: f64 = parse_number(key, value)?;
    if secs.is_finite() && secs > 0.0 {
        Ok(secs)
    } else {
        Err(format!("`{key}={value}`: expected a positive number of seconds"))
    }
}

/// The program, its arguments and the `;`-separated options of the body of
/// a `KIND:PROGRAM [ARGS][;OPTION]...` spec `text`.
fn program_and_options<'a>(
    kind: &str,
    body: &'a str,
    text: &str,
) -> Result<(String, Vec<String>, std::str::Split<'a, char>), String> {
    let mut parts = body.split(';');
    let words: Vec<String> = parts.next().unwrap_or("").split_whitespace().map(String::from).collect();
    let Some((program, args)) = words.split_first() else {
        return Err(format!("`{text}`: expected {kind}:PROGRAM [ARGS]"));
    };
    Ok((program.clone(), args.to_vec(), parts))
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (kind, body) = text.split_once(':').unwrap_or((text, ""));
        let mut tc = None;
        let kind = match kind {
            "engine" | "classic" => {
                let mut config = EngineConfig::default();
                if kind == "classic" {
                    config.evaluation = Evaluation::Classic;
                }
                for pair in body.split(',').filter(|p| !p.is_empty()) {
                    let (key, value) =
                        pair.split_once('=').ok_or_else(|| format!("`{pair}`: expected KEY=VALUE in `{text}`"))?;
                    match key {
                        "depth" => config.depth = Some(parse_number(key, value)?),
                        "nodes" => config.nodes = Some(parse_number(key, value)?),
                        "movetime" => config.move_time = Some(parse_seconds(key, value)?),
                        "tc" => tc = Some(parse_seconds(key, value)?),
                        "tt" => config.tt_mb = parse_number(key, value)?,
                        "weights" => config.weights = Some(PathBuf::from(value)),
                        "nps" => config.nps_hint = Some(parse_number(key, value)?),
                        "eval" => config.evaluation = value.parse().map_err(|e| format!("{e} in `{text}`"))?,
                        "objective" => config.objective = value.parse().map_err(|e| format!("{e} in `{text}`"))?,
                        // A search parameter: the core's are checked here, a
                        // game's when the player is built for it.
                        _ if key.contains('.') => {
                            config
                                .params
                                .set(key, parse_number(key, value)?)
                                .map_err(|e| format!("{e} in `{text}`"))?;
                        }
                        _ => {
                            return Err(format!(
                                "unknown engine option `{key}` in `{text}`: expected depth, nodes, movetime, tc, tt, weights, nps, eval, objective or a search parameter (docs/src/engine/parameters.md)"
                            ));
                        }
                    }
                }
                PlayerKind::Engine(config)
            }
            "random" | "minimax" => {
                for pair in body.split(',').filter(|p| !p.is_empty()) {
                    match pair.split_once('=') {
                        Some(("tc", value)) => tc = Some(parse_seconds("tc", value)?),
                        _ => return Err(format!("`{pair}` in `{text}`: expected tc=SECONDS")),
                    }
                }
                if kind == "random" { PlayerKind::Random } else { PlayerKind::Minimax }
            }
            "cmd" => {
                let (program, args, parts) = program_and_options(kind, body, text)?;
                let mut spec = ExternalSpec { program, args, calibrate: None };
                for option in parts {
                    match option.trim().split_once('=') {
                        Some(("tc", value)) => tc = Some(parse_seconds("tc", value)?),
                        Some(("calibrate", value)) => {
                            let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                            if words.is_empty() {
                                return Err(format!("`{text}`: expected calibrate=PROGRAM [ARGS]"));
                            }
                            spec.calibrate = Some(words);
                        }
                        _ => return Err(format!("`{option}` in `{text}`: expected tc=SECONDS or calibrate=PROGRAM")),
                    }
                }
                PlayerKind::External(spec)
            }
            "nboard" => {
                let (program, args, parts) = program_and_options(kind, body, text)?;
                let mut spec = NBoardSpec { program, args, depth: None };
                for option in parts {
                    match option.trim().split_once('=') {
                        Some(("tc", value)) => tc = Some(parse_seconds("tc", value)?),
                        Some(("depth", value)) => match value.parse::<u32>() {
                            Ok(d) if d > 0 => spec.depth = Some(d),
                            _ => return Err(format!("`depth={value}` in `{text}`: expected a positive whole number")),
                        },
                        _ => return Err(format!("`{option}` in `{text}`: expected depth=D or tc=SECONDS")),
                    }
                }
                PlayerKind::NBoard(spec)
            }
            other => {
                return Err(format!(
                    "unknown player kind `{other}` in `{text}`: expected engine[:...], classic[:...], random, minimax, cmd:PROGRAM or nboard:PROGRAM"
                ));
            }
        };
        Ok(PlayerSpec { text: text.to_string(), kind, tc })
    }
}

/// A player sitting at the board for one game.
pub enum Seat<S: Game> {
    /// A player running in this thread.
    InProcess(Box<dyn Agent<S>>),
    /// An external program run per move.
    External(ExternalPlayer),
    /// An NBoard engine, one process per game.
    NBoard(NBoardPlayer),
}

impl<S: Game> Seat<S> {
    /// A seat for `spec` in game `game`; `seed` fixes a reference agent's
    /// random choices; `home` is where an external player's folders live.
    pub fn new<P: GameProtocol<State = S>>(
        protocol: &P,
        spec: &PlayerSpec,
        seed: u64,
        home: &std::path::Path,
    ) -> Result<Self, String> {
        Ok(match &spec.kind {
            // Charged its thread's CPU time, the engine plans on that clock.
            PlayerKind::Engine(config) => {
                Seat::InProcess(protocol.engine(EngineConfig { clock: CpuClock::Thread, ..config.clone() })?)
            }
            PlayerKind::Random => Seat::InProcess(protocol.random(seed)),
            PlayerKind::Minimax => Seat::InProcess(protocol.minimax(seed)),
            PlayerKind::External(ext) => Seat::External(ExternalPlayer::new(ext, home)),
            PlayerKind::NBoard(spec) => {
                if protocol.nboard_game(&protocol.start(), None).is_none() {
                    return Err(format!(
                        "NBoard engines play othello8: expected --variant othello8, found {}",
                        protocol.variant()
                    ));
                }
                let program = crate::external::resolve(&spec.program);
                if spec.program.contains('/') && !program.is_file() {
                    return Err(format!("{}: no such program", program.display()));
                }
                Seat::NBoard(NBoardPlayer::new(spec, home))
            }
        })
    }

    /// Prepares for game `game`, played as the colour with letter `side`.
    pub fn begin(&mut self, game: u64, side: char) -> Result<(), Failure> {
        match self {
            Seat::InProcess(agent) => {
                agent.new_game();
                Ok(())
            }
            Seat::External(ext) => ext.begin(game, side),
            Seat::NBoard(nb) => nb.begin(game, side),
        }
    }

    /// Asks for a move in `state` (not terminal, not a forced pass).
    pub fn play<P: GameProtocol<State = S>>(
        &mut self,
        protocol: &P,
        state: &S,
        clock: &Clock,
        abandon: &AtomicBool,
    ) -> Answer<S::Move> {
        match self {
            Seat::InProcess(agent) => {
                let start = thread_cpu_time();
                let decision = agent.choose(state, clock);
                let cpu = thread_cpu_time().saturating_sub(start).as_secs_f64();
                Answer::Move(Played { decision, cpu })
            }
            Seat::External(ext) => ext.play(protocol, state, clock, abandon),
            Seat::NBoard(nb) => nb.play(protocol, state, clock, abandon),
        }
    }

    /// Called after the game; `clean` removes an external player's folder.
    pub fn finish(&mut self, clean: bool) {
        match self {
            Seat::InProcess(_) => {}
            Seat::External(ext) => ext.finish(clean),
            Seat::NBoard(nb) => nb.finish(clean),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let e: PlayerSpec = "engine:depth=4,tt=16,tc=60,weights=w.txt".parse().unwrap();
        let PlayerKind::Engine(c) = &e.kind else { panic!() };
        assert_eq!((c.depth, c.tt_mb, e.tc), (Some(4), 16, Some(60.0)));
        assert_eq!(c.weights.as_deref(), Some(std::path::Path::new("w.txt")));
        assert_eq!("engine".parse::<PlayerSpec>().unwrap().kind, PlayerKind::Engine(EngineConfig::default()));
        assert_eq!("random".parse::<PlayerSpec>().unwrap().kind, PlayerKind::Random);
        assert_eq!("minimax:tc=300".parse::<PlayerSpec>().unwrap().tc, Some(300.0));
        let x: PlayerSpec = "cmd:./agent --fast;tc=10;calibrate=./cal 3".parse().unwrap();
        let PlayerKind::External(s) = &x.kind else { panic!() };
        assert_eq!((s.program.as_str(), s.args.clone(), x.tc), ("./agent", vec!["--fast".to_string()], Some(10.0)));
        assert_eq!(s.calibrate, Some(vec!["./cal".to_string(), "3".to_string()]));
        let c: PlayerSpec = "classic:depth=5".parse().unwrap();
        let PlayerKind::Engine(config) = &c.kind else { panic!() };
        assert_eq!((config.evaluation, config.depth), (Evaluation::Classic, Some(5)));
        let PlayerKind::Engine(config) = "engine:eval=classic".parse::<PlayerSpec>().unwrap().kind else { panic!() };
        assert_eq!(config.evaluation, Evaluation::Classic);
        let p: PlayerSpec = "engine:time.hard_factor=2.5,depth=3".parse().unwrap();
        let PlayerKind::Engine(c) = &p.kind else { panic!() };
        assert_eq!((c.params.over(engine_core::search::SearchParams::DEFAULT).hard_factor, c.depth), (2.5, Some(3)));
        let n: PlayerSpec = "nboard:./edax -n 1;depth=6;tc=30".parse().unwrap();
        let PlayerKind::NBoard(s) = &n.kind else { panic!() };
        assert_eq!(
            (s.program.as_str(), s.args.clone(), s.depth, n.tc),
            ("./edax", vec!["-n".into(), "1".into()], Some(6), Some(30.0))
        );
        for bad in [
            "nboard:",
            "nboard:x;depth=0",
            "nboard:x;depth=y",
            "nboard:x;speed=3",
            "engine:depth=x",
            "engine:speed=3",
            "engine:time.hard_factor=99",
            "engine:time.safety=x",
            "cmd:",
            "alien",
            "random:tc=-1",
            "engine:depth",
            "engine:eval=neural",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad} accepted");
        }
    }
}
