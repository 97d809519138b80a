//! Pente rules: coordinates, captures, wins, the opening rule, exact undo,
//! and the input file, checked on boards drawn as pictures.

use crate::common;

use common::{cell, drawn};
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use pente::protocol::{input_text, parse_input};
use pente::{Cell, PentePosition};
use rand::RngExt;

#[test]
fn coordinates_round_trip_and_the_centre_is_10k() {
    assert_eq!(Cell::CENTRE, cell("10K"));
    assert_eq!((Cell::CENTRE.line(), Cell::CENTRE.col()), (9, 9));
    assert_eq!(cell("19A"), Cell::at(0, 0), "row 19 is the first board line");
    assert_eq!(cell("1T"), Cell::at(18, 18));
    assert_eq!(cell("9N").to_string(), "9N");
    assert_eq!(cell("10J").col(), 8, "no column I");
    let mut seen = std::collections::HashSet::new();
    for c in Cell::all() {
        assert_eq!(Cell::parse(&c.to_string()), Some(c));
        assert!(seen.insert(c.to_string()));
    }
    assert_eq!(seen.len(), 361);
    for bad in ["20A", "0A", "10I", "10U", "K10", "10", "", "10KK"] {
        assert_eq!(Cell::parse(bad), None, "{bad}");
    }
}

/// The handout's example: White on 10K, 10N, 12K, Black on 11L, 10M, Black
/// to move; White threatens to capture 11L and 10M with 9N, and Black's 9N
/// blocks it.
#[test]
fn handout_sample_9n_blocks_a_capture() {
    let mut text = String::from("BLACK\n100.0\n0,0\n");
    for line in 0..19 {
        let row = match line {
            7 => ".........w.........", // row 12: 12K
            8 => "..........b........", // row 11: 11L
            9 => ".........w.bw......", // row 10: 10K, 10M, 10N
            _ => "...................",
        };
        text.push_str(row);
        text.push('\n');
    }
    let input = parse_input(&text).unwrap();
    let pos = &input.position;
    assert_eq!(input.color, Color::Black);
    assert_eq!(input.time_left, 100.0);
    for (name, color) in [
        ("10K", Color::White),
        ("10N", Color::White),
        ("12K", Color::White),
        ("11L", Color::Black),
        ("10M", Color::Black),
    ] {
        assert_eq!(pos.stone_at(cell(name)), Some(color), "{name}");
    }
    assert_eq!(pos.captures_at(cell("9N"), Color::White), 1, "White threatens 11L-10M from 9N");
    let mut white_first = pos.clone();
    white_first.make(cell("12A")); // Black elsewhere
    let before = white_first.clone();
    let undo = white_first.make(cell("9N"));
    assert_eq!(white_first.captured(Color::White), 2);
    assert!(white_first.is_empty(cell("11L")) && white_first.is_empty(cell("10M")));
    white_first.unmake(cell("9N"), undo);
    assert_eq!(white_first, before);

    let mut blocked = pos.clone();
    blocked.make(cell("9N"));
    assert_eq!(blocked.stone_at(cell("9N")), Some(Color::Black));
    assert_eq!(blocked.captured(Color::Black), 0);
    assert!(blocked.candidates().all(|c| blocked.captures_at(c, Color::White) == 0));
}

#[test]
fn captures_in_each_of_the_eight_directions() {
    // Black plays the centre of each picture; the pair lies in one direction.
    let cases = [("E", ".wwb"), ("W", "bww.")];
    for (dir, row) in cases {
        let mut pos = drawn(Color::Black, 0, 0, "10J", row);
        let at = if dir == "E" { cell("10J") } else { cell("10M") };
        let before = pos.clone();
        let undo = pos.make(at);
        assert_eq!(pos.captured(Color::Black), 2, "{dir}");
        assert_eq!(pos.stone_count(), 2, "{dir}");
        pos.check_consistency().unwrap();
        pos.unmake(at, undo);
        assert_eq!(pos, before, "{dir}");
    }
    // All eight directions around 10K at once: 8 pairs, 16 stones.
    let picture = "
        b..b..b
        .w.w.w.
        ..www..
        bww.wwb
        ..www..
        .w.w.w.
        b..b..b";
    let mut pos = drawn(Color::Black, 0, 0, "13G", picture);
    let before = pos.clone();
    let undo = pos.make(cell("10K"));
    assert_eq!(pos.captured(Color::Black), 16);
    assert_eq!(pos.stone_count(), 9, "the eight flanking stones and the new one");
    assert_eq!(pos.winner(), Some(Color::Black), "16 captured stones win");
    pos.check_consistency().unwrap();
    pos.unmake(cell("10K"), undo);
    assert_eq!(pos, before);
    // Each direction alone.
    let rays = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)];
    for (dl, dc) in rays {
        let c = |k: isize| Cell::at((9 + k * dl) as usize, (9 + k * dc) as usize);
        let stones = [(c(1), Color::White), (c(2), Color::White), (c(3), Color::Black)];
        let mut pos = PentePosition::from_stones(&stones, Color::Black, 0, 0);
        pos.make(Cell::CENTRE);
        assert_eq!(pos.captured(Color::Black), 2, "direction {dl},{dc}");
        assert!(pos.is_empty(c(1)) && pos.is_empty(c(2)));
    }
}

#[test]
fn several_pairs_at_once_and_only_pairs() {
    // Two pairs (east and south) by one stone, a three and a single that stay.
    let picture = "
        .wwb.wwwb
        w........
        w........
        b........
        .........
        .w.......
        ..b......";
    let mut pos = drawn(Color::Black, 0, 0, "10K", picture);
    // 10K: east pair 10L,10M flanked by 10N; south pair 9K,8K flanked by 7K.
    let undo = pos.make(cell("10K"));
    assert_eq!(pos.captured(Color::Black), 4);
    assert!(pos.is_empty(cell("10L")) && pos.is_empty(cell("9K")));
    assert_eq!(pos.stone_at(cell("10P")), Some(Color::White), "three in a row are not captured");
    pos.unmake(cell("10K"), undo);
    pos.check_consistency().unwrap();
    // X O O O _ and X O _: no capture.
    let mut pos = drawn(Color::Black, 0, 0, "10K", "bwww.");
    pos.make(cell("10P"));
    assert_eq!(pos.captured(Color::Black), 0);
    let mut pos = drawn(Color::Black, 0, 0, "10K", "bw.");
    pos.make(cell("10M"));
    assert_eq!(pos.captured(Color::Black), 0);
}

#[test]
fn moving_into_a_flanked_spot_captures_nothing() {
    // b w . b: White fills the gap and stays.
    let mut pos = drawn(Color::White, 0, 0, "10K", "bw.b");
    pos.make(cell("10M"));
    assert_eq!(pos.captured(Color::Black) + pos.captured(Color::White), 0);
    assert_eq!(pos.stone_at(cell("10L")), Some(Color::White));
    assert_eq!(pos.stone_at(cell("10M")), Some(Color::White));
    assert_eq!(pos.winner(), None);
}

#[test]
fn five_and_overline_win() {
    let mut pos = drawn(Color::Black, 0, 0, "10G", "bbbb.");
    assert!(!pos.is_terminal());
    pos.make(cell("10L"));
    assert_eq!(pos.winner(), Some(Color::Black));
    assert_eq!(pos.final_score(), 1);
    assert!(pos.legal_moves().is_empty());
    // Diagonal five for White.
    let picture = "
        w....
        .w...
        .....
        ...w.
        ....w";
    let mut pos = drawn(Color::White, 0, 0, "12H", picture);
    pos.make(cell("10K"));
    assert_eq!(pos.final_score(), -1);
    // Overline: b b . b b b -> six in a row also wins.
    let mut pos = drawn(Color::Black, 0, 0, "10G", "bb.bbb");
    pos.make(cell("10J"));
    assert_eq!(pos.winner(), Some(Color::Black));
    // Four is not five.
    let mut pos = drawn(Color::Black, 0, 0, "10G", "bb.b");
    pos.make(cell("10J"));
    assert_eq!(pos.winner(), None);
}

#[test]
fn ten_captured_stones_win() {
    let mut pos = drawn(Color::Black, 0, 8, "10K", ".wwb");
    pos.make(cell("10K"));
    assert_eq!(pos.captured(Color::Black), 10);
    assert_eq!(pos.winner(), Some(Color::Black));
    assert!(pos.is_terminal());
    let mut pos = drawn(Color::Black, 0, 6, "10K", ".wwb");
    pos.make(cell("10K"));
    assert_eq!(pos.winner(), None, "8 stones do not win");
}

#[test]
fn opening_rule() {
    let pos = PentePosition::new();
    assert_eq!(pos.to_move(), Color::White, "White opens");
    assert_eq!(&pos.legal_moves()[..], &[Cell::CENTRE]);
    assert!(!pos.is_legal(cell("10L")));
    let mut pos = pos;
    pos.make(Cell::CENTRE);
    pos.make(cell("11L"));
    assert!(pos.is_second_white_stone());
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 24, "the ring at distance 3");
    assert!(moves.iter().all(|c| c.distance(Cell::CENTRE) == 3));
    assert!(!pos.is_legal(cell("12M")), "distance 2");
    assert!(pos.is_legal(cell("13N")) && pos.is_legal(cell("1A")), "distance 3 and far away");
    pos.make(cell("13N"));
    assert!(pos.is_legal(cell("11K")), "no rule after the second stone");
    // The rule follows stones placed, not stones on the board: read from a file.
    let read = parse_input(&input_text(&pos, 5.0)).unwrap().position;
    assert_eq!(read.legal_moves().len(), pos.legal_moves().len());
}

#[test]
fn make_unmake_is_exact_over_random_games() {
    let mut rng = SplitMix(561);
    for _ in 0..20 {
        let mut pos = PentePosition::new();
        let mut stack = Vec::new();
        while !pos.is_terminal() && stack.len() < 200 {
            let moves = pos.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())];
            let before = pos.clone();
            let undo = pos.make(mv);
            pos.check_consistency().unwrap();
            stack.push((mv, undo, before));
        }
        while let Some((mv, undo, before)) = stack.pop() {
            pos.unmake(mv, undo);
            assert_eq!(pos, before);
        }
    }
}

#[test]
fn input_errors_name_the_line() {
    let board = ".".repeat(19) + "\n";
    let good = format!("WHITE\n10.5\n0,0\n{}", board.repeat(19));
    assert!(parse_input(&good).is_ok());
    let cases = [
        (format!("RED\n10\n0,0\n{}", board.repeat(19)), 1),
        (format!("WHITE\n-1\n0,0\n{}", board.repeat(19)), 2),
        (format!("WHITE\nabc\n0,0\n{}", board.repeat(19)), 2),
        (format!("WHITE\n10\n0;0\n{}", board.repeat(19)), 3),
        (format!("WHITE\n10\n0,0\n{}", board.repeat(18)), 22),
        (format!("WHITE\n10\n0,0\n{}x{}", board.repeat(5), &board[1..].repeat(14)), 9),
        (format!("WHITE\n10\n0,0\n{}", board.repeat(19) + "extra\n"), 23),
    ];
    for (text, line) in cases {
        assert_eq!(parse_input(&text).unwrap_err().line, line, "{text}");
    }
}

/// The input for Black to move with White stones on row 10 as `row10` and
/// the counts line `counts`.
fn black_to_move(row10: &str, counts: &str) -> String {
    let mut text = format!("BLACK\n10\n{counts}\n");
    for line in 0..19 {
        text.push_str(if line == 9 { row10 } else { "..................." });
        text.push('\n');
    }
    text
}

#[test]
fn captured_counts_are_stones_or_pairs() {
    // Black to move: White has placed one stone more than Black.
    // Five White stones, none Black: "2,0" fits only as 2 pairs (4 stones).
    let five = ".........w.w.w.w.w.";
    let input = parse_input(&black_to_move(five, "2,0")).unwrap();
    assert!(input.counts_were_pairs);
    assert_eq!(input.position.captured(Color::White), 4);
    assert_eq!(input.position.placed(Color::Black), 4);
    // Odd counts are pairs.
    assert!(parse_input(&black_to_move(five, "1,0")).unwrap().counts_were_pairs);
    // Three White stones: "2,0" fits as stones.
    let three = ".........w.w.w.....";
    let input = parse_input(&black_to_move(three, "2,0")).unwrap();
    assert!(!input.counts_were_pairs);
    assert_eq!(input.position.captured(Color::White), 2);
}
