//! Rule tests drawn as boards, a property test against a plain per-cell
//! reference implementation (run on every compiled copy of the kernels),
//! hashing and parser tests.

use super::*;
use engine_core::bitboard::BitSet;
use engine_core::cpu::CodePath;
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;

/// A position from an indented picture: the side line, then the rows.
fn board<G: Geometry>(picture: &str, scoring: Scoring) -> Position<G> {
    let text: String = picture.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| format!("{l}\n")).collect();
    Position::parse(&text, scoring).unwrap_or_else(|e| panic!("bad picture: {e}"))
}

/// The cells marked `*` in an indented picture of `N` rows.
fn marks<G: Geometry>(picture: &str) -> G::Bits {
    let rows: Vec<&str> = picture.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), G::N, "picture needs {} rows", G::N);
    let mut set = G::Bits::EMPTY;
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), G::N);
        for (c, ch) in row.chars().enumerate() {
            if ch == '*' {
                set |= G::Bits::bit(r * G::N + c);
            }
        }
    }
    set
}

fn cell<G: Geometry>(name: &str) -> usize {
    Move::<G>::parse(name).and_then(Move::cell).expect("cell name")
}

#[test]
fn a_move_flips_in_all_eight_directions() {
    let pos = board::<Size8>(
        "X
         X..X..X.
         .O.O.O..
         ..OOO...
         XOO.OOOX
         ..OOO...
         .O.O.O..
         X..X..X.
         ........",
        Scoring::WOF,
    );
    let expected = marks::<Size8>(
        "........
         .*.*.*..
         ..***...
         .**.***.
         ..***...
         .*.*.*..
         ........
         ........",
    );
    let d4 = cell::<Size8>("d4");
    assert!(pos.moves().contains(d4));
    assert_eq!(pos.flips(d4), expected);
    let after = pos.play(Move::new(d4));
    assert_eq!(after.to_move(), Color::White);
    assert_eq!(after.discs(Color::White).count(), 0);
    assert_eq!(after.discs(Color::Black).count(), 8 + 17 + 1);
}

#[test]
fn a_line_needs_an_anchor_and_contiguous_discs() {
    let pos = board::<Size8>(
        "X
         ........
         ........
         ........
         ..XOO.O.
         ...O....
         ........
         ...X....
         ........",
        Scoring::WOF,
    );
    // f4 flips d4, e4 (anchored by c4); nothing else. g4 is not contiguous.
    assert_eq!(
        pos.flips(cell::<Size8>("f4")),
        marks::<Size8>(
            "........
         ........
         ........
         ...**...
         ........
         ........
         ........
         ........",
        )
    );
    // h4 would need an anchor beyond g4: illegal.
    assert!(!pos.moves().contains(cell::<Size8>("h4")));
    // d6: the O run d5-d4 ends on an empty cell, and d7 is adjacent: no line.
    assert!(!pos.moves().contains(cell::<Size8>("d6")));
    assert_eq!(pos.moves().count(), reference_moves::<Size8>(pos.player(), pos.opponent()).count());
}

/// On every size, discs on one edge never reach across to the other edge.
fn no_wrap<G: Geometry>() {
    let n = G::N;
    let empty_board = || vec![vec!['.'; n]; n];
    let to_pos = |rows: Vec<Vec<char>>| {
        let text: String = std::iter::once("X".to_string())
            .chain(rows.into_iter().map(|r| r.into_iter().collect::<String>()))
            .map(|l| l + "\n")
            .collect();
        Position::<G>::parse(&text, Scoring::PLAIN).expect("valid")
    };
    for r in 0..n - 1 {
        // A run from the right edge, continued on the next row's left edge,
        // would make the cell after it a move if shifts wrapped.
        let mut rows = empty_board();
        rows[r][n - 2] = 'X';
        rows[r][n - 1] = 'O';
        rows[r + 1][0] = 'O';
        let pos = to_pos(rows);
        assert!(pos.moves().is_empty(), "{n}x{n} east wrap at row {r}");
        let mut rows = empty_board();
        rows[r + 1][1] = 'X';
        rows[r + 1][0] = 'O';
        rows[r][n - 1] = 'O';
        let pos = to_pos(rows);
        assert!(pos.moves().is_empty(), "{n}x{n} west wrap at row {r}");
        // Diagonals: a disc on the left edge and one on the right edge of the
        // row above or below are not neighbours.
        let mut rows = empty_board();
        rows[r][0] = 'O';
        rows[r + 1][n - 1] = 'X';
        rows[r + 1][0] = 'O';
        rows[r][n - 1] = 'X';
        let pos = to_pos(rows);
        assert_eq!(pos.moves(), reference_moves::<G>(pos.player(), pos.opponent()), "{n}x{n} diagonal at row {r}");
        assert!(pos.moves().is_empty(), "{n}x{n} diagonal wrap at row {r}");
    }
}

#[test]
fn no_move_wraps_across_an_edge_on_any_size() {
    on_every_size!(no_wrap);
}

#[test]
fn a_player_without_moves_passes() {
    let pos = board::<Size4>(
        "O
         .OXX
         XXXX
         XXXX
         XXXX",
        Scoring::PLAIN,
    );
    assert!(pos.moves().is_empty());
    assert!(!pos.is_game_over());
    assert_eq!(&*pos.legal_moves(), &[Move::PASS]);
    assert!(pos.is_legal(Move::PASS));
    let after = pos.play(Move::PASS);
    assert_eq!(after.to_move(), Color::Black);
    assert_eq!(after.player(), pos.opponent());
    assert_eq!(&*after.legal_moves(), &[Move::parse("a1").unwrap()]);
}

#[test]
fn the_game_ends_with_empty_cells_when_nobody_can_move() {
    let pos = board::<Size6>(
        "X
         XXX...
         XXX...
         XXX...
         ......
         ....OO
         ...OOO",
        Scoring::WOF,
    );
    assert!(pos.is_game_over());
    assert!(pos.legal_moves().is_empty());
    assert!(pos.is_terminal());
    assert_eq!(pos.disc_counts(), (9, 5));
    // Tournament rule: the 22 empties go to Black, the winner.
    assert_eq!(pos.final_score(), 4 + 22);
    let plain =
        Position::<Size6>::from_discs(pos.discs(Color::Black), pos.discs(Color::White), Color::Black, Scoring::PLAIN);
    assert_eq!(plain.final_score(), 4);
    assert_eq!(plain.final_score_for_mover(), 4);
    assert_eq!(plain.pass().final_score_for_mover(), -4);
}

#[test]
fn duo_othello_scoring_and_ties() {
    let duo = Scoring::DUO;
    // X gets +1: 71-72 is a tie, decided by time, then by X.
    assert_eq!(duo.score(71, 72, 1), 0);
    assert_eq!(duo.winner(0, [10.0, 20.0]), Some(Color::White));
    assert_eq!(duo.winner(0, [20.0, 10.0]), Some(Color::Black));
    assert_eq!(duo.winner(0, [15.0, 15.0]), Some(Color::Black));
    assert_eq!(duo.score(72, 72, 0), 1);
    assert_eq!(duo.winner(1, [0.5, 100.0]), Some(Color::Black));
    assert_eq!(duo.score(70, 72, 2), -1);
    assert_eq!(duo.winner(-1, [100.0, 0.5]), Some(Color::White));
    assert_eq!(Scoring::WOF.winner(0, [1.0, 2.0]), None);
    // The start position of Duo-Othello.
    let start: Position<Size12> = Variant::Duo12.start();
    assert_eq!(start.to_move(), Color::White);
    let text = start.to_string();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "O");
    assert_eq!(rows[3], "..XO........");
    assert_eq!(rows[4], "..OX........");
    assert_eq!(rows[9], "........XO..");
    assert_eq!(rows[10], "........OX..");
    assert_eq!(start.score(), 1);
}

#[test]
fn standard_start_matches_the_tiny_handout() {
    // The handout draws row 2 as `| | 2 | 1 | |` and dark's four options.
    let start: Position<Size4> = Variant::Tiny4.start();
    assert_eq!(start.to_string(), "X\n....\n.OX.\n.XO.\n....\n");
    let names: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["b1", "a2", "d3", "c4"]);
}

#[test]
fn moves_parse_and_print() {
    for cell in 0..Size12::CELLS {
        let mv = Move::<Size12>::new(cell);
        assert_eq!(Move::<Size12>::parse(&mv.to_string()), Some(mv));
    }
    assert_eq!(Move::<Size12>::parse("l12").and_then(Move::cell), Some(143));
    assert_eq!(Move::<Size8>::parse("pass"), Some(Move::PASS));
    for bad in ["", "a", "a0", "a9", "i1", "4d", "a01", "A1", "c 3", "a1x"] {
        assert_eq!(Move::<Size8>::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn malformed_position_texts_name_the_line() {
    let cases: [(&str, usize, &str); 8] = [
        ("", 1, "expected the side to move"),
        ("B\n....\n....\n....\n....\n", 1, "found `B`"),
        ("X\n....\n....\n", 4, "found end of input"),
        ("X\n....\n...\n....\n....\n", 3, "found 3 characters"),
        ("X\n....\n....\n.....\n....\n", 4, "found 5 characters"),
        ("X\n....\n..x.\n....\n....\n", 3, "row 2 column 3, found `x`"),
        ("X\n....\n....\n....\n....\nXO\n", 6, "expected end of input"),
        ("X\n....\n....\n....\n..1.\n", 5, "found `1`"),
    ];
    for (text, line, words) in cases {
        let err = Position::<Size4>::parse(text, Scoring::PLAIN).expect_err(text);
        assert_eq!(err.line, line, "{text:?}: {err}");
        assert!(err.to_string().contains(words), "{text:?}: {err}");
    }
    // CRLF line endings and trailing blank lines are fine.
    let ok = Position::<Size4>::parse("O\r\n....\r\n.OX.\r\n.XO.\r\n....\r\n\r\n", Scoring::PLAIN).unwrap();
    assert_eq!(ok.to_move(), Color::White);
}

#[test]
fn text_form_round_trips() {
    let mut rng = SplitMix(7);
    for _ in 0..200 {
        let pos = random_position::<Size10>(&mut rng);
        assert_eq!(Position::<Size10>::parse(&pos.to_string(), Scoring::WOF), Ok(pos));
    }
}

// ---------------------------------------------------------------------------
// Property tests against a plain per-cell reference.

const STEPS: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// Flips by walking cell by cell from `cell` in each direction.
fn reference_flips<G: Geometry>(cell: usize, player: G::Bits, opponent: G::Bits) -> G::Bits {
    let n = G::N as isize;
    let mut flips = G::Bits::EMPTY;
    if (player | opponent).contains(cell) {
        return flips;
    }
    for (dr, dc) in STEPS {
        let (mut r, mut c) = (cell as isize / n + dr, cell as isize % n + dc);
        let mut run = G::Bits::EMPTY;
        while (0..n).contains(&r) && (0..n).contains(&c) {
            let i = (r * n + c) as usize;
            if opponent.contains(i) {
                run |= G::Bits::bit(i);
            } else {
                if player.contains(i) {
                    flips |= run;
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    flips
}

fn reference_moves<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    (0..G::CELLS)
        .filter(|&i| reference_flips::<G>(i, player, opponent).any())
        .fold(G::Bits::EMPTY, |b, i| b | G::Bits::bit(i))
}

fn random_position<G: Geometry>(rng: &mut SplitMix) -> Position<G> {
    let (mut black, mut white) = (G::Bits::EMPTY, G::Bits::EMPTY);
    let density = 1 + rng.below(5);
    for i in 0..G::CELLS {
        match rng.below(2 * density + 1) {
            0 => {}
            k if k <= density => black |= G::Bits::bit(i),
            _ => white |= G::Bits::bit(i),
        }
    }
    let side = if rng.below(2) == 0 { Color::Black } else { Color::White };
    Position::from_discs(black, white, side, Scoring::WOF)
}

engine_core::cpu::multiversion! {
    /// The moves of `pos`, then the flips at each empty cell in cell order,
    /// then the replies to each move in cell order (twice: walking every run,
    /// and walking short runs only where `short_runs` allows it), as the
    /// kernels compute them inside this compiled copy.
    fn kernels<G: Geometry>(pos: &Position<G>, out: &mut Vec<G::Bits>) {
        let (p, o) = (pos.player(), pos.opponent());
        out.clear();
        out.push(geometry::legal_moves_with::<G, Simd>(p, o));
        out.extend(pos.empty().iter().map(|i| geometry::flips_with::<G, Simd>(i, p, o)));
        let lines = geometry::Lines::<G, Simd>::new(p, o);
        out.extend(lines.moves().iter().map(|i| lines.play::<false>(i).moves()));
        if lines.short_runs(lines.moves()) {
            out.extend(lines.moves().iter().map(|i| lines.play::<true>(i).moves()));
        } else {
            out.extend(lines.moves().iter().map(|i| lines.play::<false>(i).moves()));
        }
    }
}

/// Checks moves, flips and the incremental hash on random boards and on
/// random playouts from the variant's start.
fn matches_reference<G: Geometry>(variant: Variant, boards: usize, playouts: usize) {
    let mut rng = SplitMix(G::N as u64);
    let paths = CodePath::available();
    let mut computed = Vec::new();
    for _ in 0..boards {
        let pos = random_position::<G>(&mut rng);
        let (p, o) = (pos.player(), pos.opponent());
        assert_eq!(pos.moves(), reference_moves::<G>(p, o), "moves of\n{pos}");
        for i in pos.empty().iter() {
            assert_eq!(pos.flips(i), reference_flips::<G>(i, p, o), "flips at {} of\n{pos}", Move::<G>::new(i));
        }
        for &path in &paths {
            engine_core::cpu::run_on!(path, kernels::<G>(&pos, &mut computed));
            assert_eq!(computed[0], reference_moves::<G>(p, o), "{path:?} moves of\n{pos}");
            let empties = pos.empty().count() as usize;
            for (i, &flips) in pos.empty().iter().zip(&computed[1..=empties]) {
                let at = Move::<G>::new(i);
                assert_eq!(flips, reference_flips::<G>(i, p, o), "{path:?} flips at {at} of\n{pos}");
            }
            let moves = reference_moves::<G>(p, o);
            let (full, short) = computed[1 + empties..].split_at(moves.count() as usize);
            for (i, (&replies, &short)) in moves.iter().zip(full.iter().zip(short)) {
                assert_eq!(short, replies, "{path:?} replies over short runs to {} of\n{pos}", Move::<G>::new(i));
                let after = pos.play(Move::new(i));
                let expected = reference_moves::<G>(after.player(), after.opponent());
                assert_eq!(replies, expected, "{path:?} replies to {} of\n{pos}", Move::<G>::new(i));
            }
            assert_eq!(computed.len(), 1 + empties + 2 * moves.count() as usize);
        }
        let e = pos.empty();
        let near = (0..G::CELLS)
            .filter(|&i| e.contains(i))
            .filter(|&i| {
                let (r, c) = ((i / G::N) as isize, (i % G::N) as isize);
                STEPS.iter().any(|&(dr, dc)| {
                    let (r, c) = (r + dr, c + dc);
                    let n = G::N as isize;
                    (0..n).contains(&r) && (0..n).contains(&c) && o.contains((r * n + c) as usize)
                })
            })
            .fold(G::Bits::EMPTY, |b, i| b | G::Bits::bit(i));
        assert_eq!(neighbours::<G>(o, e), near, "neighbours of\n{pos}");
    }
    for _ in 0..playouts {
        let mut pos: Position<G> = variant.start();
        while !pos.is_game_over() {
            let list = pos.legal_moves();
            assert_eq!(pos.moves(), reference_moves::<G>(pos.player(), pos.opponent()));
            let mv = list[rng.below(list.len())];
            let flips = mv.cell().map_or(G::Bits::EMPTY, |c| pos.flips(c));
            if let Some(c) = mv.cell() {
                assert_eq!(flips, reference_flips::<G>(c, pos.player(), pos.opponent()));
            }
            pos = pos.play(mv);
        }
        assert_eq!(pos.empty_count() + pos.disc_counts().0 + pos.disc_counts().1, G::CELLS as u32);
    }
}

#[test]
fn bitboards_match_the_per_cell_reference_on_every_size() {
    matches_reference::<Size4>(Variant::Tiny4, 2000, 2000);
    matches_reference::<Size6>(Variant::Othello6, 1000, 1000);
    matches_reference::<Size8>(Variant::Othello8, 1000, 500);
    matches_reference::<Size10>(Variant::Othello10, 500, 200);
    matches_reference::<Size12>(Variant::Othello12, 300, 100);
    matches_reference::<Size12>(Variant::Duo12, 300, 100);
}

#[test]
fn hash_tells_side_to_move_apart() {
    let start: Position<Size8> = Variant::Othello8.start();
    assert_ne!(start.hash(), start.pass().hash());
    assert_eq!(start.hash(), start.pass().pass().hash());
}
