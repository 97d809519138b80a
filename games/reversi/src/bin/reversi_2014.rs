//! `reversi-2014`: the 8x8 greedy / minimax / alpha-beta program of handout
//! 003. Reads `input.txt` in the current folder (task 1 greedy, 2 minimax,
//! 3 alpha-beta, 4 competition; the player `X` or `O`; the cutoff depth;
//! 8 rows of `*`, `X`, `O`) and writes `output.txt`: the next state and, for
//! tasks 2 and 3, the traverse log. See the book (docs/src/programs/reversi-2014.md)
//! for the conventions.

use engine_core::agent::{Agent, Clock};
use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use engine_core::search::EngineConfig;
use engine_core::textbook::{INFINITY, Observer, Visit, alpha_beta, minimax};
use reversi::reversi_engine;
use reversi::textbook::positional::{Board8, Positional};
use reversi::{Geometry, Move, Size8, Variant};
use std::fmt::Write as _;
use std::process::ExitCode;

use reversi::protocol::{INPUT_FILE as INPUT, OUTPUT_FILE as OUTPUT};

/// CPU seconds the strong engine may use for the competition move.
const COMPETITION_MOVE_TIME: f64 = 1.5;
/// Board side.
const N: usize = Size8::N;
/// Lines before the board: task, player, depth.
const HEADER_LINES: usize = 3;

/// What the program is asked to do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Task {
    Greedy,
    Minimax,
    AlphaBeta,
    Competition,
}

/// The contents of `input.txt`.
struct Input {
    task: Task,
    board: Board8,
    cutoff: u32,
}

type Bits8 = <Size8 as Geometry>::Bits;

fn error(line: usize, message: String) -> String {
    format!("{INPUT}: line {line}: {message}")
}

fn parse_input(text: &str) -> Result<Input, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    let mut next = |line: usize, what: &str| {
        lines.next().ok_or_else(|| error(line, format!("expected {what}, found end of file")))
    };
    let task = match next(1, "the task (1, 2, 3 or 4)")?.trim() {
        "1" => Task::Greedy,
        "2" => Task::Minimax,
        "3" => Task::AlphaBeta,
        "4" => Task::Competition,
        other => return Err(error(1, format!("expected the task, 1, 2, 3 or 4, found `{other}`"))),
    };
    let player = match next(2, "the player (X or O)")?.trim() {
        "X" => Color::Black,
        "O" => Color::White,
        other => return Err(error(2, format!("expected the player, X or O, found `{other}`"))),
    };
    let depth_text = next(3, "the cutoff depth")?.trim();
    let cutoff = depth_text
        .parse::<u32>()
        .map_err(|_| error(3, format!("expected the cutoff depth, a whole number >= 0, found `{depth_text}`")))?;
    let (mut black, mut white) = (Bits8::EMPTY, Bits8::EMPTY);
    for row in 0..N {
        let line = HEADER_LINES + 1 + row;
        let text = next(line, &format!("board row {} of {N}", row + 1))?;
        if text.chars().count() != N {
            return Err(error(
                line,
                format!("expected {N} cells of `*`, `X` or `O` in board row {}, found `{text}`", row + 1),
            ));
        }
        for (col, ch) in text.chars().enumerate() {
            match ch {
                'X' => black |= Bits8::bit(row * N + col),
                'O' => white |= Bits8::bit(row * N + col),
                '*' => {}
                other => {
                    return Err(error(
                        line,
                        format!(
                            "expected `*`, `X` or `O` in board row {} column {}, found `{other}`",
                            row + 1,
                            col + 1
                        ),
                    ));
                }
            }
        }
    }
    let after = HEADER_LINES + N + 1;
    if let Some((i, extra)) = lines.enumerate().find(|(_, l)| !l.trim().is_empty()) {
        return Err(error(after + i, format!("expected end of file after the board, found `{}`", extra.trim())));
    }
    let board = Board8::from_discs(black, white, player, Variant::Othello8.scoring());
    Ok(Input { task, board, cutoff })
}

/// A value as the logs print it.
fn value_text(value: i32) -> String {
    match value {
        INFINITY => "Infinity".into(),
        v if v == -INFINITY => "-Infinity".into(),
        v => v.to_string(),
    }
}

/// Writes the traverse log: `Node,Depth,Value` (minimax) or
/// `Node,Depth,Value,Alpha,Beta` (alpha-beta), one line per event.
#[derive(Default)]
struct TraverseLog(String);

impl Observer<Move<Size8>> for TraverseLog {
    fn visit(&mut self, visit: &Visit<Move<Size8>>) {
        let log = &mut self.0;
        match visit.mv {
            Some(mv) => write!(log, "{mv}"),
            None => log.write_str("root"),
        }
        .and_then(|()| write!(log, ",{},{}", visit.depth, value_text(visit.value)))
        .and_then(|()| match visit.window {
            Some(w) => write!(log, ",{},{}", value_text(w.alpha), value_text(w.beta)),
            None => Ok(()),
        })
        .and_then(|()| log.write_char('\n'))
        .expect("writing to a String cannot fail");
    }
}

/// The board rows with `*` for empty cells.
fn board_text(board: &Board8) -> String {
    board.rows().iter().map(|row| row.replace('.', "*") + "\n").collect()
}

/// The strong engine's move (the competition task). Should the engine fail
/// or answer an illegal move, the greedy move is played instead: the
/// competition output is always a legal next state.
fn competition_move(board: &Board8) -> Move<Size8> {
    let config = EngineConfig { move_time: Some(COMPETITION_MOVE_TIME), ..EngineConfig::default() };
    let chosen =
        reversi_engine::<Size8>(Variant::Othello8, config).map(|mut engine| engine.choose(board, &Clock::UNLIMITED).mv);
    match chosen {
        Ok(mv) if board.is_legal(mv) => return mv,
        Ok(mv) => eprintln!("reversi-2014: the engine chose the illegal move {mv}; playing the greedy move"),
        Err(message) => eprintln!("reversi-2014: the engine failed ({message}); playing the greedy move"),
    }
    greedy_move(board).unwrap_or(board.legal_moves()[0])
}

/// The best move by the positional weights one ply ahead (`None` when the
/// root is already a leaf: a full board or a side without discs).
fn greedy_move(board: &Board8) -> Option<Move<Size8>> {
    minimax(&Positional { max: board.to_move(), cutoff: 1 }, board, &mut (), None).best
}

/// The text of `output.txt`.
fn solve(input: &Input) -> String {
    let board = &input.board;
    let max = board.to_move();
    let (next, log) = match input.task {
        Task::Greedy => (greedy_move(board), None),
        Task::Minimax => {
            let mut log = TraverseLog("Node,Depth,Value\n".into());
            let outcome = minimax(&Positional { max, cutoff: input.cutoff }, board, &mut log, None);
            (outcome.best, Some(log.0))
        }
        Task::AlphaBeta => {
            let mut log = TraverseLog("Node,Depth,Value,Alpha,Beta\n".into());
            let outcome = alpha_beta(&Positional { max, cutoff: input.cutoff }, board, &mut log, None);
            (outcome.best, Some(log.0))
        }
        Task::Competition if board.is_terminal() => (None, None),
        Task::Competition => (Some(competition_move(board)), None),
    };
    let after = next.map_or(*board, |mv| board.result(mv));
    board_text(&after) + log.as_deref().unwrap_or("")
}

fn run() -> Result<(), String> {
    let text = std::fs::read_to_string(INPUT).map_err(|e| format!("{INPUT}: cannot read: {e}"))?;
    let input = parse_input(&text)?;
    let output = solve(&input);
    std::fs::write(OUTPUT, output).map_err(|e| format!("{OUTPUT}: cannot write: {e}"))
}

/// What `--help` prints: what the program does first, then how to run it.
const HELP: &str = "\
The 8x8 greedy / minimax / alpha-beta handout program: reads input.txt, writes the next state (and the traverse log) to output.txt.

usage: reversi-2014
  input.txt: the task (1 greedy, 2 minimax, 3 alpha-beta, 4 competition),
  the player X or O, the cutoff depth, then 8 rows of *, X, O.
";

fn main() -> ExitCode {
    if reversi::protocol::asks_for_help(std::env::args().skip(1)) {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("reversi-2014: {message}");
            ExitCode::FAILURE
        }
    }
}
