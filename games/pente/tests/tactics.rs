//! Pente tactics: the agent takes a win (five or the tenth captured stone),
//! blocks a four's completion, and finds wins by continuous fours (VCF) in
//! constructed positions, also with almost no time left.

use crate::common;

use common::{cell, drawn};
use engine_core::agent::{Agent, Clock};
use engine_core::cputime::CpuClock;
use engine_core::game::{Color, Game};
use engine_core::search::EngineConfig;
use pente::search::quick_move;
use pente::threats::{Vcf, defences, wins};
use pente::{PenteEngine, PentePosition, pente_engine, pente_minimax};
use std::time::Duration;

const TEN_SECONDS: Clock = Clock { own_remaining: 10.0, opponent_remaining: 10.0 };
const HUNDREDTH: Clock = Clock { own_remaining: 0.01, opponent_remaining: 10.0 };

/// The competition engine with a small table.
fn small_engine() -> PenteEngine {
    pente_engine(EngineConfig { tt_mb: 4, ..EngineConfig::default() }).expect("compiled-in weights")
}

fn engine_move(pos: &PentePosition, clock: &Clock) -> pente::Cell {
    let mv = small_engine().choose(pos, clock).mv;
    assert!(pos.is_legal(mv), "{mv} is not legal");
    mv
}

/// Black has a closed four (completes on 10L); White has one too (on 5E).
fn both_have_fours() -> PentePosition {
    let picture = "
        wbbbb...
        ........
        ........
        ........
        ........
        .wwww...";
    drawn(Color::Black, 0, 0, "10F", picture)
}

#[test]
fn plays_its_five_before_blocking() {
    let pos = both_have_fours();
    for clock in [TEN_SECONDS, HUNDREDTH] {
        let mv = engine_move(&pos, &clock);
        assert_eq!(mv, cell("10L"), "Black's four completes on 10L");
        let mut after = pos.clone();
        after.make(mv);
        assert_eq!(after.winner(), Some(Color::Black));
    }
}

#[test]
fn takes_the_tenth_captured_stone() {
    // Black has 8 captured stones and can capture 10L-10M from 10N; White has
    // an open three that Black would otherwise have to watch.
    let pos = drawn(Color::Black, 0, 8, "10J", ".bww.\n.....\n.www.");
    for clock in [TEN_SECONDS, HUNDREDTH] {
        let mv = engine_move(&pos, &clock);
        let mut after = pos.clone();
        after.make(mv);
        assert_eq!(after.winner(), Some(Color::Black), "{mv} should capture the tenth stone");
        assert_eq!(mv, cell("10N"));
    }
}

#[test]
fn blocks_a_four_where_it_completes() {
    // White: b w w w w . on row 10; Black must take 10L.
    let pos = drawn(Color::Black, 0, 0, "10F", "bwwww.\n......\n..b...");
    for clock in [TEN_SECONDS, HUNDREDTH] {
        assert_eq!(engine_move(&pos, &clock), cell("10L"));
    }
    // A split four: w w . w w; the gap is the only block.
    let pos = drawn(Color::Black, 0, 0, "10F", ".ww.ww.\n.......\n...b...");
    for clock in [TEN_SECONDS, HUNDREDTH] {
        assert_eq!(engine_move(&pos, &clock), cell("10J"));
    }
    // An open four cannot be stopped by one stone, but the agent still
    // blocks one of its ends.
    let pos = drawn(Color::Black, 0, 0, "10F", ".wwww.\n......\n..b...");
    let mv = engine_move(&pos, &TEN_SECONDS);
    assert!(mv == cell("10F") || mv == cell("10L"), "{mv}");
}

#[test]
fn answers_a_four_by_capturing_out_of_it() {
    // White's four b w w w w . on row 10 ends on 10K; Black can also capture
    // 11J-12J (part of nothing) or block: the agent must play a defence.
    let picture = "
        ...w....
        ...w....
        bwwww...
        ..b.....";
    let pos = drawn(Color::Black, 0, 0, "12F", picture);
    let threats = wins(&pos, Color::White);
    let allowed = defences(&pos, &threats);
    let mv = engine_move(&pos, &TEN_SECONDS);
    assert!(allowed.contains(&mv), "{mv} does not answer the four");
}

/// A VCF for Black: 11L makes a diagonal four (White must answer on 10M),
/// then 10L makes two fours at once (column L and row 10).
fn vcf_position() -> PentePosition {
    let picture = "
        .w......
        ..b..w..
        ...b.b..
        ....bb..
        ........
        wbbb....";
    drawn(Color::Black, 0, 0, "15F", picture)
}

#[test]
fn finds_a_vcf_and_wins_with_it() {
    let mut pos = vcf_position();
    assert!(wins(&pos, Color::Black).is_empty(), "no immediate five");
    let first = Vcf::new(1_000_000, Duration::from_secs(10), &CpuClock::Thread).find(&mut pos, 8).expect("a VCF");
    // Every reply (not only the forced ones) leaves Black a win by fours.
    let mut after = pos.clone();
    after.make(first);
    for reply in after.legal_moves().iter().copied() {
        let mut p = after.clone();
        p.make(reply);
        assert!(
            p.winner() != Some(Color::White)
                && Vcf::new(1_000_000, Duration::from_secs(10), &CpuClock::Thread).find(&mut p, 8).is_some(),
            "after {first} {reply} Black has no forced win"
        );
    }
    // The engine plays a winning line against the minimax reference.
    let mut game = pos.clone();
    let mut engine = small_engine();
    let mut minimax = pente_minimax(3);
    for _ in 0..12 {
        if game.is_terminal() {
            break;
        }
        let mv = if game.to_move() == Color::Black {
            engine.choose(&game, &TEN_SECONDS).mv
        } else {
            minimax.choose(&game, &TEN_SECONDS).mv
        };
        assert!(game.is_legal(mv));
        game.make(mv);
    }
    assert_eq!(game.winner(), Some(Color::Black));
}

#[test]
fn no_vcf_when_the_defender_wins_by_capture() {
    // As before, but White has 8 captured stones: 11L would capture 12L-13L
    // (flanked by 14L) and win, so Black's fours elsewhere prove nothing.
    let base = vcf_position();
    let stones: Vec<_> = pente::Cell::all().filter_map(|c| base.stone_at(c).map(|s| (c, s))).collect();
    let mut pos = PentePosition::from_stones(&stones, Color::Black, 8, 0);
    assert_eq!(&wins(&pos, Color::White)[..], &[cell("11L")]);
    assert_eq!(Vcf::new(1_000_000, Duration::from_secs(10), &CpuClock::Thread).find(&mut pos, 8), None);
    // The only defence, 11L, is also the start of Black's win.
    assert_eq!(engine_move(&pos, &TEN_SECONDS), cell("11L"));
    // With a second capture win for White (9A w, 9B-9C b, 9D empty) Black is
    // lost, and still plays a legal move.
    let mut more = stones.clone();
    more.extend([(cell("9A"), Color::White), (cell("9B"), Color::Black), (cell("9C"), Color::Black)]);
    let lost = PentePosition::from_stones(&more, Color::Black, 8, 0);
    assert_eq!(wins(&lost, Color::White).len(), 2);
    engine_move(&lost, &TEN_SECONDS);
    engine_move(&lost, &HUNDREDTH);
}

#[test]
fn quick_move_is_legal_on_an_empty_board_and_at_the_opening() {
    let pos = PentePosition::new();
    assert_eq!(quick_move(&pos), pente::Cell::CENTRE);
    let mut pos = pos;
    pos.make(pente::Cell::CENTRE);
    pos.make(cell("11L"));
    let mv = quick_move(&pos);
    assert!(pos.is_legal(mv) && mv.distance(pente::Cell::CENTRE) == 3);
    let mv = engine_move(&pos, &TEN_SECONDS);
    assert!(mv.distance(pente::Cell::CENTRE) >= 3);
}
