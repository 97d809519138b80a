//! `pente-match`: the in-process match harness. Plays the competition engine
//! against a reference agent (`random` or `minimax`), alternating colours,
//! each side's CPU time charged to its own clock; a side that runs out of
//! time or plays an illegal move loses. One line per game, flushed as it
//! ends (appended to `--out` too), then a summary.

use clap::Parser;
use engine::agent::{Agent, Clock};
use engine::cputime::CpuTimer;
use engine::game::{Color, Game};
use engine::pente::{MinimaxAgent, NearRandomAgent, PenteConfig, PenteEngine, Position};
use std::io::Write;
use std::process::ExitCode;

/// Plays the Pente engine against a reference agent.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// Reference agent: random or minimax.
    #[arg(long)]
    opponent: String,
    /// Games with the engine as each colour.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// CPU seconds per side per game.
    #[arg(long, default_value_t = 10.0)]
    time: f64,
    /// Seed of the reference agent (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fixed search depth for the engine (default: by the clock).
    #[arg(long)]
    depth: Option<u32>,
    /// The reference agent plays its first N moves at random among the cells
    /// next to stones (seeded), so that games against a deterministic
    /// reference differ.
    #[arg(long, default_value_t = 2)]
    opening_moves: u32,
    /// Print every move and the final board.
    #[arg(long)]
    verbose: bool,
    /// Also append the game lines to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// Mixed into the game seed for the reference's random opening moves.
const OPENING_SEED: u64 = 0x09e7_0000;

#[derive(Clone, Copy, PartialEq, Debug)]
enum End {
    Won(Color),
    Draw,
    TimeLoss(Color),
    Illegal(Color),
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !matches!(args.opponent.as_str(), "random" | "minimax") {
        eprintln!("pente-match: --opponent: expected random or minimax, found {:?}", args.opponent);
        return ExitCode::FAILURE;
    }
    let mut out = match &args.out {
        None => None,
        Some(p) => match std::fs::OpenOptions::new().create(true).append(true).open(p) {
            Ok(f) => Some(f),
            Err(e) => {
                eprintln!("pente-match: {}: cannot open: {e}", p.display());
                return ExitCode::FAILURE;
            }
        },
    };
    let mut engine = PenteEngine::new(PenteConfig { depth: args.depth, ..PenteConfig::default() });
    let (mut wins, mut games, mut faults) = (0, 0, 0);
    let mut max_used: f64 = 0.0;
    for i in 0..2 * args.games {
        let engine_color = if i % 2 == 0 { Color::White } else { Color::Black };
        let seed = args.seed + i as u64;
        let mut opponent: Box<dyn Agent<Position>> = match args.opponent.as_str() {
            "random" => Box::new(NearRandomAgent::new(seed)),
            _ => Box::new(MinimaxAgent::new(seed)),
        };
        engine.new_game();
        let (end, moves, used) = play(&mut engine, opponent.as_mut(), engine_color, &args, seed);
        games += 1;
        let won =
            end == End::Won(engine_color) || matches!(end, End::TimeLoss(c) | End::Illegal(c) if c != engine_color);
        wins += won as u32;
        faults += matches!(end, End::TimeLoss(c) | End::Illegal(c) if c == engine_color) as u32;
        max_used = max_used.max(used[0]);
        let line = format!(
            "game {i} engine {engine_color:?} vs {} seed {seed}: {end:?} after {moves} moves; engine used {:.2} s, opponent {:.2} s",
            args.opponent, used[0], used[1]
        );
        println!("{line}");
        if let Some(f) = out.as_mut() {
            let _ = writeln!(f, "{line}").and_then(|_| f.flush());
        }
        let _ = std::io::stdout().flush();
    }
    println!(
        "summary: engine won {wins}/{games} against {} at {} s per side; engine faults (time or illegal) {faults}; most engine CPU in one game {max_used:.2} s",
        args.opponent, args.time
    );
    ExitCode::SUCCESS
}

/// Plays one game; returns how it ended, the number of moves and the CPU
/// seconds each side used (engine first).
fn play(
    engine: &mut PenteEngine,
    opponent: &mut dyn Agent<Position>,
    engine_color: Color,
    args: &Args,
    seed: u64,
) -> (End, u32, [f64; 2]) {
    let (time, verbose) = (args.time, args.verbose);
    let mut opening = NearRandomAgent::new(seed ^ OPENING_SEED);
    let mut opening_left = args.opening_moves;
    let mut pos = Position::new();
    let mut left = [time; 2]; // engine, opponent
    let mut moves = 0;
    while !pos.is_terminal() {
        let mover = pos.to_move();
        let side = usize::from(mover != engine_color);
        let clock = Clock { own_remaining: left[side], opponent_remaining: left[1 - side] };
        let timer = CpuTimer::start();
        let decision = if side == 0 {
            engine.choose(&pos, &clock)
        } else if opening_left > 0 {
            opening_left -= 1;
            opening.choose(&pos, &clock)
        } else {
            opponent.choose(&pos, &clock)
        };
        let mv = decision.mv;
        if verbose {
            println!("  {mover:?} {mv} score {:?} depth {:?} nodes {}", decision.score, decision.depth, decision.nodes);
        }
        left[side] -= timer.elapsed().as_secs_f64();
        if left[side] <= 0.0 {
            return (End::TimeLoss(mover), moves, [time - left[0], time - left[1]]);
        }
        if !pos.is_legal(mv) {
            return (End::Illegal(mover), moves, [time - left[0], time - left[1]]);
        }
        pos.make(mv);
        moves += 1;
    }
    if verbose {
        print!("{}", engine::pente::io::board_text(&pos));
    }
    let end = pos.winner().map_or(End::Draw, End::Won);
    (end, moves, [time - left[0], time - left[1]])
}
