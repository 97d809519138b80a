use super::*;
use engine_core::search::quick_end::forces_winning_end;

/// The start position (O to move) as input.txt text.
fn start_input(times: &str) -> String {
    let pos: DuoPosition = Variant::Duo12.start();
    format!("O\n{times}\n{}", pos.rows().iter().map(|r| format!("{r}\n")).collect::<String>())
}

/// A fresh empty folder under the system temp dir.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("duo-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn handout_style_input_is_read() {
    // The handout's example, with its board completed: O opened with i8,
    // flipping i9; X to play with 300 s against 286.46 s.
    let rows = [
        "............",
        "............",
        "..XO........",
        "..OX........",
        "............",
        "............",
        "............",
        "........O...",
        "........OO..",
        "........OX..",
        "............",
        "............",
    ];
    let text = format!("X\n300 286.46\n{}\n", rows.join("\n"));
    let input = parse_input(&text).unwrap();
    assert_eq!(input.own_time, Some(300.0));
    assert_eq!(input.opponent_time, Some(286.46));
    assert!(input.warnings.is_empty());
    assert_eq!(input.position.to_move(), Color::Black);
    assert_eq!(input.position.disc_counts(), (3, 6));
    // Start + i8 by O is a legal opening, so the board is consistent.
    let start: DuoPosition = Variant::Duo12.start();
    assert_eq!(start.play(DuoMove::parse("i8").unwrap()), input.position);
    // CRLF and a trailing blank line are accepted without warnings.
    let crlf = text.replace('\n', "\r\n") + "\r\n";
    assert_eq!(parse_input(&crlf).unwrap().position, input.position);
}

#[test]
fn every_malformed_class_is_an_error_or_a_warning_with_its_line() {
    let good = start_input("300 300");
    let hard: Vec<(String, &str)> = vec![
        (String::new(), "line 1: expected the side to move"),
        (good.replacen('O', "Z", 1), "line 1: expected the side to move"),
        ("O\n".into(), "line 2: expected two remaining times, found end of file"),
        ("O\n300 300\n".into(), "line 3: expected board row 1 of 12, found end of input"),
        (good.replacen("..XO........", "..XO.......", 1), "line 5: expected 12 cells"),
        (good.replacen("..XO........", "..XO.....x..", 1), "line 5: expected `X`, `O` or `.` in row 3 column 10"),
        (good.lines().take(10).map(|l| format!("{l}\n")).collect(), "line 11: expected board row 9 of 12"),
    ];
    for (text, want) in hard {
        let e = parse_input(&text).unwrap_err();
        assert!(e.starts_with("input.txt: line ") && e.contains(want), "{e:?} (wanted {want})");
    }
    // A board where the side to play has no move.
    let full = format!("X\n1 1\n{}", "OOOOOOOOOOOO\n".repeat(12));
    assert!(parse_input(&full).unwrap_err().contains("no legal move"));

    let soft: Vec<(String, &str, Option<f64>)> = vec![
        (start_input("abc 300"), "line 2: expected two non-negative numbers", None),
        (start_input("300"), "line 2: expected two non-negative numbers", Some(300.0)),
        (start_input("-1 300"), "line 2: expected two non-negative numbers", None),
        (start_input("NaN 300"), "line 2: expected two non-negative numbers", None),
        (start_input("1 2 3"), "line 2: expected two non-negative numbers", Some(1.0)),
        (good.replacen("300 300\n", "", 1), "line 2: expected two remaining times, found a board row", None),
        (good.clone() + "extra\n", "line 15: expected end of file", Some(300.0)),
    ];
    for (text, want, own) in soft {
        let input = parse_input(&text).unwrap();
        assert_eq!(input.warnings.len(), 1, "{text}");
        assert!(input.warnings[0].contains(want), "{:?} (wanted {want})", input.warnings);
        assert_eq!(input.own_time, own);
        assert_eq!(input.position, Variant::Duo12.start());
    }
}

fn sample_playdata() -> PlayData {
    let start: DuoPosition = Variant::Duo12.start();
    let board = start.play(start.legal_moves()[0]);
    let overrun = Overrun { moves: 3.0, sum: 4.25 };
    PlayData { side: Color::White, board, own_time: 300.0, used: 0.25, overhead: 0.004, moves: 1, overrun }
}

#[test]
fn playdata_round_trips_and_fits_its_game() {
    let data = sample_playdata();
    assert_eq!(PlayData::parse(&data.to_text()), Some(data.clone()));
    // X replied somewhere: the stored discs are all still there.
    let now = data.board.play(data.board.legal_moves()[0]);
    assert!(data.fits(&now, Some(299.0)));
    // Charged 0.3 s for a move we measured at 0.25 s: overhead sample 0.05.
    let o = data.updated_overhead(299.7);
    assert!((o - (0.5 * 0.004 + 0.5 * 0.05)).abs() < 1e-9, "{o}");
}

#[test]
fn missing_truncated_garbage_or_stale_playdata_is_ignored() {
    let data = sample_playdata();
    let text = data.to_text();
    let now = data.board.play(data.board.legal_moves()[0]);
    for cut in 0..text.len() {
        assert_eq!(PlayData::parse(&text[..cut]), None, "truncated at {cut}");
    }
    for garbage in ["", "\0\0\0", "duo-othello playdata 2\n", "check 0\n", "\u{1F600} hello"] {
        assert_eq!(PlayData::parse(garbage), None);
    }
    // The format before the overrun fields is not this one.
    let old = text.replace("duo-othello playdata 2", "duo-othello playdata 1");
    assert_eq!(PlayData::parse(&old), None);
    // A changed field breaks the checksum.
    assert_eq!(PlayData::parse(&text.replace("moves 1", "moves 2")), None);
    // Stale: another side, a clock that went up (new game), a disc that vanished.
    assert!(!data.fits(&now.pass(), Some(299.0)));
    assert!(!data.fits(&now, Some(300.5)));
    let start: DuoPosition = Variant::Duo12.start();
    let white = start.discs(Color::White);
    let restart = Position::from_discs(start.discs(Color::Black), white, Color::White, Variant::Duo12.scoring());
    assert!(!data.fits(&restart, Some(299.0)));

    let dir = temp_dir("playdata");
    assert_eq!(read_playdata(&dir, &now, Some(299.0)), None);
    std::fs::write(dir.join(PLAYDATA_FILE), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    assert_eq!(read_playdata(&dir, &now, Some(299.0)), None);
    std::fs::write(dir.join(PLAYDATA_FILE), &text).unwrap();
    assert_eq!(read_playdata(&dir, &now, Some(299.0)), Some(data));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn calibration_files_are_validated() {
    let c = Calibration { nps: 2.5e6, evals_per_second: 4e6, cpu_seconds: 1.9 };
    assert_eq!(Calibration::parse(&c.to_text()).unwrap(), c);
    for (text, want) in [
        ("", "line 1: expected `duo-othello calibration 1`"),
        ("duo-othello calibration 0\nnps 1000000\n", "line 1"),
        ("duo-othello calibration 1\n", "line 2: expected `nps N`"),
        ("duo-othello calibration 1\nnps fast\n", "line 2: expected a number"),
        ("duo-othello calibration 1\nnps 1e30\n", "outside"),
        ("duo-othello calibration 1\nnps 0\n", "outside"),
    ] {
        let e = Calibration::parse(text).unwrap_err();
        assert!(e.starts_with("calibration.txt: ") && e.contains(want), "{e} (wanted {want})");
    }
    let dir = temp_dir("calibration");
    assert_eq!(read_calibration(&dir), None);
    std::fs::write(dir.join(CALIBRATION_FILE), "garbage").unwrap();
    assert_eq!(read_calibration(&dir), None);
    write_calibration(&dir, &c).unwrap();
    assert_eq!(read_calibration(&dir), Some(c));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plays `input` in a fresh folder (with optional playdata) and returns the
/// outcome and the move read back from output.txt.
fn play_in(name: &str, input: &str, playdata: Option<&[u8]>) -> (RunReport, DuoMove, std::time::Duration) {
    let dir = temp_dir(name);
    std::fs::write(dir.join(INPUT_FILE), input).unwrap();
    if let Some(p) = playdata {
        std::fs::write(dir.join(PLAYDATA_FILE), p).unwrap();
    }
    // The program plays on this thread; the process's clock would also
    // count the tests running beside it.
    let timer = engine_core::cputime::CpuClock::Thread.timer();
    let outcome = play(&dir, &ParamSettings::default()).unwrap();
    let spent = timer.elapsed();
    let out = std::fs::read_to_string(dir.join(OUTPUT_FILE)).unwrap();
    assert!(out.ends_with('\n') && !out.ends_with("\n\n") && !out.contains('\r'), "{out:?}");
    let mv = DuoMove::parse(out.trim_end_matches('\n')).unwrap();
    assert_eq!(mv, outcome.mv);
    // The next move of the game finds the playdata we wrote.
    let written = std::fs::read_to_string(dir.join(PLAYDATA_FILE)).unwrap();
    assert!(PlayData::parse(&written).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
    (outcome, mv, spent)
}

#[test]
fn a_tiny_budget_still_gives_a_legal_move_fast() {
    let input = start_input("0.01 250");
    let start: DuoPosition = Variant::Duo12.start();
    let (outcome, mv, spent) = play_in("tiny", &input, None);
    assert!(start.is_legal(mv) && !mv.is_pass());
    assert!(outcome.search.is_none());
    // The handout's game master charges CPU time; 0.01 s is all there is.
    assert!(spent.as_secs_f64() < 0.01, "{spent:?}");
}

#[test]
fn corrupt_files_or_bad_times_still_give_a_legal_move() {
    let start: DuoPosition = Variant::Duo12.start();
    for (name, input, playdata) in [
        ("garbage-playdata", start_input("2 2"), Some(&b"\xff\x00garbage"[..])),
        ("bad-times", start_input("soon later"), None),
        ("no-time-line", start_input("x").replacen("x\n", "", 1), Some(&b"duo-othello playdata 2\n"[..])),
    ] {
        let (_, mv, _) = play_in(name, &input, playdata);
        assert!(start.is_legal(mv), "{name}: {mv}");
    }
}

#[test]
fn one_ply_prefers_the_corner() {
    // O to move can take the corner a1 (flipping X's b1 against c1) or play
    // g9 (flipping f9); the corner is the textbook choice.
    let set = |cells: &[usize]| {
        cells.iter().fold(<Board as Geometry>::Bits::EMPTY, |b, &c| b | <Board as Geometry>::Bits::bit(c))
    };
    let black = set(&[1, 101]);
    let white = set(&[2, 100]);
    let pos = Position::from_discs(black, white, Color::White, Variant::Duo12.scoring());
    assert!(pos.is_legal(DuoMove::parse("a1").unwrap()) && pos.is_legal(DuoMove::parse("g9").unwrap()));
    let eval = PatternEval::<Board>::compiled(Variant::Duo12);
    let moves: Vec<DuoMove> = pos.legal_moves().to_vec();
    assert_eq!(one_ply_move(&pos, &eval, &moves, Outcomes::wins(None)).to_string(), "a1");
}

#[test]
fn one_ply_pattern_play_beats_random_play() {
    // A positional evaluation beats uniformly random moves: the hand-set (or
    // tuned) duo12 weights must win clearly over 20 games, 10 per colour.
    use engine_core::agent::RandomAgent;
    let eval = PatternEval::<Board>::compiled(Variant::Duo12);
    let mut wins = 0;
    for game in 0..20u64 {
        let ours = if game % 2 == 0 { Color::White } else { Color::Black };
        let mut random = RandomAgent::new(game);
        let mut pos: DuoPosition = Variant::Duo12.start();
        while !pos.is_terminal() {
            let mv = if pos.to_move() == ours && pos.moves().any() {
                one_ply_move(&pos, &eval, &pos.legal_moves(), Outcomes::wins(Some(Color::Black)))
            } else {
                Agent::<DuoPosition>::choose(&mut random, &pos, &Clock::UNLIMITED).mv
            };
            pos = pos.play(mv);
        }
        if pos.scoring().winner(pos.score(), [0.0, 0.0]) == Some(ours) {
            wins += 1;
        }
    }
    eprintln!("one-ply pattern play won {wins} of 20 against random");
    assert!(wins >= 16, "won {wins} of 20");
}

#[test]
fn the_reserve_carries_the_clock_to_the_end_of_the_game() {
    /// Empties at which the plan's exact endgame begins (a typical value).
    const SOLVE_EMPTIES: u32 = 18;
    // Worst case: every search uses its whole hard limit, and every move
    // costs `per_move` more outside the search. The clock must never run out,
    // from a full 300 s clock down to the last seconds of a 10 s game.
    for start in [300.0, 10.0, 2.0, 0.3] {
        for per_move in [0.001, 0.003, 0.01] {
            if per_move * 68.0 >= start {
                continue; // No agent can make 68 moves in this time.
            }
            let mut own = start;
            for empties in (1..=136u32).rev().step_by(2) {
                let used = match search_clock(own, per_move, empties) {
                    Some(clock) => {
                        assert!(clock <= own, "{clock} > {own}");
                        let p = engine_core::search::SearchParams::DEFAULT;
                        let ahead = engine_core::search::MovesAhead {
                            midgame: f64::from(empties.saturating_sub(SOLVE_EMPTIES)) / 2.0,
                            progress: 0.5,
                            final_progress: 1.0,
                            endgame: p.endgame_moves,
                        };
                        let plan = engine_core::search::TimePlan::from_clock(clock, &ahead, &p);
                        plan.hard + per_move
                    }
                    None => per_move,
                };
                own -= used;
                assert!(own > 0.0, "start {start} per move {per_move}: out of time at {empties} empties");
            }
        }
    }
    // Too little left for the moves to come: answer at once.
    assert_eq!(search_clock(0.01, 0.002, 20), None);
    assert!(search_clock(300.0, 0.003, 136).is_some_and(|c| c > 299.0));
}

/// The four plies from the standard start that a search counting discs
/// walked into as O: after them both groups are one colour each, nobody
/// can move, 6-6, and X's +1 wins.
const BLOCKADE_LINE: [&str; 4] = ["c2", "j8", "e5", "h10"];

/// The position after the first `plies` moves of [`BLOCKADE_LINE`].
fn blockade_line(plies: usize) -> DuoPosition {
    let start: DuoPosition = Variant::Duo12.start();
    BLOCKADE_LINE[..plies].iter().fold(start, |p, m| p.play(DuoMove::parse(m).unwrap()))
}

/// `pos` as input.txt text with `times` on the time line.
fn input_for(pos: &DuoPosition, times: &str) -> String {
    format!(
        "{}\n{times}\n{}",
        disc_char(pos.to_move()),
        pos.rows().iter().map(|r| format!("{r}\n")).collect::<String>()
    )
}

#[test]
fn the_four_ply_blockade_ends_the_game_as_reported() {
    let end = blockade_line(4);
    assert!(end.is_terminal());
    assert_eq!(end.disc_counts(), (6, 6));
    assert_eq!(end.scoring().winner(end.score(), [10.0, 10.0]), Some(Color::Black));
}

#[test]
fn the_program_as_o_never_plays_into_the_four_ply_blockade() {
    let e5 = DuoMove::parse("e5").unwrap();
    let pos = blockade_line(2);
    // With a one-ply answer (no search), and with a search.
    for (name, times) in [("blockade-one-ply", "0.05 250"), ("blockade-search", "40 40")] {
        let (_, mv, _) = play_in(name, &input_for(&pos, times), None);
        assert_ne!(mv, e5, "{name}");
        let after = pos.play(mv);
        let outcomes = Outcomes::wins(Some(Color::Black));
        assert!(!forces_winning_end(&after, 1, Color::Black, outcomes), "{name}: {mv}");
    }
}

#[test]
fn the_blockade_check_refuses_exactly_the_moves_that_lose_at_once() {
    use engine_core::search::quick_end::safe_moves;
    let pos = blockade_line(2);
    let outcomes = Outcomes::wins(Some(Color::Black));
    let safe = safe_moves(&pos, 1, outcomes);
    for &mv in pos.legal_moves().iter() {
        // Refused: X has a move that ends the game, and X wins the count.
        let after = pos.play(mv);
        let loses_at_once = after.legal_moves().iter().any(|&reply| {
            let end = after.play(reply);
            end.is_terminal() && end.scoring().winner(end.score(), [1.0, 1.0]) == Some(Color::Black)
        });
        assert_eq!(!safe.contains(&mv), loses_at_once, "{mv}");
        assert_eq!(forces_winning_end(&after, 1, Color::Black, outcomes), loses_at_once, "{mv}");
    }
    assert!(!safe.contains(&DuoMove::parse("e5").unwrap()));
}
