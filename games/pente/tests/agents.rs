//! The reference agents behave as the handout describes the graders' ones.

use crate::common;

use common::cell;
use engine_core::agent::{Agent, Clock};
use engine_core::game::{Color, Game};
use pente::{Cell, NearRandomAgent, PentePosition, pente_minimax};

#[test]
fn random_agent_plays_next_to_stones_and_keeps_the_opening_rule() {
    for seed in 0..20 {
        let mut agent = NearRandomAgent::new(seed);
        let mut pos = PentePosition::new();
        for ply in 0..40 {
            if pos.is_terminal() {
                break;
            }
            let mv = agent.choose(&pos, &Clock::UNLIMITED).mv;
            assert!(pos.is_legal(mv), "seed {seed} ply {ply}: {mv}");
            match ply {
                0 => assert_eq!(mv, Cell::CENTRE),
                2 => assert!(mv.distance(Cell::CENTRE) >= 3),
                _ => assert!(
                    Cell::all().any(|c| pos.stone_at(c).is_some() && c.distance(mv) == 1),
                    "seed {seed} ply {ply}: {mv} touches no stone"
                ),
            }
            pos.make(mv);
        }
    }
}

#[test]
fn minimax_takes_a_five_and_blocks_one() {
    let mut agent = pente_minimax(1);
    let clock = Clock { own_remaining: 10.0, opponent_remaining: 10.0 };
    let pos = common::drawn(Color::Black, 0, 0, "10F", "wbbbb.\n......\n.www..");
    assert_eq!(agent.choose(&pos, &clock).mv, cell("10L"));
    let pos = common::drawn(Color::Black, 0, 0, "10F", "bwwww.\n......\n..b...");
    assert_eq!(agent.choose(&pos, &clock).mv, cell("10L"));
}
