//! `reversi-tiny FLAG PLAYER BOARD`: the Reversi Tiny handout's program
//! (4x4; see docs/src/programs/reversi-tiny.md). BOARD is 16 characters of `0` (empty), `1` (dark)
//! and `2` (light) in reading order; PLAYER (1 or 2) is to move.
//!
//! FLAG 100 successors, 200 terminal test and value, 300 minimax value and
//! calls, 400 minimax move, 500 alpha-beta value and calls, 600 alpha-beta
//! move. MAX is dark whoever is to move; values are +1/-1/0.

use engine_core::bitboard::BitSet;
use engine_core::game::{Color, Game};
use engine_core::textbook::{TextbookResult, WinLossDraw, alpha_beta, minimax};
use reversi::{Geometry, Position, Size4, Variant};
use std::process::ExitCode;

type Board = Position<Size4>;
type Bits4 = <Size4 as Geometry>::Bits;

const USAGE: &str = "usage: reversi-tiny FLAG PLAYER BOARD  (FLAG 100..600 in hundreds, PLAYER 1 or 2, \
                     BOARD 16 characters of 0, 1, 2)";

/// What the program prints.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flag {
    Successors,
    Terminal,
    MinimaxValue,
    MinimaxMove,
    AlphaBetaValue,
    AlphaBetaMove,
}

impl Flag {
    fn parse(text: &str) -> Result<Flag, String> {
        Ok(match text {
            "100" => Flag::Successors,
            "200" => Flag::Terminal,
            "300" => Flag::MinimaxValue,
            "400" => Flag::MinimaxMove,
            "500" => Flag::AlphaBetaValue,
            "600" => Flag::AlphaBetaMove,
            _ => return Err(format!("FLAG: expected 100, 200, 300, 400, 500 or 600, found `{text}`")),
        })
    }
}

fn parse_player(text: &str) -> Result<Color, String> {
    match text {
        "1" => Ok(Color::Black),
        "2" => Ok(Color::White),
        _ => Err(format!("PLAYER: expected 1 (dark) or 2 (light), found `{text}`")),
    }
}

fn parse_board(text: &str, to_move: Color) -> Result<Board, String> {
    let count = text.chars().count();
    if count != Size4::CELLS {
        return Err(format!("BOARD: expected {} characters of 0, 1, 2, found {count}", Size4::CELLS));
    }
    let (mut dark, mut light) = (Bits4::EMPTY, Bits4::EMPTY);
    for (cell, ch) in text.chars().enumerate() {
        match ch {
            '0' => {}
            '1' => dark |= Bits4::bit(cell),
            '2' => light |= Bits4::bit(cell),
            other => {
                return Err(format!("BOARD: expected 0, 1 or 2 at position {}, found `{other}`", cell + 1));
            }
        }
    }
    Ok(Position::from_discs(dark, light, to_move, Variant::Tiny4.scoring()))
}

/// The board as 16 digits.
fn board_string(board: &Board) -> String {
    let (dark, light) = (board.discs(Color::Black), board.discs(Color::White));
    (0..Size4::CELLS)
        .map(|cell| {
            if dark.contains(cell) {
                '1'
            } else if light.contains(cell) {
                '2'
            } else {
                '0'
            }
        })
        .collect()
}

/// The lines the program prints for `flag` on `board`.
fn run(flag: Flag, board: &Board) -> Vec<String> {
    let problem = WinLossDraw { max: Color::Black };
    let value_and_calls = |outcome: TextbookResult<_>| vec![outcome.value.to_string(), outcome.calls.to_string()];
    let chosen =
        |outcome: TextbookResult<_>| outcome.best.map(|mv| board_string(&board.result(mv))).into_iter().collect();
    match flag {
        Flag::Successors => board.legal_moves().iter().map(|&mv| board_string(&board.result(mv))).collect(),
        Flag::Terminal if board.is_terminal() => vec![board.final_score().signum().to_string()],
        Flag::Terminal => vec!["non-terminal".into()],
        Flag::MinimaxValue => value_and_calls(minimax(&problem, board, &mut (), None)),
        Flag::MinimaxMove => chosen(minimax(&problem, board, &mut (), None)),
        Flag::AlphaBetaValue => value_and_calls(alpha_beta(&problem, board, &mut (), None)),
        Flag::AlphaBetaMove => chosen(alpha_beta(&problem, board, &mut (), None)),
    }
}

fn parse_args(args: &[String]) -> Result<(Flag, Board), String> {
    let [flag, player, board] = args else {
        return Err(format!("expected 3 arguments, found {}", args.len()));
    };
    let flag = Flag::parse(flag)?;
    let player = parse_player(player)?;
    Ok((flag, parse_board(board, player)?))
}

/// What `--help` prints: what the program does first, then how to run it.
const HELP: &str = "\
The Reversi Tiny (4x4) handout program: successors, terminal values and minimax/alpha-beta answers.

usage: reversi-tiny FLAG PLAYER BOARD
  FLAG 100 successors, 200 terminal test and value, 300 minimax value and
  calls, 400 minimax move, 500 alpha-beta value and calls, 600 alpha-beta
  move; PLAYER 1 (dark) or 2 (light) to move; BOARD 16 characters of 0
  (empty), 1 (dark), 2 (light) in reading order.
";

fn main() -> ExitCode {
    if reversi::protocol::asks_for_help(std::env::args().skip(1)) {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let args: Vec<String> = std::env::args_os().skip(1).map(|arg| arg.to_string_lossy().into_owned()).collect();
    match parse_args(&args) {
        Ok((flag, board)) => {
            for line in run(flag, &board) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("reversi-tiny: {message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
