//! `reversi-play`: the interactive terminal game of handout 004. The user
//! chooses the board (4x4 to 12x12, Duo-Othello), the opponent (random,
//! full-depth MINIMAX, full-depth alpha-beta, H-MINIMAX with a depth or time
//! limit, the strong engine) and a colour, then plays on standard input.
//!
//! Options: `--seed N` fixes the random opponent's choices; `--engine-time S`
//! sets the strong engine's seconds per move. When standard input is not a
//! terminal, each answer is echoed after its prompt so that a scripted game
//! prints a readable transcript.

use clap::Parser;
use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use engine_core::search::EngineConfig;
use engine_core::textbook::{AlphaBetaAgent, HMinimaxAgent, PerfectMinimax, SearchLimit};
use reversi::textbook::CornerMobilityDiscs;
use reversi::with_geometry;
use reversi::{COLUMN_LETTERS, Geometry, Move, Position, Variant};
use reversi::{CompiledGeometry, reversi_engine};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Plays Reversi against a computer agent on the terminal.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Seed of the random opponent (default: taken from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Seconds per move for the strong engine.
    #[arg(long, default_value_t = 2.0, value_parser = parse_engine_time)]
    engine_time: f64,
}

/// Deepest cutoff the user may give H-MINIMAX.
const MAX_CUTOFF_DEPTH: u32 = 60;
/// Longest time per move the user may give H-MINIMAX, in seconds.
const MAX_SECONDS_PER_MOVE: f64 = 3600.0;
/// Largest board on which the full-depth searches finish.
const FULL_SEARCH_MAX_SIZE: usize = 4;

fn parse_engine_time(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= MAX_SECONDS_PER_MOVE => Ok(secs),
        _ => Err(format!("expected seconds per move, more than 0 and at most {MAX_SECONDS_PER_MOVE}")),
    }
}

/// The games on offer, in menu order.
const GAMES: [(&str, Variant); 6] = [
    ("Small 4x4 Reversi", Variant::Tiny4),
    ("Medium 6x6 Reversi", Variant::Othello6),
    ("Standard 8x8 Reversi", Variant::Othello8),
    ("Large 10x10 Reversi", Variant::Othello10),
    ("Huge 12x12 Reversi", Variant::Othello12),
    ("Duo-Othello (12x12, LIGHT/O moves first, DARK/X gets +1)", Variant::Duo12),
];

/// The computer players on offer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opponent {
    Random,
    Minimax,
    AlphaBeta,
    HMinimax(SearchLimit),
    Engine,
}

/// Opponent menu lines (the last is completed with the engine's time).
const OPPONENTS: [&str; 5] = [
    "An agent that plays randomly",
    "An agent that uses MINIMAX",
    "An agent that uses MINIMAX with alpha-beta pruning",
    "An agent that uses H-MINIMAX with a fixed depth cutoff and a-b pruning",
    "The strong engine",
];

/// Everything chosen before the first move.
struct Setup {
    variant: Variant,
    opponent: Opponent,
    human: Color,
}

/// Standard input ended: the program stops.
struct EndOfInput;

/// Prompts on standard output and reads answers from standard input.
struct Console {
    input: std::io::StdinLock<'static>,
    echo: bool,
}

impl Console {
    fn new() -> Self {
        let stdin = std::io::stdin();
        let echo = !stdin.is_terminal();
        Console { input: stdin.lock(), echo }
    }

    /// Prints `prompt` and reads one line (without its line end).
    fn ask(&mut self, prompt: &str) -> Result<String, EndOfInput> {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                println!();
                Err(EndOfInput)
            }
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_owned();
                if self.echo {
                    println!("{line}");
                }
                Ok(line)
            }
        }
    }

    /// Shows a numbered menu and returns the chosen index (from 0).
    fn menu(&mut self, title: &str, options: &[String]) -> Result<usize, EndOfInput> {
        println!();
        println!("{title}");
        for (i, option) in options.iter().enumerate() {
            println!("{}. {option}", i + 1);
        }
        loop {
            let answer = self.ask("Your choice? ")?;
            match answer.trim().parse::<usize>() {
                Ok(n) if (1..=options.len()).contains(&n) => return Ok(n - 1),
                _ => try_again(&format!(
                    "invalid choice: {} (enter a number from 1 to {})",
                    answer.trim(),
                    options.len()
                )),
            }
        }
    }

    /// Asks a yes/no question.
    fn confirm(&mut self, question: &str) -> Result<bool, EndOfInput> {
        loop {
            match self.ask(question)?.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(true),
                "n" | "no" => return Ok(false),
                other => try_again(&format!("invalid answer: {other} (enter y or n)")),
            }
        }
    }
}

/// Reports a rejected answer.
fn try_again(message: &str) {
    println!("{message}");
    println!("Try again");
    println!();
}

/// How the transcript names a player.
const fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "DARK/X",
        Color::White => "LIGHT/O",
    }
}

/// The disc letter of a player.
const fn disc(color: Color) -> char {
    match color {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

fn choose_search_limit(console: &mut Console) -> Result<SearchLimit, EndOfInput> {
    loop {
        let answer = console.ask("Search limit per move: a depth in plies (e.g. 4) or seconds (e.g. 2s)? ")?;
        let text = answer.trim().to_ascii_lowercase();
        let limit = match text.strip_suffix('s') {
            Some(secs) => secs
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0 && *s <= MAX_SECONDS_PER_MOVE)
                .map(|s| SearchLimit::Time(Duration::from_secs_f64(s))),
            None => text.parse::<u32>().ok().filter(|d| (1..=MAX_CUTOFF_DEPTH).contains(d)).map(SearchLimit::Depth),
        };
        match limit {
            Some(limit) => return Ok(limit),
            None => try_again(&format!(
                "invalid search limit: {} (a depth from 1 to {MAX_CUTOFF_DEPTH}, or seconds like 2s)",
                answer.trim()
            )),
        }
    }
}

fn choose_opponent(console: &mut Console, variant: Variant, engine_time: f64) -> Result<Opponent, EndOfInput> {
    let mut options: Vec<String> = OPPONENTS.iter().map(|s| s.to_string()).collect();
    options[4] = format!("{} ({engine_time} secs per move)", OPPONENTS[4]);
    loop {
        let opponent = match console.menu("Choose your opponent:", &options)? {
            0 => Opponent::Random,
            1 => Opponent::Minimax,
            2 => Opponent::AlphaBeta,
            3 => Opponent::HMinimax(choose_search_limit(console)?),
            _ => Opponent::Engine,
        };
        let size = variant.size();
        if matches!(opponent, Opponent::Minimax | Opponent::AlphaBeta) && size > FULL_SEARCH_MAX_SIZE {
            println!(
                "Warning: this agent searches the whole game tree, which will not finish on the {size}x{size} board."
            );
            println!("Choose 4 (H-MINIMAX with a depth cutoff and a-b pruning) to play on this board.");
            if !console.confirm("Play against it anyway? (y/n) ")? {
                continue;
            }
        }
        return Ok(opponent);
    }
}

fn choose_color(console: &mut Console) -> Result<Color, EndOfInput> {
    println!();
    loop {
        let answer = console.ask("Do you want to play DARK (X) or LIGHT (O)? ")?;
        match answer.trim().to_ascii_lowercase().as_str() {
            "x" | "dark" => return Ok(Color::Black),
            "o" | "light" => return Ok(Color::White),
            other => try_again(&format!("invalid choice: {other} (enter X or O)")),
        }
    }
}

fn setup(console: &mut Console, engine_time: f64) -> Result<Setup, EndOfInput> {
    println!("Reversi");
    let games: Vec<String> = GAMES.iter().map(|(name, _)| name.to_string()).collect();
    let variant = GAMES[console.menu("Choose your game:", &games)?].1;
    let opponent = choose_opponent(console, variant, engine_time)?;
    let human = choose_color(console)?;
    Ok(Setup { variant, opponent, human })
}

/// Prints the board with column letters above and below and row numbers on
/// both sides.
fn print_board<G: Geometry>(state: &Position<G>) {
    let width = G::N.to_string().len();
    let letters: Vec<String> = COLUMN_LETTERS[..G::N].iter().map(|&c| (c as char).to_string()).collect();
    let header = format!("{:width$} {}", "", letters.join(" "));
    println!("{header}");
    let (dark, light) = (state.discs(Color::Black), state.discs(Color::White));
    for row in 0..G::N {
        let cells: String = (0..G::N)
            .map(|col| {
                let cell = row * G::N + col;
                let ch = if dark.contains(cell) {
                    'X'
                } else if light.contains(cell) {
                    'O'
                } else {
                    ' '
                };
                format!("{ch} ")
            })
            .collect();
        println!("{:>width$} {cells}{}", row + 1, row + 1);
    }
    println!("{header}");
}

fn print_help() {
    println!("Enter moves as COLUMN then ROW.");
    println!("For example, \"a1\" is the top left corner.");
    println!("Enter \"pass\" (without the quotes) if you have no legal moves.");
    println!("Enter \"quit\" to stop the game.");
    println!();
}

/// The human's move, validated; `None` when the user quits.
fn human_move<G: Geometry>(state: &Position<G>, console: &mut Console) -> Result<Option<Move<G>>, EndOfInput> {
    let legal = state.legal_moves();
    let me = disc(state.to_move());
    loop {
        let answer = console.ask("Your move (? for help): ")?;
        let text = answer.trim();
        let lower = text.to_ascii_lowercase();
        let mv = match lower.as_str() {
            "" => continue,
            "?" | "help" => {
                print_help();
                continue;
            }
            "quit" => return Ok(None),
            "pass" => Move::PASS,
            _ => match Move::<G>::parse(&lower) {
                Some(mv) if !mv.is_pass() => mv,
                _ => {
                    try_again(&format!("invalid location: {text}"));
                    continue;
                }
            },
        };
        if mv.cell().is_some_and(|cell| !state.empty().contains(cell)) {
            try_again(&format!("location is occupied: {mv}"));
            continue;
        }
        if !legal.contains(&mv) {
            println!("invalid move: {me}@{mv}");
            // Listed column by column, as the handout's transcript does.
            let mut valid: Vec<Move<G>> = legal.iter().copied().filter(|m| !m.is_pass()).collect();
            valid.sort_by_key(|m| m.row_col().map(|(row, col)| (col, row)));
            let valid: Vec<String> = valid.iter().map(|m| format!("{me}@{m}")).collect();
            try_again(&format!("Valid moves are: [{}]", valid.join(", ")));
            continue;
        }
        return Ok(Some(mv));
    }
}

/// What the computer says before it moves.
fn announcement(opponent: Opponent) -> String {
    match opponent {
        Opponent::Random => "I'm picking a move randomly...".into(),
        Opponent::Minimax => "I'm searching the whole game tree with MINIMAX...".into(),
        Opponent::AlphaBeta => "I'm searching the whole game tree with MINIMAX and alpha-beta pruning...".into(),
        Opponent::HMinimax(SearchLimit::Depth(depth)) => {
            format!("I'm searching {depth} plies ahead with H-MINIMAX and alpha-beta pruning...")
        }
        Opponent::HMinimax(SearchLimit::Time(time)) => {
            format!("I'm searching for up to {:.3} secs with H-MINIMAX and alpha-beta pruning...", time.as_secs_f64())
        }
        Opponent::Engine => "The strong engine is thinking...".into(),
    }
}

/// The computer's move.
fn computer_move<G: Geometry>(state: &Position<G>, agent: &mut dyn Agent<Position<G>>, opponent: Opponent) -> Move<G> {
    let legal = state.legal_moves();
    if legal[..] == [Move::PASS] {
        println!("I have no legal moves, so I must pass.");
        return Move::PASS;
    }
    println!("{}", announcement(opponent));
    let decision = agent.choose(state, &Clock::UNLIMITED);
    if decision.nodes > 0 {
        let depth = decision.depth.map(|d| format!(" to depth {d}")).unwrap_or_default();
        println!("Explored {} states{depth}", decision.nodes);
    }
    if legal.contains(&decision.mv) {
        decision.mv
    } else {
        eprintln!(
            "reversi-play: the {} agent chose the illegal move {}; playing {}",
            agent.name(),
            decision.mv,
            legal[0]
        );
        legal[0]
    }
}

fn make_agent<G: CompiledGeometry>(setup: &Setup, args: &Args) -> Result<Box<dyn Agent<Position<G>>>, String> {
    Ok(match setup.opponent {
        Opponent::Random => {
            let seed = args
                .seed
                .unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64));
            Box::new(RandomAgent::new(seed))
        }
        Opponent::Minimax => Box::new(PerfectMinimax),
        Opponent::AlphaBeta => Box::new(AlphaBetaAgent),
        Opponent::HMinimax(limit) => Box::new(HMinimaxAgent::new(CornerMobilityDiscs, limit)),
        Opponent::Engine => {
            let config = EngineConfig { move_time: Some(args.engine_time), ..EngineConfig::default() };
            Box::new(reversi_engine::<G>(setup.variant, config)?)
        }
    })
}

/// Prints the final count, the winner and each side's total time.
fn print_result<G: Geometry>(state: &Position<G>, totals: [Duration; 2]) {
    let (dark, light) = state.disc_counts();
    let bonus = state.scoring().black_bonus;
    let bonus = if bonus != 0 { format!(" (+{bonus} bonus)") } else { String::new() };
    println!();
    println!("Discs: DARK/X {dark}{bonus}, LIGHT/O {light}");
    let time_left = totals.map(|t| -t.as_secs_f64());
    match state.scoring().winner(state.score(), time_left) {
        Some(color) => println!("Winner: {}", side_name(color)),
        None => println!("Winner: none, the game is a draw"),
    }
    println!("Total time:");
    for color in Color::BOTH {
        println!("  {}: {:.3} secs", side_name(color), totals[color.index()].as_secs_f64());
    }
}

/// Plays one game on geometry `G`.
fn play<G: CompiledGeometry>(setup: &Setup, args: &Args, console: &mut Console) -> Result<(), String> {
    let mut agent = make_agent::<G>(setup, args)?;
    let mut state: Position<G> = setup.variant.start();
    let mut totals = [Duration::ZERO; 2];
    println!();
    print_board(&state);
    while !state.is_terminal() {
        let mover = state.to_move();
        println!("Next to play: {}", side_name(mover));
        println!();
        let start = Instant::now();
        let mv = if mover == setup.human {
            match human_move(&state, console) {
                Ok(Some(mv)) => mv,
                Ok(None) => {
                    println!("Game abandoned.");
                    return Ok(());
                }
                Err(EndOfInput) => {
                    println!("End of input: game abandoned.");
                    return Ok(());
                }
            }
        } else {
            computer_move(&state, agent.as_mut(), setup.opponent)
        };
        let elapsed = start.elapsed();
        totals[mover.index()] += elapsed;
        println!("Elapsed time: {:.3} secs", elapsed.as_secs_f64());
        println!("{}@{mv}", disc(mover));
        println!();
        state.make(mv);
        print_board(&state);
    }
    print_result(&state, totals);
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut console = Console::new();
    let Ok(setup) = setup(&mut console, args.engine_time) else {
        println!("End of input.");
        return ExitCode::SUCCESS;
    };
    match with_geometry!(setup.variant, G => play::<G>(&setup, &args, &mut console)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("reversi-play: {message}");
            ExitCode::FAILURE
        }
    }
}
