//! The match adapters of Reversi and Pente: the file protocols, the
//! flattened forms, scoring, balanced suites and random openings.

use super::pente::PenteProtocol;
use super::reversi::ReversiProtocol;
use crate::pente;
use crate::pente::{Cell, PentePosition};
use crate::protocol;
use crate::reversi::{Size4, Size8, Size12, Variant};
use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use engine_core::playout::random_line;
use engine_core::search::Budget;
use engine_core::search::EngineConfig;
use selfplay::openings::{
    LOOKAHEAD, MAX_LOOKAHEAD, SYMMETRIES, SuiteEntry, SuiteGame, SuiteSpec, canonical, ends_in_playout, make_suite,
};
use selfplay::protocol::{GameProtocol, ROW_SEPARATOR};
use selfplay::run::{Job, OPENING_LOOKAHEAD, OPENING_STREAM, Schedule, ends_within, opening};
use std::collections::HashSet;

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

/// The handout's example: White on 10K, 10N, 12K, Black on 11L, 10M,
/// Black to move.
fn handout_position() -> pente::PentePosition {
    let cell = |t: &str| pente::Cell::parse(t).unwrap();
    let stones = [("10K", Color::White), ("10N", Color::White), ("12K", Color::White)]
        .into_iter()
        .chain([("11L", Color::Black), ("10M", Color::Black)])
        .map(|(t, c)| (cell(t), c))
        .collect::<Vec<_>>();
    pente::PentePosition::from_stones(&stones, Color::Black, 0, 0)
}

#[test]
fn pente_input_file_follows_the_handout_and_reads_back() {
    let p = PenteProtocol;
    let pos = handout_position();
    let text = p.input_file(&pos, &Clock { own_remaining: 100.0, opponent_remaining: 7.5 });
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3 + 19);
    assert_eq!(&lines[..3], ["BLACK", "100", "0,0"]);
    // Row 19 is the first board line, so row r is line 3 + (19 - r).
    assert_eq!(lines[3 + 19 - 12], ".........w.........");
    assert_eq!(lines[3 + 19 - 11], "..........b........");
    assert_eq!(lines[3 + 19 - 10], ".........w.bw......");
    assert!(text.ends_with(".\n") && !text.contains('\r'));
    let read = protocol::pente::parse_input(&text).unwrap();
    assert_eq!((read.color, read.time_left), (Color::Black, 100.0));
    assert_eq!(read.position, pos);
    // A sliver of time stays positive in the file.
    let tiny = p.input_file(&pos, &Clock { own_remaining: 0.004, opponent_remaining: 1.0 });
    assert_eq!(protocol::pente::parse_input(&tiny).unwrap().time_left, 0.004);
}

#[test]
fn pente_flat_form_round_trips_with_captures() {
    let p = PenteProtocol;
    let empty_row = format!("/{}", ".".repeat(19));
    assert_eq!(p.flatten(&p.start()), format!("w/0,0{}", empty_row.repeat(19)));
    let mut agent = RandomAgent::new(7);
    let mut captures_seen = false;
    for game in 0..20 {
        let mut pos = p.start();
        for _ in 0..(40 + game) {
            if pos.is_terminal() {
                break;
            }
            let flat = p.flatten(&pos);
            assert_eq!(p.parse_flat(&flat).unwrap(), pos, "{flat}");
            captures_seen |= pos.captured(Color::White) + pos.captured(Color::Black) > 0;
            let mv = Agent::<pente::PentePosition>::choose(&mut agent, &pos, &Clock::UNLIMITED).mv;
            pos.make(mv);
        }
    }
    assert!(captures_seen, "no position with captures was checked");
}

#[test]
fn pente_flat_form_errors_name_the_field() {
    let p = PenteProtocol;
    let start = p.flatten(&p.start());
    let err = |text: &str| p.parse_flat(text).unwrap_err();
    assert!(err("w/0,0/...").contains("found 3 fields"));
    assert!(err(&start.replacen('w', "x", 1)).starts_with("field 1:"));
    assert!(err(&start.replacen("0,0", "0;0", 1)).starts_with("field 2:"));
    assert!(err(&start.replacen("0,0", "1,0", 1)).starts_with("field 2:"), "odd counts are pairs");
    let mut fields: Vec<String> = start.split(ROW_SEPARATOR).map(String::from).collect();
    fields[4] = format!("{}q", ".".repeat(18));
    let bad_row = fields.join("/");
    assert!(err(&bad_row).starts_with("field 5:"), "{}", err(&bad_row));
}

#[test]
fn pente_engine_reads_a_weights_file() {
    let p = PenteProtocol;
    let dir = std::env::temp_dir().join(format!("selfplay-pente-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.txt");
    let config = |path: &std::path::Path| EngineConfig { weights: Some(path.to_path_buf()), ..Default::default() };
    let missing = p.engine(config(&path)).err().unwrap();
    assert!(missing.contains("w.txt"), "{missing}");
    crate::eval::WeightSet::compiled(crate::eval::WeightKey::Pente).save(&path).unwrap();
    assert!(p.engine(config(&path)).is_ok());
    crate::eval::WeightSet::compiled(Variant::Tiny4).save(&path).unwrap();
    let wrong = p.engine(config(&path)).err().unwrap();
    assert!(wrong.contains("w.txt") && wrong.contains("tiny4"), "{wrong}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pente_output_parsing_is_strict() {
    let p = PenteProtocol;
    assert_eq!(p.parse_output("9N\n").unwrap(), pente::Cell::parse("9N").unwrap());
    assert_eq!(p.parse_output("19T").unwrap().to_string(), "19T");
    assert_eq!(p.parse_output("1A\n\n").unwrap().to_string(), "1A");
    for bad in ["", "9n\n", "09N\n", " 9N\n", "9 N\n", "9I\n", "20A\n", "0A\n", "N9\n", "9N\r\n", "9N\n10K\n"] {
        assert!(p.parse_output(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn pente_outcomes_five_captures_and_full_board() {
    let p = PenteProtocol;
    // White completes row 10 from 10H to 10M; Black plays row 5.
    let mut pos = p.start();
    for mv in ["10K", "5A", "10G", "5B", "10H", "5C", "10J", "5D", "10L"] {
        pos.make(pente::Cell::parse(mv).unwrap());
    }
    let o = p.outcome(&pos, [1.0, 2.0]);
    assert_eq!((o.winner, o.score, o.tiebreak), (Some(Color::White), -1, false));
    // Ten stones captured by Black: Black wins whatever the clocks say.
    let mut rows = vec![".".repeat(19); 19];
    rows[0] = format!("bww.b{}", ".".repeat(14));
    let text = format!("b/0,8/{}", rows.join("/"));
    let mut pos = p.parse_flat(&text).unwrap();
    let capture = pente::Cell::parse("19D").unwrap();
    let mut pos2 = pos.clone();
    pos2.make(capture);
    let o = p.outcome(&pos2, [1.0, 2.0]);
    assert_eq!((o.winner, o.score, o.counts), (Some(Color::Black), 1, [10, 0]));
    // Unfinished and level: the clock decides, equal clocks draw.
    pos.make(pente::Cell::parse("1A").unwrap());
    assert_eq!(p.outcome(&pos, [3.0, 2.0]).winner, Some(Color::Black));
    assert_eq!(p.outcome(&pos, [1.0, 2.0]).winner, Some(Color::White));
    assert_eq!(p.outcome(&pos, [2.0, 2.0]).winner, None);
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

/// The 19x19 cell `(line, col)` under symmetry `t` of the square.
fn image_cell(t: usize, (line, col): (usize, usize)) -> Cell {
    let n = pente::board::SIZE;
    let (l, c) = if t & 4 != 0 { (col, line) } else { (line, col) };
    let l = if t & 1 != 0 { n - 1 - l } else { l };
    let c = if t & 2 != 0 { n - 1 - c } else { c };
    Cell::at(l, c)
}

/// Plays `moves` (board-text line, column) from the start under symmetry `t`.
fn pente_line(t: usize, moves: &[(usize, usize)]) -> PentePosition {
    let mut pos = PentePosition::new();
    for &m in moves {
        let cell = image_cell(t, m);
        assert!(pos.is_legal(cell), "{cell} under symmetry {t}");
        pos.make(cell);
    }
    pos
}

#[test]
fn a_pente_position_and_its_images_share_one_canonical_form_with_the_captures_kept() {
    let protocol = PenteProtocol;
    let header = PenteProtocol::HEADER_FIELDS;
    // White takes the pair 10L-10M with 10N, then two stones off the
    // axes and diagonals: a line with no symmetry of its own.
    let moves = [(9, 9), (9, 10), (6, 6), (9, 11), (9, 12), (8, 10), (12, 7)];
    let pos = pente_line(0, &moves);
    assert_eq!((pos.captured(Color::White), pos.captured(Color::Black)), (2, 0));
    let flat = protocol.flatten(&pos);
    let form = canonical(&flat, header);
    assert!(form.starts_with("b/2,0/"), "{form}");
    assert_eq!(protocol.parse_flat(&form).unwrap().captured(Color::White), 2);
    let mut images = HashSet::new();
    for t in 0..SYMMETRIES {
        let image = protocol.flatten(&pente_line(t, &moves));
        images.insert(image.clone());
        assert_eq!(canonical(&image, header), form, "symmetry {t}");
    }
    assert_eq!(images.len(), SYMMETRIES, "the line has a symmetry of its own");
    // One stone fewer is another position.
    let shorter = protocol.flatten(&pente_line(0, &moves[..moves.len() - 1]));
    assert_ne!(canonical(&shorter, header), form);
}

/// Plies played to reach `pos` (every ply puts one stone down).
fn pente_plies(pos: &PentePosition) -> u32 {
    pos.stone_count() + pos.captured(Color::White) + pos.captured(Color::Black)
}

/// Checks what a suite promises: `spec.count` positions, each in
/// canonical form and unique under the symmetries, `plies` of it
/// `spec.plies`, no line of `spec.lookahead` plies ending the game, nor
/// `spec.playout` plies of a fresh depth-[`PLAYOUT_DEPTH`] engine's play,
/// and a fresh search at `spec.depth` scoring it within the window.
fn check_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec, plies: impl Fn(&P::State) -> u32) {
    let suite = make_suite(protocol, spec).unwrap();
    assert_eq!(suite.len(), spec.count);
    let distinct: HashSet<String> = suite.iter().map(|e| canonical(&e.flat, P::HEADER_FIELDS)).collect();
    assert_eq!(distinct.len(), suite.len());
    let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
    for SuiteEntry { flat, drawn, score } in &suite {
        assert_eq!(&canonical(flat, P::HEADER_FIELDS), flat);
        assert_eq!(&canonical(drawn, P::HEADER_FIELDS), flat);
        for text in [flat, drawn] {
            let pos = protocol.parse_flat(text).unwrap();
            assert_eq!(plies(&pos), spec.plies, "{text}");
            assert!(!ends_within(&pos, spec.lookahead), "{text}");
        }
        let start = protocol.parse_flat(drawn).unwrap();
        assert!(
            !ends_in_playout(&mut engine, &start, spec.playout),
            "{drawn}: over within {} plies of play",
            spec.playout
        );
        engine.new_game();
        let again = engine.search(&start, &Budget::Depth(spec.depth).limits()).score.unwrap();
        let again = f64::from(again) / P::SCORE_PER_UNIT;
        assert_eq!(again, *score, "{drawn}");
        assert!(again.abs() <= spec.window, "{drawn}: {again}");
    }
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

#[test]
fn pente_suites_hold_distinct_balanced_playable_positions() {
    let spec = SuiteSpec { plies: 4, window: 40.0, count: 6, depth: 2, seed: 4, lookahead: LOOKAHEAD, playout: 0 };
    check_suite(&PenteProtocol, &spec, pente_plies);
}

#[test]
fn bad_numbers_are_one_line_errors() {
    let good = SuiteSpec { plies: 4, window: 1.0, count: 2, depth: 2, seed: 1, lookahead: LOOKAHEAD, playout: 0 };
    for bad in [
        SuiteSpec { window: -1.0, ..good.clone() },
        SuiteSpec { window: f64::NAN, ..good.clone() },
        SuiteSpec { count: 0, ..good.clone() },
        SuiteSpec { depth: 0, ..good.clone() },
        SuiteSpec { lookahead: LOOKAHEAD - 1, ..good.clone() },
        SuiteSpec { lookahead: MAX_LOOKAHEAD + 1, ..good.clone() },
    ] {
        let e = make_suite(&PenteProtocol, &bad).unwrap_err();
        assert!(e.starts_with("--") && !e.contains('\n'), "{e}");
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
