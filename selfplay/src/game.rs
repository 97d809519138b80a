//! The match loop: one game between two seats, refereed as the handouts'
//! game master does it. The loop plays forced passes itself, charges each
//! side its CPU time, and ends the game on a forfeit (time, crash, missing or
//! malformed output, illegal move) or at the game's end, scored by the
//! protocol's rules.

use crate::answer::{Answer, Failure, Forfeit};
use crate::player::Seat;
use crate::protocol::GameProtocol;
use crate::record::{ENDING_NORMAL, ENDING_TIEBREAK, GameRecord, MoveNote, PositionRecord};
use engine_core::agent::{Clock, Decision};
use engine_core::game::{Color, Game};
use std::sync::atomic::AtomicBool;

/// What is fixed about a game before it starts.
#[derive(Clone, Debug)]
pub struct GameSetup<S> {
    /// Game id.
    pub id: u64,
    /// The run's seed (with the id, it fixes everything random in the game).
    pub seed: u64,
    /// The position the players start from (after any opening plies).
    pub opening: S,
    /// Player names `[black, white]`.
    pub names: [String; 2],
    /// CPU seconds per game `[black, white]` (infinite: untimed).
    pub time: [f64; 2],
    /// Record every `sample_every`-th ply a player chose (1: all).
    pub sample_every: u32,
}

/// A finished game as the run folder keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// Its `games.csv` row.
    pub record: GameRecord,
    /// Its sampled positions (empty after a forfeit, whose result says
    /// nothing about the positions).
    pub positions: Vec<PositionRecord>,
    /// Its GGF record for `games.ggf`, if the game has one.
    pub ggf: Option<String>,
}

/// The `nodes` column of a decision: unknown when the player reports no
/// nodes and no depth (it did not search, or did not say).
fn searched_nodes<M>(decision: &Decision<M>) -> Option<u64> {
    (decision.nodes > 0 || decision.depth.is_some()).then_some(decision.nodes)
}

/// Plays one game. `seats` is `[black, white]`. Returns `None` when
/// `abandon` was raised before the game finished.
pub fn play_game<P: GameProtocol>(
    protocol: &P,
    setup: &GameSetup<P::State>,
    seats: [&mut Seat<P::State>; 2],
    abandon: &AtomicBool,
) -> Option<FinishedGame> {
    let mut seats = seats;
    let mut state = setup.opening.clone();
    let mut time_left = setup.time;
    let mut used = [0.0f64; 2];
    let mut plies = 0u32;
    let mut chosen = 0u32;
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut failure: Option<(Color, Failure)> = None;
    for color in Color::BOTH {
        if let Err(f) = seats[color.index()].begin(setup.id, protocol.side_letter(color)) {
            failure = Some((color, f));
            break;
        }
    }
    while failure.is_none() && !state.is_terminal() {
        let legal = state.legal_moves();
        if legal.len() == 1 && protocol.is_pass(legal[0]) {
            moves.push(MoveNote { mv: legal[0], score: None, cpu: None });
            state.make(legal[0]);
            plies += 1;
            continue;
        }
        if abandon.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let mover = state.to_move();
        let (me, them) = (mover.index(), mover.opponent().index());
        let clock = Clock { own_remaining: time_left[me], opponent_remaining: time_left[them] };
        let played = match seats[me].play(protocol, &state, &clock, abandon) {
            Answer::Move(played) => played,
            Answer::Lost(f, cpu) => {
                used[me] += cpu;
                time_left[me] -= cpu;
                failure = Some((mover, f));
                break;
            }
            Answer::Abandoned => return None,
        };
        used[me] += played.cpu;
        time_left[me] -= played.cpu;
        if time_left[me] <= 0.0 {
            let detail = format!("out of time after {:.3} s", used[me]);
            failure = Some((mover, Failure::new(Forfeit::Timeout, detail)));
            break;
        }
        let mv = played.decision.mv;
        if !protocol.is_legal(&state, mv) {
            failure = Some((mover, Failure::new(Forfeit::IllegalMove, format!("illegal move {mv}"))));
            break;
        }
        if chosen.is_multiple_of(setup.sample_every) {
            positions.push(PositionRecord {
                game: setup.id,
                ply: plies,
                side: protocol.side_letter(mover).to_string(),
                board: protocol.flatten(&state),
                score: played.decision.score,
                depth: played.decision.depth,
                result: 0.0,
                disc_diff: 0,
                cpu: Some(played.cpu),
                nodes: searched_nodes(&played.decision),
            });
        }
        chosen += 1;
        moves.push(MoveNote { mv, score: played.decision.score, cpu: Some(played.cpu) });
        state.make(mv);
        plies += 1;
    }
    let outcome = protocol.outcome(&state, time_left);
    let (winner, ending, detail) = match &failure {
        None => {
            let ending = if outcome.tiebreak { ENDING_TIEBREAK } else { ENDING_NORMAL };
            (outcome.winner, ending, String::new())
        }
        Some((loser, f)) => {
            positions.clear();
            (Some(loser.opponent()), f.forfeit.name(), format!("{}: {}", protocol.side_letter(*loser), f.detail))
        }
    };
    for seat in seats.iter_mut() {
        seat.finish(failure.is_none());
    }
    let black_points = winner.map_or(0.5, |c| if c == Color::Black { 1.0 } else { 0.0 });
    for p in &mut positions {
        let mover_is_black = p.side == protocol.side_letter(Color::Black).to_string();
        p.result = if mover_is_black { black_points } else { 1.0 - black_points };
        p.disc_diff = if mover_is_black { outcome.score } else { -outcome.score };
    }
    let record = GameRecord {
        game: setup.id,
        pair: setup.id / 2,
        seed: setup.seed,
        opening: protocol.flatten(&setup.opening),
        black: setup.names[0].clone(),
        white: setup.names[1].clone(),
        result: GameRecord::result_text(winner).to_string(),
        black_count: outcome.counts[0],
        white_count: outcome.counts[1],
        score: outcome.score,
        plies,
        black_cpu: used[0],
        white_cpu: used[1],
        ending: ending.to_string(),
        detail,
    };
    let ggf = protocol.ggf_record(&setup.opening, &moves, &record, setup.time);
    Some(FinishedGame { record, positions, ggf })
}
