//! The interactive game (handout 004) driven through standard input: the
//! handout's full transcript, input validation, the full-depth agents'
//! perfect 4x4 play, and complete games against every opponent, each move
//! replayed with the rules library.

use engine_core::game::{Color, Game};
use reversi::{Geometry, Move, Position, Size4, Size6, Size8, Size12, Variant};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `reversi-play` with `args`, feeding `script` on standard input;
/// returns stdout with the time figures replaced by `T`.
fn play(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi-play"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("reversi-play starts");
    // The program may stop reading early (game over): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(script.as_bytes());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "exit {:?}: {stderr}", output.status);
    // (The strong engine may log to stderr; an illegal agent move may not happen.)
    assert!(!stderr.contains("illegal"), "stderr: {stderr}");
    String::from_utf8(output.stdout).unwrap().lines().map(|line| hide_time(line) + "\n").collect()
}

/// Replaces the seconds in `Elapsed time: 1.234 secs` and `  DARK/X: 1.234 secs`.
fn hide_time(line: &str) -> String {
    match line.strip_suffix(" secs").and_then(|l| l.rsplit_once(' ')) {
        Some((head, secs)) if secs.parse::<f64>().is_ok() && !head.starts_with("I'm") => format!("{head} T secs"),
        _ => line.to_owned(),
    }
}

/// A human who tries every cell in reading order, then `pass`, again and
/// again: the program accepts the first legal entry, so this plays legal
/// moves only through the program's own validation.
fn sweeping_human(size: usize, turns: usize) -> String {
    let mut sweep: Vec<String> =
        (1..=size).flat_map(|row| (0..size).map(move |col| format!("{}{row}", (b'a' + col as u8) as char))).collect();
    sweep.push("pass".into());
    sweep.iter().cycle().take(turns * sweep.len()).map(|entry| format!("{entry}\n")).collect()
}

/// The moves of a transcript (`X@a2`, `O@pass`), in order.
fn moves(transcript: &str) -> Vec<(Color, String)> {
    transcript
        .lines()
        .filter_map(|line| match line.split_once('@') {
            Some(("X", mv)) => Some((Color::Black, mv.to_owned())),
            Some(("O", mv)) => Some((Color::White, mv.to_owned())),
            _ => None,
        })
        .collect()
}

/// Replays the transcript's moves with the rules library: each is legal and
/// by the side to move, the game ends, and the printed count is right.
/// Returns the final position.
fn replay<G: Geometry>(variant: Variant, transcript: &str) -> Position<G> {
    let mut pos: Position<G> = variant.start();
    for (color, text) in moves(transcript) {
        let mv = Move::<G>::parse(&text).unwrap_or_else(|| panic!("bad move {text}"));
        assert_eq!(color, pos.to_move(), "{text} by the wrong side");
        assert!(pos.is_legal(mv), "illegal move {text} in\n{pos}");
        pos.make(mv);
    }
    assert!(pos.is_terminal(), "game not finished:\n{transcript}");
    let (dark, light) = pos.disc_counts();
    let bonus = if variant == Variant::Duo12 { " (+1 bonus)" } else { "" };
    assert!(transcript.contains(&format!("\nDiscs: DARK/X {dark}{bonus}, LIGHT/O {light}\n")), "{transcript}");
    pos
}

/// The handout's full game, with its random opponent's moves (c1, c4, a3,
/// b1, b4, d3) reproduced by seed 261. Differences from the handout, on
/// purpose: the title, "COLUMN then ROW" (the handout says LETTER), the quit
/// hint, no "Next to play" once the game is over, the disc count, and the
/// board rows aligned (the handout's conversion shifted some).
const HANDOUT_GAME: &str = "Reversi

Choose your game:
1. Small 4x4 Reversi
2. Medium 6x6 Reversi
3. Standard 8x8 Reversi
4. Large 10x10 Reversi
5. Huge 12x12 Reversi
6. Duo-Othello (12x12, LIGHT/O moves first, DARK/X gets +1)
Your choice? 1

Choose your opponent:
1. An agent that plays randomly
2. An agent that uses MINIMAX
3. An agent that uses MINIMAX with alpha-beta pruning
4. An agent that uses H-MINIMAX with a fixed depth cutoff and a-b pruning
5. The strong engine (2 secs per move)
Your choice? 1

Do you want to play DARK (X) or LIGHT (O)? x

  a b c d
1         1
2   O X   2
3   X O   3
4         4
  a b c d
Next to play: DARK/X

Your move (? for help): ?
Enter moves as COLUMN then ROW.
For example, \"a1\" is the top left corner.
Enter \"pass\" (without the quotes) if you have no legal moves.
Enter \"quit\" to stop the game.

Your move (? for help): a2
Elapsed time: T secs
X@a2

  a b c d
1         1
2 X X X   2
3   X O   3
4         4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@c1

  a b c d
1     O   1
2 X X O   2
3   X O   3
4         4
  a b c d
Next to play: DARK/X

Your move (? for help): d4
Elapsed time: T secs
X@d4

  a b c d
1     O   1
2 X X O   2
3   X X   3
4       X 4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@c4

  a b c d
1     O   1
2 X X O   2
3   X O   3
4     O X 4
  a b c d
Next to play: DARK/X

Your move (? for help): d4
location is occupied: d4
Try again

Your move (? for help): 4d
invalid location: 4d
Try again

Your move (? for help): a1
invalid move: X@a1
Valid moves are: [X@b4, X@d1, X@d2, X@d3]
Try again

Your move (? for help): d1
Elapsed time: T secs
X@d1

  a b c d
1     O X 1
2 X X X   2
3   X O   3
4     O X 4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@a3

  a b c d
1     O X 1
2 X O X   2
3 O O O   3
4     O X 4
  a b c d
Next to play: DARK/X

Your move (? for help): a1
Elapsed time: T secs
X@a1

  a b c d
1 X   O X 1
2 X X X   2
3 O O X   3
4     O X 4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@b1

  a b c d
1 X O O X 1
2 X O X   2
3 O O X   3
4     O X 4
  a b c d
Next to play: DARK/X

Your move (? for help): a4
Elapsed time: T secs
X@a4

  a b c d
1 X O O X 1
2 X O X   2
3 X X X   3
4 X   O X 4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@b4

  a b c d
1 X O O X 1
2 X O X   2
3 X O X   3
4 X O O X 4
  a b c d
Next to play: DARK/X

Your move (? for help): d2
invalid move: X@d2
Valid moves are: []
Try again

Your move (? for help): pass
Elapsed time: T secs
X@pass

  a b c d
1 X O O X 1
2 X O X   2
3 X O X   3
4 X O O X 4
  a b c d
Next to play: LIGHT/O

I'm picking a move randomly...
Elapsed time: T secs
O@d3

  a b c d
1 X O O X 1
2 X O O   2
3 X O O O 3
4 X O O X 4
  a b c d
Next to play: DARK/X

Your move (? for help): d2
Elapsed time: T secs
X@d2

  a b c d
1 X O O X 1
2 X X X X 2
3 X O O X 3
4 X O O X 4
  a b c d

Discs: DARK/X 10, LIGHT/O 6
Winner: DARK/X
Total time:
  DARK/X: T secs
  LIGHT/O: T secs
";

#[test]
fn the_handouts_full_game() {
    let script = "1\n1\nx\n?\na2\nd4\nd4\n4d\na1\nd1\na1\na4\nd2\npass\nd2\n";
    let transcript = play(&["--seed", "261"], script);
    assert_eq!(transcript, HANDOUT_GAME);
    replay::<Size4>(Variant::Tiny4, &transcript);
}

#[test]
fn minimax_explores_the_tiny_handouts_count() {
    // Reversi Tiny handout: minimax from 0000111001200000 with light to move
    // makes 56205 Max-Value/Min-Value calls.
    let transcript = play(&[], "1\n2\nx\na2\n");
    assert!(
        transcript.contains("I'm searching the whole game tree with MINIMAX...\nExplored 56205 states\n"),
        "{transcript}"
    );
    assert!(transcript.ends_with("Your move (? for help): \nEnd of input: game abandoned.\n"), "{transcript}");
}

#[test]
fn full_depth_agents_play_4x4_perfectly() {
    // With perfect play the first player loses 4x4 by 8 discs, so an agent
    // playing perfectly as light wins by at least 8 against anyone.
    for opponent in ["2", "3"] {
        let transcript = play(&[], &format!("1\n{opponent}\nx\n{}", sweeping_human(4, 20)));
        let end = replay::<Size4>(Variant::Tiny4, &transcript);
        assert!(end.final_score() <= -8, "opponent {opponent}: {}\n{transcript}", end.final_score());
        assert!(transcript.contains("\nWinner: LIGHT/O\n"));
    }
}

#[test]
fn alpha_beta_chooses_the_same_moves_as_minimax() {
    let minimax = play(&[], &format!("1\n2\nx\n{}", sweeping_human(4, 20)));
    let alpha_beta = play(&[], &format!("1\n3\nx\n{}", sweeping_human(4, 20)));
    assert_eq!(moves(&minimax), moves(&alpha_beta));
}

#[test]
fn complete_games_against_every_opponent() {
    // H-MINIMAX with a depth cutoff, as dark (the computer moves first).
    let transcript = play(&[], &format!("2\n4\n3\no\n{}", sweeping_human(6, 40)));
    assert!(transcript.contains("I'm searching 3 plies ahead with H-MINIMAX and alpha-beta pruning...\n"));
    replay::<Size6>(Variant::Othello6, &transcript);
    // H-MINIMAX with a time limit on 8x8.
    let transcript = play(&[], &format!("3\n4\n0.02s\nx\n{}", sweeping_human(8, 40)));
    assert!(transcript.contains("I'm searching for up to 0.020 secs with H-MINIMAX and alpha-beta pruning...\n"));
    replay::<Size8>(Variant::Othello8, &transcript);
    // The strong engine.
    let transcript = play(&["--engine-time", "0.05"], &format!("1\n5\nx\n{}", sweeping_human(4, 20)));
    assert!(transcript.contains("The strong engine is thinking...\n"));
    replay::<Size4>(Variant::Tiny4, &transcript);
    // Random on Duo-Othello, where light moves first and dark gets +1.
    let transcript = play(&["--seed", "7"], &format!("6\n1\nx\n{}", sweeping_human(12, 80)));
    let first_turn = transcript.split("Next to play: ").nth(1).unwrap();
    assert!(first_turn.starts_with("LIGHT/O\n\nI'm picking a move randomly...\n"), "{first_turn}");
    replay::<Size12>(Variant::Duo12, &transcript);
}

#[test]
fn menus_validate_and_warn_about_unbounded_searches() {
    let script = "9\nthree\n3\n2\nn\n4\nzero\n0\n3\nq\nx\n";
    let transcript = play(&[], script);
    for expected in [
        "Your choice? 9\ninvalid choice: 9 (enter a number from 1 to 6)\nTry again\n\nYour choice? three\n",
        "invalid choice: three (enter a number from 1 to 6)\nTry again\n\nYour choice? 3\n",
        "Your choice? 2\nWarning: this agent searches the whole game tree, which will not finish on the 8x8 board.\n\
         Choose 4 (H-MINIMAX with a depth cutoff and a-b pruning) to play on this board.\n\
         Play against it anyway? (y/n) n\n\nChoose your opponent:\n",
        "invalid search limit: zero (a depth from 1 to 60, or seconds like 2s)\nTry again\n",
        "invalid search limit: 0 (a depth from 1 to 60, or seconds like 2s)\nTry again\n",
        "Do you want to play DARK (X) or LIGHT (O)? q\ninvalid choice: q (enter X or O)\nTry again\n",
        "Next to play: DARK/X\n\nYour move (? for help): \nEnd of input: game abandoned.\n",
    ] {
        assert!(transcript.contains(expected), "missing:\n{expected}\nin:\n{transcript}");
    }
    // End of input during the menus ends the program cleanly too.
    assert!(play(&[], "1\n").ends_with("Your choice? \nEnd of input.\n"));
}

#[test]
fn boards_have_coordinates_on_all_sides() {
    let transcript = play(&[], "4\n1\nx\nquit\n");
    let board = "   a b c d e f g h i j\n \
                  1                     1\n \
                  2                     2\n \
                  3                     3\n \
                  4                     4\n \
                  5         O X         5\n \
                  6         X O         6\n \
                  7                     7\n \
                  8                     8\n \
                  9                     9\n\
                 10                     10\n   a b c d e f g h i j\n";
    assert!(transcript.contains(board), "{transcript}");
    assert!(transcript.ends_with("Your move (? for help): quit\nGame abandoned.\n"));
}

#[test]
fn input_is_case_insensitive_and_passing_with_moves_left_is_refused() {
    let transcript = play(&[], "1\n1\nX\npass\nA2\n");
    assert!(transcript.contains(
        "Your move (? for help): pass\ninvalid move: X@pass\nValid moves are: [X@a2, X@b1, X@c4, X@d3]\nTry again\n"
    ));
    assert!(transcript.contains("Your move (? for help): A2\nElapsed time: T secs\nX@a2\n"));
}
