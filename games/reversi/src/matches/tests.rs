//! Reversi's match adapter: the file protocol, the flattened form,
//! scoring, balanced suites and random openings.

use super::reversi::ReversiProtocol;
use crate::{Size4, Size8, Size12, Variant};
use engine_core::agent::Clock;
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use engine_core::playout::random_line;
use engine_core::search::EngineConfig;
use selfplay::checks::check_suite;
use selfplay::job::{Job, Schedule};
use selfplay::openings::{LOOKAHEAD, SuiteGame, SuiteSpec, canonical, ends_in_playout};
use selfplay::protocol::GameProtocol;
use selfplay::run::{OPENING_LOOKAHEAD, OPENING_STREAM, ends_within, opening};

#[test]
fn flat_form_round_trips_and_matches_the_documented_example() {
    let p = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    let start = p.start();
    assert_eq!(p.flatten(&start), "X/..../.OX./.XO./....");
    assert_eq!(p.parse_flat("X/..../.OX./.XO./....").unwrap(), start);
    assert!(p.parse_flat("X/..../.OX./.XO.").unwrap_err().contains("found 4 fields"));
    assert!(p.parse_flat("X/..../.OX./.XQ./....").unwrap_err().starts_with("field 4:"));
}

#[test]
fn input_file_follows_the_duo_handout() {
    let p = ReversiProtocol::<Size12>::new(Variant::Duo12);
    let text = p.input_file(&p.start(), &Clock { own_remaining: 300.0, opponent_remaining: 286.46 });
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[0], "O");
    assert_eq!(lines[1], "300 286.46");
    assert_eq!(lines[4], "..XO........");
    assert_eq!(lines[5], "..OX........");
    assert_eq!(lines[10], "........XO..");
    assert!(text.ends_with(".\n") && !text.contains('\r'));
}

#[test]
fn output_parsing_accepts_one_move_line() {
    let p = ReversiProtocol::<Size12>::new(Variant::Duo12);
    assert_eq!(p.parse_output("c2\n").unwrap().to_string(), "c2");
    assert_eq!(p.parse_output("l12").unwrap().to_string(), "l12");
    for bad in ["", "C2\n", "c 2\n", "m1\n", "c13\n", "pass\n", "c2\nd3\n", "c2\r\n"] {
        assert!(p.parse_output(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn duo_ties_go_to_time_then_x() {
    let p = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    // Tiny4 has no tie rule: a level game is a draw.
    let level = p.parse_flat("X/XXOO/XXOO/XXOO/XXOO").unwrap();
    assert_eq!(p.outcome(&level, [1.0, 2.0]).winner, None);
    let duo = ReversiProtocol::<Size12>::new(Variant::Duo12);
    // O has one disc more than X: the +1 bonus levels the score.
    let mut rows = vec!["XXXXXXOOOOOO".to_string(); 12];
    rows[0] = "XXXXX.OOOOOO".into();
    let text = format!("X/{}", rows.join("/"));
    let pos = duo.parse_flat(&text).unwrap();
    let o = duo.outcome(&pos, [10.0, 20.0]);
    assert_eq!((o.score, o.counts, o.tiebreak), (0, [71, 72], true));
    assert_eq!(o.winner, Some(Color::White));
    assert_eq!(duo.outcome(&pos, [20.0, 10.0]).winner, Some(Color::Black));
    assert_eq!(duo.outcome(&pos, [10.0, 10.0]).winner, Some(Color::Black));
}

#[test]
fn the_eight_images_of_a_position_share_one_canonical_form() {
    let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
    let mut state = protocol.start();
    // f5, then the reply d6: an opening with no symmetry of its own.
    for name in ["f5", "d6", "c3"] {
        let mv = state.legal_moves().iter().copied().find(|m| m.to_string() == name).unwrap();
        state.make(mv);
    }
    let flat = protocol.flatten(&state);
    let rows: Vec<String> = flat.split('/').skip(1).map(String::from).collect();
    let side = flat.split('/').next().unwrap();
    let transposed: Vec<String> = (0..8).map(|c| rows.iter().map(|r| r.as_bytes()[c] as char).collect()).collect();
    let mirrored: Vec<String> = rows.iter().map(|r| r.chars().rev().collect()).collect();
    for image in [transposed, mirrored] {
        let other = format!("{side}/{}", image.join("/"));
        assert_ne!(other, flat);
        assert_eq!(canonical(&other, 1), canonical(&flat, 1));
    }
    // The start position is its own image; another opening is not.
    let start = protocol.flatten(&protocol.start());
    assert_ne!(canonical(&start, 1), canonical(&flat, 1));
}

#[test]
fn suites_hold_distinct_balanced_playable_positions() {
    let spec = SuiteSpec { plies: 6, window: 2.0, count: 12, depth: 3, seed: 4, lookahead: LOOKAHEAD, playout: 0 };
    let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
    check_suite(&protocol, &spec, |pos| 60 - pos.empty_count());
}

/// Two positions of the first duo12 depth-12 suite whose games, in a
/// match against `classic` at 300 s (2026-11-27), ended after 3 and 4
/// plies with 19 discs on the board, whoever played which side.
const BLOCKED_DUO12: [&str; 2] = [
    "O/............/............/........OX../........XO../.........XXX/............/............/...O......../..OO......../..XO......../.XO........./.OX.........",
    "O/............/........X.../........XOO./........OO../.......OO.X./............/............/............/..OX......../XXXX......../...X......../............",
];

#[test]
fn duo12_suites_with_lookahead_and_playout_hold_no_blocked_position() {
    let protocol = ReversiProtocol::<Size12>::new(Variant::Duo12);
    let spec = SuiteSpec { plies: 8, window: 6.0, count: 4, depth: 2, seed: 26, lookahead: 4, playout: 40 };
    let start_empties = protocol.start().empty_count();
    check_suite(&protocol, &spec, |pos| start_empties - pos.empty_count());
    let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
    for flat in BLOCKED_DUO12 {
        let pos = protocol.parse_flat(flat).unwrap();
        assert!(!ends_within(&pos, LOOKAHEAD), "{flat}: the old suites' check let it through");
        assert!(ends_within(&pos, 4) || ends_in_playout(&mut engine, &pos, 40), "{flat}");
    }
}

/// Pair 40 of a duo12 run with seed 41 and 8 random plies drew this
/// opening before openings were checked (ChaCha8 streams, up to a907194);
/// its games ended two plies later.
const DEAD_OPENING: &str = "O/............/............/.OOO......../..OOO......./.OX........./............/............/.........X../........XX../.......XOX../.......X..../.......X....";

#[test]
fn random_openings_that_end_within_two_plies_are_drawn_again() {
    let protocol = ReversiProtocol::<Size12>::new(Variant::Duo12);
    let dead = protocol.parse_flat(DEAD_OPENING).unwrap();
    assert!(ends_within(&dead, OPENING_LOOKAHEAD) && !ends_within(&dead, 0));
    assert!(!ends_within(&protocol.start(), OPENING_LOOKAHEAD));
    let job = Job {
        variant: "duo12".into(),
        players: vec![],
        schedule: Schedule::Gauntlet,
        games: 2,
        seed: 41,
        openings: None,
        random_plies: 8,
        tc: 1.0,
        sample_every: 1,
        shard: None,
    };
    // The first draw of some pairs ends within two plies (as DEAD_OPENING
    // did); the opening played is drawn again, and no opening played does.
    let mut redrawn = 0;
    for k in 0..PAIRS_CHECKED {
        let first =
            random_line(protocol.start(), job.random_plies, &mut SplitMix::stream(job.seed, OPENING_STREAM + k));
        let drawn = opening(&protocol, &job, &[], k);
        assert!(!ends_within(&drawn, OPENING_LOOKAHEAD), "pair {k}");
        if ends_within(&first, OPENING_LOOKAHEAD) {
            redrawn += 1;
            assert_ne!(protocol.flatten(&drawn), protocol.flatten(&first), "pair {k}");
        } else {
            assert_eq!(protocol.flatten(&drawn), protocol.flatten(&first), "pair {k}");
        }
    }
    assert!(redrawn > 0, "no first draw of {PAIRS_CHECKED} pairs ended the game: the check saw no redraw");
}

/// Pairs whose openings the redraw test draws (about one first draw in
/// sixty ends a duo12 game within two plies).
const PAIRS_CHECKED: u64 = 600;
