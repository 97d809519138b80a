//! Connect Four against published facts, through the crate's public API
//! and the engine's generic search: position and game counts (OEIS), the
//! game-theoretic values of small boards (John Tromp, Christophe
//! Steininger), solved 7x6 positions (Pascal Pons), the engine against a
//! plain negamax, and engine matches.

use connect4::agents::{Record, play};
use connect4::board::move_string;
use connect4::perft::{complete_games, distinct_positions};
use connect4::{Column, Position, Size, WindowEval, engine_at_depth, random_agent};
use engine_core::agent::{Agent, Clock};
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use engine_core::playout::random_line;
use engine_core::search::{Limits, SearchResult, Searcher, WIN_BOUND, won_in};
use proptest::prelude::*;

/// Transposition table of the exact solves, in MiB.
const SOLVE_TABLE_MB: usize = 16;

fn size(width: usize, height: usize) -> Size {
    Size::new(width, height).unwrap_or_else(|e| panic!("{e}"))
}

fn pos(size: Size, moves: &str) -> Position {
    Position::from_moves(size, moves).unwrap_or_else(|e| panic!("{e}"))
}

/// The engine's generic search of `pos` to the end of the game (depth =
/// empty cells), a forced move searched too.
fn solve(pos: &Position, table_mb: usize) -> SearchResult<Column> {
    let mut searcher = Searcher::new(Box::new(WindowEval::default()), table_mb);
    let limits = Limits { depth: Some(pos.empties() as u32), search_forced: true, ..Limits::default() };
    searcher.search(pos, &limits)
}

/// A score of the search as win (1), draw (0) or loss (-1) for the side
/// to move; a score that is neither proven nor a draw fails.
fn outcome(score: Option<i32>) -> i32 {
    match score {
        Some(s) if s >= WIN_BOUND => 1,
        Some(s) if s <= -WIN_BOUND => -1,
        Some(0) => 0,
        other => panic!("not a solved score: {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Counts

/// OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n
/// plies" (John Tromp, 2012; the b-file copies P. Kissmann's table),
/// https://oeis.org/A212693, terms a(0)..a(12).
const A212693: [u64; 13] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101];

/// Plies of A212693 counted: 12 takes about 1.5 s in the optimised test
/// build (and 256 MiB for the last ply's keys).
const A212693_PLIES: usize = 12;

#[test]
fn distinct_positions_match_oeis_a212693() {
    let counts = distinct_positions(Size::STANDARD, A212693_PLIES);
    assert_eq!(counts[..], A212693[..=A212693_PLIES]);
}

/// OEIS A342329, "Number of different games of Connect Four on an (n+1) X
/// n board" (Robin Jehn, 2021), https://oeis.org/A342329: a(1)..a(4) for
/// the 2x1, 3x2, 4x3 and 5x4 boards (width x height).
const A342329: [(usize, usize, u64); 4] = [(2, 1, 2), (3, 2, 90), (4, 3, 356_232), (5, 4, 152_505_051_772)];

#[test]
fn complete_games_match_oeis_a342329() {
    for (width, height, games) in A342329 {
        assert_eq!(complete_games(size(width, height)), games, "{width}x{height}");
    }
}

// ---------------------------------------------------------------------------
// Exact values

/// John Tromp's table of solved board sizes ("John's Connect Four
/// Playground", https://tromp.github.io/c4/c4.html; the copy at
/// http://homepages.cwi.nl/~tromp/c4/c4.html shows the table): `=` a draw,
/// `-` a second-player win, `+` a first-player win. Christophe
/// Steininger's table (https://github.com/ChristopheSteininger/c4, README,
/// "Outcome" and "Last Move") agrees and adds the move on which the game
/// ends under perfect play. Entries: width, height, value for the first
/// player, last move. 7x6 itself (a first-player win with the first disc
/// in the centre column, Allis 1988 and Tromp; last move 41) is beyond a
/// test's time.
/// Boards solved here in about 2.5 s together; 7x4 (`=`) and 6x5 (`=`)
/// take a minute each with the generic search, 5x6 (`=`) 15 s.
const SOLVED_BOARDS: [(usize, usize, i32, u32); 6] = [
    (4, 4, 0, 16),  // 4x4 `=`, ends on move 16 (a full board)
    (5, 4, 0, 20),  // 5x4 `=`, ends on move 20
    (6, 4, -1, 24), // 6x4 `-`: the second player wins, with the 24th disc
    (4, 5, 0, 20),  // 4x5 `=`, ends on move 20
    (5, 5, 0, 25),  // 5x5 `=`, ends on move 25
    (4, 6, 0, 24),  // 4x6 `=`, ends on move 24
];

#[test]
fn the_generic_search_solves_small_boards_as_published() {
    for (width, height, value, last) in SOLVED_BOARDS {
        let empty = Position::new(size(width, height));
        let r = solve(&empty, SOLVE_TABLE_MB);
        assert_eq!(outcome(r.score), value, "{width}x{height}: {r:?}");
        if value != 0 {
            // A win `p` plies from the root scores won_in(p): the last move is disc `p`.
            assert_eq!(r.score.map(i32::abs), Some(won_in(last)), "{width}x{height}: {r:?}");
        }
    }
}

/// Pascal Pons, "Solving Connect 4: how to build a perfect AI", part 2
/// "Benchmarking solvers" (http://blog.gamesolver.org/solving-connect-four/02-test-protocol/):
/// its two worked examples, then the first 21 lines of its end-game test
/// set `Test_L3_R1` (the data file the page links, as quoted in a public
/// solver's test source, `testSolvers.java`). A score `s` is for the side
/// to move: positive, it wins with its `22 - s`-th disc; negative, the
/// opponent wins with its `22 + s`-th; 0, a draw.
const PONS: [(&str, i32); 23] = [
    ("4455", 18),
    ("44455554221", -15),
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("71255763773133525731261364622167124446454", 0),
    ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0),
    ("3135151421347443544172316522225776773566", 0),
    ("562154564361751726662253737734213275114", 0),
    ("233377345754465174223731671122611552", 1),
    ("6763525635134453444361412671365712", -1),
    ("211376455663355325112113664364524722", 0),
    ("3146762114467714356347741621375222", -1),
    ("67152117737262713366376314254", 6),
    ("2762751722231276466633475674533", 5),
    ("3642756176227637211322113551637574556", 2),
    ("22647455554314246733661634615122372377511", 0),
    ("427566236745127177115664464254", 2),
    ("7172212567451542223676134464437761515", 0),
    ("641154574541323641152467137655232232366", 0),
    ("5775265212657176476365522624313714333", 2),
    ("3575316255751336464276636772271112", -3),
];

/// Pons's score of a position after `plies` discs as the engine's: the
/// plies from the position to the winning disc, as [`won_in`].
fn pons_to_engine(plies: usize, s: i32) -> i32 {
    if s == 0 {
        return 0;
    }
    // The winner's disc count at the end, and whether the winner moved first.
    let (stones, sign, winner_first) =
        if s > 0 { (22 - s, 1, plies.is_multiple_of(2)) } else { (22 + s, -1, !plies.is_multiple_of(2)) };
    let disc = if winner_first { 2 * stones - 1 } else { 2 * stones };
    sign * won_in((disc - plies as i32) as u32)
}

#[test]
fn the_generic_search_scores_pons_positions_exactly() {
    for (moves, s) in PONS {
        let p = pos(Size::STANDARD, moves);
        let r = solve(&p, SOLVE_TABLE_MB);
        assert_eq!(r.score, Some(pons_to_engine(p.plies(), s)), "{moves} (Pons {s}): {r:?}");
    }
}

// ---------------------------------------------------------------------------
// Tactics through the engine

#[test]
fn the_engine_takes_an_immediate_win() {
    // X to move: a1-c1 wins at d1; O's a2-c2 would win at d2.
    let p = pos(Size::STANDARD, "112233");
    let d = engine_at_depth(4).choose(&p, &Clock::UNLIMITED);
    assert_eq!((d.mv, d.score), (Column::new(3), Some(won_in(1))));
}

#[test]
fn the_engine_blocks_an_immediate_loss() {
    // O to move must block X's d1 (X: a1-c1).
    let p = pos(Size::STANDARD, "11223");
    let d = engine_at_depth(4).choose(&p, &Clock::UNLIMITED);
    assert_eq!(d.mv, Column::new(3));
}

#[test]
fn the_engine_gives_no_four_away() {
    // X to move; O holds a2-c2, so a disc of X's on d1 lets O drop d2.
    let p = pos(Size::STANDARD, "12317273");
    assert_eq!(p.opponent_wins() & p.playable(), 0, "no immediate threat yet");
    let d = engine_at_depth(2).choose(&p, &Clock::UNLIMITED);
    assert_ne!(d.mv, Column::new(3), "{d:?}");
    let mut after = p;
    after.make(Column::new(3));
    let reply = engine_at_depth(2).choose(&after, &Clock::UNLIMITED);
    assert_eq!((reply.mv, reply.score), (Column::new(3), Some(won_in(1))));
}

#[test]
fn the_engine_sees_a_double_threat() {
    // X: b1, c1; O: g1, g2. d1 opens b1-d1 at both ends: a win in 3 plies.
    let p = pos(Size::STANDARD, "2737");
    let d = engine_at_depth(4).choose(&p, &Clock::UNLIMITED);
    assert_eq!((d.mv, d.score), (Column::new(3), Some(won_in(3))));
}

// ---------------------------------------------------------------------------
// The engine's exact search against a plain negamax

/// The value of `pos` for the side to move, win 1, draw 0, loss -1, by
/// alpha-beta negamax over the `Game` trait alone.
fn negamax(pos: &mut Position, mut alpha: i32, beta: i32) -> i32 {
    if pos.is_terminal() {
        return pos.final_score_for_mover();
    }
    let mut best = -1;
    for &c in pos.legal_moves().iter() {
        let undo = pos.make(c);
        let v = -negamax(pos, -beta, -alpha);
        pos.unmake(c, undo);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The position `choices` reach on `size` (each picks among the legal
/// moves), if it is not over.
fn position_from_choices(size: Size, choices: &[usize]) -> Option<Position> {
    let mut p = Position::new(size);
    for &choice in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None;
        }
        p.make(moves[choice % moves.len()]);
    }
    (!p.is_terminal()).then_some(p)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn exact_search_agrees_with_negamax(
        board in 0..3usize,
        choices in proptest::collection::vec(0..16usize, 4..12),
    ) {
        let size = [size(4, 4), size(5, 4), size(4, 5)][board];
        let Some(mut p) = position_from_choices(size, &choices) else { return Ok(()) };
        let value = negamax(&mut p, -1, 1);
        let r = solve(&p, 1);
        prop_assert_eq!(outcome(r.score), value, "{:?}", p);
        // The chosen move keeps the value.
        let mut after = p;
        after.make(r.best);
        prop_assert_eq!(-negamax(&mut after, -1, 1), value, "{:?} best {}", p, r.best);
    }
}

// ---------------------------------------------------------------------------
// Matches

/// Positions after `plies` random moves from the empty board, from `seed`
/// (still open).
fn openings(count: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let p = random_line(Position::default(), plies as u32, &mut rng);
        if !p.is_terminal() {
            out.push(p);
        }
    }
    out
}

/// The games of `a` against `b` from each opening, `a` first as Black then
/// as White: (a's wins, b's wins, draws).
fn match_score(a: &mut dyn Agent<Position>, b: &mut dyn Agent<Position>, starts: &[Position]) -> (u32, u32, u32) {
    let mut score = (0, 0, 0);
    for start in starts {
        for a_black in [true, false] {
            let record: Record = if a_black { play(start, a, b) } else { play(start, b, a) };
            let a_color = if a_black { Color::Black } else { Color::White };
            match record.winner() {
                Some(c) if c == a_color => score.0 += 1,
                Some(_) => score.1 += 1,
                None => score.2 += 1,
            }
            // Every game ran to its end, one disc a move.
            assert!(record.end.is_terminal());
            assert_eq!(record.end.plies(), start.plies() + record.moves.len(), "{}", move_string(&record.moves));
        }
    }
    score
}

#[test]
fn a_deeper_engine_wins_more() {
    // Twelve seeded two-ply openings, each played with both colours: 24
    // games. (Seeds 0-7 gave depth 6 between 13 and 19 wins, depth 2
    // between 2 and 8; six openings were too few to ask for more.)
    let starts = openings(12, 2, 7);
    let (deep, shallow, draws) = match_score(&mut engine_at_depth(6), &mut engine_at_depth(2), &starts);
    assert!(deep >= shallow + 4, "depth 6 {deep} wins, depth 2 {shallow}, {draws} draws");
}

#[test]
fn the_engine_beats_a_random_player() {
    let starts = openings(2, 0, 0);
    let (engine, random, _) = match_score(&mut engine_at_depth(4), &mut random_agent(11), &starts);
    assert_eq!((engine, random), (4, 0));
}

/// A `selfplay` match through the match runner's public API: 20 games
/// (colour-swapped pairs from random openings) between the engine at depth
/// 5 and at depth 1, written to `games.csv`; the deeper engine wins the
/// match, and the games read back as Connect Four positions.
#[test]
fn a_selfplay_match_between_two_engine_settings_writes_its_games() {
    use connect4::matches::Connect4Protocol;
    use selfplay::job::{Job, Schedule};
    use selfplay::protocol::GameProtocol;
    use selfplay::record;
    use selfplay::run::{self, RunOptions};
    let out = std::env::temp_dir().join(format!("connect4-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let job = Job {
        variant: "connect4".into(),
        players: vec!["engine:depth=5,tt=4".into(), "engine:depth=1,tt=4".into()],
        schedule: Schedule::RoundRobin,
        games: 20,
        seed: 1,
        openings: None,
        random_plies: 2,
        tc: 60.0,
        sample_every: 1,
        shard: None,
    };
    let options = RunOptions {
        out: out.clone(),
        threads: 2,
        sprt: None,
        command: vec!["test".into()],
        quiet: true,
        executor: Default::default(),
    };
    let summary = run::run(&Connect4Protocol, &job, &options).unwrap();
    assert_eq!(summary.games, 20);
    let games = record::games_in(&out).unwrap();
    assert_eq!(games.len(), 20);
    let deep_points: f64 = games
        .iter()
        .map(|g| {
            let black = g.black_points().expect("a finished game");
            if g.black.contains("depth=5") { black } else { 1.0 - black }
        })
        .sum();
    assert!(deep_points >= 15.0, "depth 5 scored {deep_points} of 20");
    for g in &games {
        let opening = Connect4Protocol.parse_flat(&g.opening).unwrap();
        assert_eq!(opening.plies(), 2, "{}", g.opening);
    }
    let _ = std::fs::remove_dir_all(&out);
}
