//! Search tests: exact values against plain minimax, perfect play on 4x4,
//! limits, time planning and legal answers.

use crate::eval::{Evaluator, FinalScore, PatternEval, SCORE_PER_DISC};
use crate::{
    Geometry, Move, Position, ReversiParams, Size4, Size6, Size8, Size12, Variant, endgame, ffo, reversi_engine,
};
use engine_core::agent::{Agent, Clock};
use engine_core::bitboard::BitSet;
use engine_core::cputime::{CpuClock, CpuTimer};
use engine_core::game::{Color, Game};
use engine_core::mix::SplitMix;
use engine_core::playout::random_playout;
use engine_core::search::*;
use rand::RngExt;
use std::time::Duration;

/// Plain minimax to the end of the game over the [`Game`] trait: the
/// independent reference.
fn minimax<G: Game>(pos: &G) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.final_score_for_mover();
    }
    moves.iter().map(|&mv| -minimax(&pos.result(mv))).max().unwrap()
}

/// A position reached by random play from the start of `variant`, with
/// `empties` empty cells (or the end of the game, whichever comes first).
fn random_position<G: Geometry>(variant: Variant, empties: u32, rng: &mut SplitMix) -> Position<G> {
    random_playout(variant.start(), rng, |pos: &Position<G>| pos.empty_count() > empties)
}

fn disc_searcher<G: Geometry>() -> Searcher<Position<G>, FinalScore> {
    Searcher::new(Box::new(FinalScore), 1)
}

#[test]
fn tiny4_perfect_play_loses_by_eight_for_the_first_player() {
    let start: Position<Size4> = Variant::Tiny4.start();
    assert_eq!(minimax(&start), -8);
    let mut s = disc_searcher::<Size4>();
    let r = s.search(&start, &Limits { solve: true, ..Limits::default() });
    assert!(r.exact);
    assert_eq!(r.score, Some(-8 * SCORE_PER_DISC));
    // Iterative deepening reaches the same value through the midgame search.
    s.clear();
    let r = s.search(&start, &Limits::default());
    assert!(r.exact);
    assert_eq!(r.score, Some(-8 * SCORE_PER_DISC));
}

#[test]
fn selectivity_never_changes_an_exact_result() {
    // Multi-ProbCut cuts midgame nodes on a shallow search's word; the
    // exact solve that follows must still find the minimax value.
    // Midgame iterations run to one ply short of the end, selectively.
    let selective = SearchParams {
        mpc_confidence: 0.5,
        mpc_min_depth: 3.0,
        solve_warm_up_gap: 0.0,
        solve_always: 0.0,
        ..SearchParams::DEFAULT
    };
    let start: Position<Size4> = Variant::Tiny4.start();
    let mut s = disc_searcher::<Size4>();
    s.set_params(selective);
    let r = s.search(&start, &Limits::default());
    assert!(r.exact);
    assert_eq!(r.score, Some(-8 * SCORE_PER_DISC));
    let mut rng = SplitMix(11);
    for _ in 0..6 {
        let pos = random_position::<Size6>(Variant::Othello6, 11, &mut rng);
        if pos.is_terminal() {
            continue;
        }
        let mut s = Searcher::new(Box::new(PatternEval::<Size6>::compiled(Variant::Othello6)), 1);
        s.set_params(selective);
        let r = s.search(&pos, &Limits::default());
        assert!(r.exact);
        assert_eq!(r.score, Some(minimax(&pos) * SCORE_PER_DISC));
    }
}

/// Solves climb the whole ladder of selective solves first.
const LADDER_FROM_THE_START: SearchParams = SearchParams { solve_first_confidence: 0.0, ..SearchParams::DEFAULT };

/// A solver whose selective paths (ProbCut, the table, the shallow walk)
/// all start within the few empties of 6x6 test positions.
const SMALL_BOARD_SOLVER: ReversiParams = ReversiParams {
    endgame_probcut_empties: 5.0,
    endgame_probcut_depth: 1.0,
    endgame_table_empties: 5.0,
    endgame_shallow_empties: 4.0,
    ..ReversiParams::DEFAULT
};

#[test]
fn the_ladder_starts_only_with_enough_plies_to_go() {
    // `solve.ladder_plies`: with fewer plies to go the exact solve runs
    // alone (the same tree as with no ladder), with as many the selective
    // solves run first; the score is exact either way.
    let ladder = LADDER_FROM_THE_START;
    let solver = SMALL_BOARD_SOLVER;
    let alone = SearchParams { solve_first_confidence: params::SOLVE_CONFIDENCES.len() as f64, ..ladder };
    let mut rng = SplitMix(37);
    let mut checked = 0;
    while checked < 6 {
        let pos = random_position::<Size6>(Variant::Othello6, 10, &mut rng);
        // With a single move the search answers without searching.
        if pos.is_terminal() || pos.legal_moves().iter().count() < 2 {
            continue;
        }
        checked += 1;
        let plies = f64::from(pos.empty_count());
        let solve = |params: SearchParams| {
            let mut s = Searcher::new(Box::new(PatternEval::<Size6>::compiled(Variant::Othello6)), 1);
            s.set_params(params);
            s.set_game_params(solver);
            let r = s.search(&pos, &Limits { solve: true, ..Limits::default() });
            (r.score, r.nodes)
        };
        let exact = solve(alone);
        assert_eq!(exact.0, Some(minimax(&pos) * SCORE_PER_DISC));
        let short = solve(SearchParams { solve_ladder_plies: plies + 1.0, ..ladder });
        assert_eq!(short, exact, "one ply short of the ladder: the exact solve alone");
        let climbed = solve(SearchParams { solve_ladder_plies: plies, ..ladder });
        assert_eq!(climbed.0, exact.0);
        assert_ne!(climbed.1, exact.1, "the ladder ran no selective solve");
    }
}

#[test]
fn selective_solves_cut_and_leave_the_exact_solve_exact() {
    // Selective solves trust ProbCut, here with a far too narrow margin so
    // that their cuts go wrong; an exact solve on the same table after them
    // must not trust their entries, and the searcher's ladder of solves
    // must end at the minimax value.
    let ladder = LADDER_FROM_THE_START;
    let narrow = ReversiParams { endgame_probcut_sigma: 0.01, ..SMALL_BOARD_SOLVER };
    let eval = PatternEval::<Size6>::compiled(Variant::Othello6);
    let mut rng = SplitMix(31);
    let (mut wrong, mut checked) = (0, 0);
    while checked < 12 {
        let pos = random_position::<Size6>(Variant::Othello6, 10, &mut rng);
        if pos.is_terminal() {
            continue;
        }
        checked += 1;
        let exact = minimax(&pos) * SCORE_PER_DISC;
        let mut ctx = control::SearchContext::new(1, 1);
        ctx.solve_confidence = params::SOLVE_CONFIDENCES[0];
        for (lo, hi) in [(-INFINITY, INFINITY), (exact - 1, exact), (exact, exact + 1)] {
            let v = endgame::solve_window(&mut ctx, &eval, &narrow, &pos, lo, hi);
            wrong += usize::from(v.clamp(lo, hi) != exact.clamp(lo, hi));
        }
        ctx.solve_confidence = tt::FULL_CONFIDENCE;
        for (lo, hi) in [(exact - 1, exact), (exact, exact + 1), (-INFINITY, INFINITY)] {
            let v = endgame::solve_window(&mut ctx, &eval, &narrow, &pos, lo, hi);
            assert!(v.clamp(lo, hi) == exact.clamp(lo, hi), "{v} vs {exact} in ({lo}, {hi}) after selective solves");
        }
        let mut s = Searcher::new(Box::new(PatternEval::<Size6>::compiled(Variant::Othello6)), 1);
        s.set_params(ladder);
        s.set_game_params(narrow);
        let r = s.search(&pos, &Limits { solve: true, ..Limits::default() });
        assert!(r.exact);
        assert_eq!(r.score, Some(exact));
    }
    assert!(wrong > 0, "the narrow margin cut no line wrongly: the test proves nothing");
}

/// Solves `pos` in each window of `windows` (in discs) and checks the
/// fail-soft answer against its exact value `exact` (discs): inside the
/// window the value itself, outside a bound on the correct side.
fn check_solver_windows<G: Geometry>(
    ctx: &mut control::SearchContext,
    pos: &Position<G>,
    exact: i32,
    windows: &[(i32, i32)],
) {
    let exact = exact * SCORE_PER_DISC;
    for &(a, b) in windows {
        let (lo, hi) = (a * SCORE_PER_DISC, b * SCORE_PER_DISC);
        let v = endgame::solve_window(ctx, &FinalScore, &ReversiParams::DEFAULT, pos, lo, hi);
        assert!(v > lo || exact <= v, "fail low must bound from above: {v} vs {exact} in ({a}, {b})");
        assert!(v < hi || exact >= v, "fail high must bound from below: {v} vs {exact} in ({a}, {b})");
        if v > lo && v < hi {
            assert_eq!(v, exact, "in ({a}, {b})");
        }
    }
}

#[test]
fn the_solver_matches_minimax_in_every_window() {
    let mut rng = SplitMix(7);
    let mut ctx = control::SearchContext::new(1, 1);
    for round in 0..60 {
        let empties = 3 + round % 7;
        let variant = if round % 2 == 0 { Variant::Othello6 } else { Variant::Tiny4 };
        if variant == Variant::Othello6 {
            let pos = random_position::<Size6>(variant, empties, &mut rng);
            let exact = minimax(&pos);
            let windows = [(-100, 100), (exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact), (-3, 4)];
            check_solver_windows(&mut ctx, &pos, exact, &windows);
        } else {
            let pos = random_position::<Size4>(variant, empties, &mut rng);
            check_solver_windows(&mut ctx, &pos, minimax(&pos), &[(-1000, 1000)]);
        }
    }
}

#[test]
fn the_solver_answers_windows_at_and_beyond_the_largest_score() {
    // No score passes the board's cell count: windows reaching past it are
    // narrowed to it and windows wholly beyond it answered at once, which
    // must stay right also for wipeouts, whose score is that limit.
    let mut rng = SplitMix(41);
    let mut ctx = control::SearchContext::new(1, 1);
    let limit = Size4::CELLS as i32;
    let mut wipeouts = 0;
    for _ in 0..3000 {
        let empties = 2 + rng.random_range(0..6);
        let pos = random_position::<Size4>(Variant::Tiny4, empties, &mut rng);
        let exact = minimax(&pos);
        wipeouts += usize::from(exact.abs() == limit);
        let windows = [
            (exact - 1, 1000),
            (-1000, exact + 1),
            (limit - 1, 1000),
            (-1000, 1 - limit),
            (limit, 1000),
            (-1000, -limit),
            (limit + 3, limit + 9),
            (-limit - 9, -limit - 3),
        ];
        check_solver_windows(&mut ctx, &pos, exact, &windows);
    }
    assert!(wipeouts >= 10, "{wipeouts} wipeouts: the limit's edge went untested");
}

#[test]
fn the_solver_finishes_two_empties_exactly_through_passes_and_blocked_ends() {
    // Two empty cells have their own shortcut: every window, against
    // minimax, including positions where the mover must pass and where
    // neither side can fill them.
    let mut rng = SplitMix(29);
    let mut ctx = control::SearchContext::new(1, 1);
    let (mut passes, mut blocked, mut seen) = (0, 0, 0);
    for _ in 0..200_000 {
        if seen >= 400 && passes > 0 && blocked > 0 {
            break;
        }
        let pos = random_position::<Size4>(Variant::Tiny4, 2, &mut rng);
        if pos.empty_count() != 2 {
            continue;
        }
        seen += 1;
        let stuck = pos.legal_moves().iter().all(|mv| mv.cell().is_none());
        passes += usize::from(stuck && !pos.is_terminal());
        blocked += usize::from(pos.is_terminal());
        let exact = minimax(&pos);
        check_solver_windows(
            &mut ctx,
            &pos,
            exact,
            &[(-100, 100), (exact - 1, exact + 1), (exact, exact + 1), (exact - 1, exact)],
        );
    }
    assert!(seen >= 400 && passes > 0 && blocked > 0, "{seen} positions, {passes} passes, {blocked} blocked ends");
}

#[test]
fn the_solver_reads_its_registry_settings_and_stays_exact() {
    // Every path of the solver from the third empty up (table, enhanced
    // transposition cut-off, look-ahead and evaluation ordering, the
    // ordering by searches of 1, 3 and 5 plies, the stable-disc ceiling at
    // any alpha), and the shallow walk alone: the same exact values by
    // other trees.
    let mut everywhere = ReversiParams::DEFAULT;
    for name in [
        "shallow_empties",
        "stability_empties",
        "table_empties",
        "etc_empties",
        "lookahead_empties",
        "eval_order_empties",
        "sort_empties",
    ] {
        everywhere.set(&format!("endgame.{name}"), 0.0).unwrap();
    }
    everywhere.set("endgame.stability_alpha_per_empty", -64.0).unwrap();
    everywhere.set("endgame.sort_step", 4.0).unwrap();
    let mut walk = ReversiParams::DEFAULT;
    walk.set("endgame.shallow_empties", 20.0).unwrap();
    let mut rng = SplitMix(11);
    let mut nodes = [0u64; 3];
    for _ in 0..12 {
        let pos = random_position::<Size6>(Variant::Othello6, 10, &mut rng);
        let exact = minimax(&pos);
        for (k, params) in [ReversiParams::DEFAULT, everywhere, walk].iter().enumerate() {
            let mut ctx = control::SearchContext::new(1, 1);
            let v = endgame::solve_window(
                &mut ctx,
                &PatternEval::<Size6>::compiled(Variant::Othello6),
                params,
                &pos,
                -INFINITY,
                INFINITY,
            );
            assert_eq!(v, exact * SCORE_PER_DISC, "setting {k}");
            nodes[k] += ctx.control.nodes;
        }
    }
    assert!(nodes[0] != nodes[1] && nodes[0] != nodes[2], "settings that change the tree: {nodes:?}");
}

#[test]
fn the_midgame_search_matches_minimax_once_deep_enough() {
    // Deep enough to reach the end, the search must give the exact value
    // whatever the evaluator: the solver takes over at the horizon.
    let mut rng = SplitMix(11);
    for _ in 0..10 {
        let pos = random_position::<Size6>(Variant::Othello6, 9, &mut rng);
        if pos.is_terminal() {
            continue;
        }
        let exact = minimax(&pos);
        let mut s = Searcher::new(Box::new(PatternEval::<Size6>::compiled(Variant::Othello6)), 1);
        let r = s.search(&pos, &Limits::default());
        assert!(r.exact);
        if pos.legal_moves().len() > 1 {
            assert_eq!(r.score, Some(exact * SCORE_PER_DISC));
        }
        let best = pos.play(r.best);
        assert_eq!(-minimax(&best), exact, "the chosen move must be optimal");
    }
}

/// Plain negamax `depth` plies deep with `eval` at the horizon: the
/// reference for a full-width search that stays in the middle game.
fn negamax<G: Geometry>(pos: &Position<G>, eval: &PatternEval<G>, depth: u32) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.final_score_for_mover() * SCORE_PER_DISC;
    }
    if depth == 0 {
        return eval.evaluate(pos);
    }
    moves.iter().map(|&mv| -negamax(&pos.result(mv), eval, depth - 1)).max().unwrap()
}

#[test]
fn a_full_width_search_matches_negamax_whichever_depths_use_the_table() {
    // The table only saves work: with it at every depth, from depth 3 on or
    // not at all (64), a fixed-depth full-width search keeps the value.
    const DEPTH: u32 = 4;
    let eval = PatternEval::<Size8>::compiled(Variant::Othello8);
    let mut rng = SplitMix(23);
    for _ in 0..6 {
        let pos = random_position::<Size8>(Variant::Othello8, 44, &mut rng);
        let expected = negamax(&pos, &eval, DEPTH);
        for table_depth in [0.0, 3.0, 64.0] {
            let params = SearchParams { mpc_confidence: 0.0, table_depth, ..SearchParams::DEFAULT };
            let mut s = Searcher::new(Box::new(eval.clone()), 1);
            s.set_params(params);
            let r = s.search(&pos, &Limits { depth: Some(DEPTH), ..Limits::default() });
            assert_eq!(r.score, Some(expected), "search.table_depth={table_depth}");
        }
    }
}

#[test]
fn prefetching_every_childs_bucket_leaves_the_search_as_it_was() {
    // A prefetch only asks the memory system for a line: with it at no
    // node, at nodes up to 2 plies deep or at every node, a fixed-depth
    // search visits the same nodes and finds the same score and move.
    const DEPTH: u32 = 7;
    let eval = PatternEval::<Size8>::compiled(Variant::Othello8);
    let mut rng = SplitMix(29);
    for _ in 0..4 {
        let pos = random_position::<Size8>(Variant::Othello8, 40, &mut rng);
        let results: Vec<_> = [0.0, 2.0, 64.0]
            .into_iter()
            .map(|prefetch_children_depth| {
                let params = SearchParams { prefetch_children_depth, ..Position::<Size8>::PARAMS };
                let mut s = Searcher::new(Box::new(eval.clone()), 4);
                s.set_params(params);
                let r = s.search(&pos, &Limits { depth: Some(DEPTH), ..Limits::default() });
                (r.score, r.best, r.nodes)
            })
            .collect();
        assert!(results.iter().all(|r| *r == results[0]), "{results:?}\n{pos}");
    }
}

#[test]
fn a_wipeout_at_the_horizon_ends_the_game() {
    // From an othello8 game: after X c5 here, O takes X's last disc with
    // the fifth ply (b4 g7 h8 d2 d1). A search exactly that deep must score
    // the finished game, as negamax over the rules does; evaluating it as a
    // live position once let the selective search walk into it.
    const DEPTH: u32 = 5;
    const ROOT_DEPTH: u32 = 12;
    const ROOT: &str = "-------------------O-O----XXXO-----OXO---OOOOO------------------ X";
    let cell = |name: &str| Move::<Size8>::parse(name).unwrap();
    let root = ffo::parse_obf(ROOT).unwrap();
    let pos = root.play(cell("c5"));
    let wiped = ["b4", "g7", "h8", "d2", "d1"].iter().fold(pos, |p, &m| p.play(cell(m)));
    assert!(wiped.player().is_empty() && wiped.legal_moves().is_empty());
    let eval = PatternEval::<Size8>::compiled(Variant::Othello8);
    let expected = negamax(&pos, &eval, DEPTH);
    assert_eq!(expected, -wiped.final_score_for_mover() * SCORE_PER_DISC);
    let mut s = Searcher::new(Box::new(eval.clone()), 1);
    s.set_params(SearchParams { mpc_confidence: 0.0, ..SearchParams::DEFAULT });
    let r = s.search(&pos, &Limits { depth: Some(DEPTH), ..Limits::default() });
    assert_eq!(r.score, Some(expected));
    assert_eq!(r.best, cell("b4"));
    // The selective search of the 8x8 defaults must not walk into it
    // either: after b4 X holds 2 discs of 16, a node no shallow probe may
    // cut (`mpc.min_disc_share`).
    let mut s = Searcher::new(Box::new(eval), 1);
    let r = s.search(&root, &Limits { depth: Some(ROOT_DEPTH), ..Limits::default() });
    assert_ne!(r.best, cell("c5"));
}

#[test]
fn depth_and_node_limits_are_kept() {
    let start: Position<Size8> = Variant::Othello8.start();
    let mut s = Searcher::new(Box::new(PatternEval::<Size8>::compiled(Variant::Othello8)), 4);
    let r = s.search(&start, &Limits { depth: Some(5), ..Limits::default() });
    assert_eq!(r.depth, 5);
    assert!(!r.exact);
    assert!(start.is_legal(r.best));
    let r = s.search(&start, &Limits { nodes: Some(20_000), ..Limits::default() });
    assert!(r.nodes < 20_000 + 2 * control::CHECK_INTERVAL, "{}", r.nodes);
    assert!(r.depth >= 1 && start.is_legal(r.best));
}

#[test]
fn a_forced_move_is_answered_at_once() {
    let mut rng = SplitMix(3);
    let mut found = false;
    for _ in 0..200 {
        let pos = random_position::<Size6>(Variant::Othello6, rng.random_range(4..20), &mut rng);
        let moves = pos.legal_moves();
        if moves.len() == 1 && !pos.is_terminal() {
            let mut engine = reversi_engine::<Size6>(Variant::Othello6, EngineConfig::default()).unwrap();
            let d = engine.choose(&pos, &Clock { own_remaining: 100.0, opponent_remaining: 100.0 });
            assert_eq!((d.mv, d.nodes), (moves[0], 0));
            found = true;
        }
    }
    assert!(found, "no forced position found");
}

#[test]
fn a_tiny_clock_answers_legally_and_at_once() {
    let mut rng = SplitMix(5);
    let mut engine = reversi_engine::<Size12>(Variant::Duo12, EngineConfig::default()).unwrap();
    for empties in [130, 100, 70, 40, 20, 8] {
        let pos = random_position::<Size12>(Variant::Duo12, empties, &mut rng);
        if pos.is_terminal() {
            continue;
        }
        let timer = CpuTimer::start();
        let d = engine.choose(&pos, &Clock { own_remaining: 0.01, opponent_remaining: 10.0 });
        let used = timer.elapsed().as_secs_f64();
        assert!(pos.is_legal(d.mv));
        assert!(used < 0.005, "{empties} empties: {used} s");
    }
}

#[test]
fn the_hard_limit_holds() {
    let mut rng = SplitMix(9);
    let pos =
        (0..).map(|_| random_position::<Size12>(Variant::Duo12, 90, &mut rng)).find(|p| !p.is_terminal()).unwrap();
    let config = EngineConfig { move_time: Some(0.05), ..EngineConfig::default() };
    let mut engine = reversi_engine::<Size12>(Variant::Duo12, config).unwrap();
    let timer = CpuTimer::start();
    let d = engine.choose(&pos, &Clock::UNLIMITED);
    let used = timer.elapsed().as_secs_f64();
    assert!(pos.is_legal(d.mv));
    assert!(used < 0.05 + 0.01, "{used} s");
    assert!(d.depth.unwrap() >= 2);
    // The clock plan caps a generous per-move setting.
    let config = EngineConfig { move_time: Some(10.0), ..EngineConfig::default() };
    let mut engine = reversi_engine::<Size12>(Variant::Duo12, config).unwrap();
    let timer = CpuTimer::start();
    engine.choose(&pos, &Clock { own_remaining: 0.5, opponent_remaining: 0.5 });
    assert!(timer.elapsed().as_secs_f64() < 0.5 * 0.3);
}

#[test]
fn whole_games_are_legal_on_every_board() {
    fn play<G: crate::CompiledGeometry>(variant: Variant) {
        let config = EngineConfig { depth: Some(3), ..EngineConfig::default() };
        let mut engine = reversi_engine::<G>(variant, config).unwrap();
        let mut pos: Position<G> = variant.start();
        while !pos.is_terminal() {
            let d = engine.choose(&pos, &Clock::UNLIMITED);
            assert!(pos.is_legal(d.mv), "{variant}: {} in\n{pos:?}", d.mv);
            pos = pos.play(d.mv);
        }
    }
    play::<Size4>(Variant::Tiny4);
    play::<Size6>(Variant::Othello6);
    play::<Size8>(Variant::Othello8);
    play::<Size12>(Variant::Duo12);
}

#[test]
fn the_engine_beats_random_play() {
    use engine_core::agent::RandomAgent;
    let config = EngineConfig { depth: Some(2), ..EngineConfig::default() };
    let mut engine = reversi_engine::<Size8>(Variant::Othello8, config).unwrap();
    let mut wins = 0;
    for seed in 0..6 {
        let mut random = RandomAgent::new(seed);
        let mut pos: Position<Size8> = Variant::Othello8.start();
        let engine_color =
            if seed % 2 == 0 { engine_core::game::Color::Black } else { engine_core::game::Color::White };
        while !pos.is_terminal() {
            let mv = if pos.to_move() == engine_color {
                engine.choose(&pos, &Clock::UNLIMITED).mv
            } else {
                Agent::<Position<Size8>>::choose(&mut random, &pos, &Clock::UNLIMITED).mv
            };
            pos = pos.play(mv);
        }
        if pos.final_score() * engine_color.sign() > 0 {
            wins += 1;
        }
    }
    assert!(wins >= 5, "{wins} of 6");
}

#[test]
fn a_calibrated_faster_machine_solves_from_more_empties() {
    // Twice the speed buys what twice the time buys, and a little more
    // than the uncalibrated default; absurd calibrations are clamped.
    let p = &SearchParams::DEFAULT;
    assert_eq!(solve_plies(1.0, Some(2.0), p), solve_plies(2.0, None, p));
    assert!(solve_plies(1.0, Some(8.0), p) > solve_plies(1.0, None, p));
    assert!(solve_plies(1.0, Some(0.1), p) < solve_plies(1.0, None, p));
    assert_eq!(solve_plies(1.0, Some(1e9), p), solve_plies(1.0, Some(1e3), p));
    let config = EngineConfig { nps_hint: Some(2.0 * REFERENCE_NPS), ..EngineConfig::default() };
    let start: Position<Size12> = Variant::Duo12.start();
    let clock = Clock { own_remaining: 300.0, opponent_remaining: 300.0 };
    assert_eq!(config.limits(&start, &clock, &Overrun::default()).speed, Some(2.0));
    assert_eq!(EngineConfig::default().limits(&start, &clock, &Overrun::default()).speed, None);
}

/// A whole othello8 game between two engines that each plan `budget`
/// seconds of a simulated clock (one millisecond per clock reading, about
/// a million nodes a second): per side, the seconds each move used, with
/// the empties and whether the move was solved exactly.
fn simulated_game(budget: f64) -> [Vec<(u32, f64, bool)>; 2] {
    let clocks = [CpuClock::simulated(Duration::from_millis(1)), CpuClock::simulated(Duration::from_millis(1))];
    let mut engines = clocks.clone().map(|clock| {
        reversi_engine::<Size8>(Variant::Othello8, EngineConfig { clock, ..EngineConfig::default() }).unwrap()
    });
    let mut left = [budget; 2];
    let mut moves: [Vec<(u32, f64, bool)>; 2] = [Vec::new(), Vec::new()];
    let mut pos: Position<Size8> = Variant::Othello8.start();
    while !pos.is_terminal() {
        if pos.legal_moves()[0].is_pass() {
            pos = pos.play(Move::PASS);
            continue;
        }
        let side = pos.to_move().index();
        let timer = clocks[side].timer();
        let clock = Clock { own_remaining: left[side], opponent_remaining: left[1 - side] };
        let r = engines[side].play(&pos, &clock);
        let used = timer.elapsed().as_secs_f64();
        left[side] -= used;
        assert!(left[side] > 0.0, "side {side} lost on time");
        moves[side].push((pos.empty_count(), used, r.exact || pos.legal_moves().len() == 1));
        pos = pos.play(r.best);
    }
    moves
}

#[test]
fn the_time_plan_spends_the_clock_evenly_over_the_game() {
    const BUDGET: f64 = 6.0;
    for (side, moves) in simulated_game(BUDGET).iter().enumerate() {
        let total: f64 = moves.iter().map(|m| m.1).sum();
        let mean = total / moves.len() as f64;
        let line = moves.iter().map(|(e, t, x)| format!("{e}:{t:.3}{}", if *x { "x" } else { "" })).collect::<Vec<_>>();
        eprintln!("side {side}: {total:.2} s of {BUDGET}: {}", line.join(" "));
        assert!((0.85 * BUDGET..=BUDGET).contains(&total), "side {side} used {total:.2} s of {BUDGET} s");
        for &(empties, used, decided) in moves {
            assert!(decided || empties < 16 || used >= mean / 3.0, "side {side}, {empties} empties: {used:.3} s");
        }
    }
}

// ---- The objective: proven results against evaluations ----

/// The othello8 board (plain count) of the objective tests, O to move: a1
/// takes b2 and c3 and leaves no X disc next to an O disc, so the game ends
/// there with O 5, X 6; b3 takes c3 alone and the game goes on.
const PROVEN_LOSS_8: &str = "O
........
.X......
..XO....
...O....
........
........
.....XXX
.....XXX
";

/// The same on the duo12 board (X gets +1), with `x_far` X discs in the far
/// corner: after a1, O 5 against `x_far` + 1.
fn proven_end_12(x_far: usize) -> Position<Size12> {
    let mut rows = vec![".".repeat(12); 12];
    rows[1] = ".X..........".into();
    rows[2] = "..XO........".into();
    rows[3] = "...O........".into();
    let far = ["...........X", "..........XX", ".........XXX"];
    let mut placed = 0;
    for (r, row) in far.iter().enumerate() {
        let mut cells: Vec<char> = row.chars().collect();
        for c in cells.iter_mut().rev() {
            if *c == 'X' {
                if placed == x_far {
                    *c = '.';
                } else {
                    placed += 1;
                }
            }
        }
        rows[9 + r] = cells.into_iter().collect();
    }
    assert_eq!(placed, x_far, "the far corner holds up to 6 discs");
    let text = format!("O\n{}\n", rows.join("\n"));
    Position::parse(&text, Variant::Duo12.scoring()).unwrap()
}

/// After `a1` from `pos` the game is over with the final margin `margin`
/// for the mover (by the rules alone); after `b3` it goes on.
fn check_the_two_moves<G: Geometry>(pos: &Position<G>, margin: i32) {
    let cell = |name: &str| Move::<G>::parse(name).unwrap();
    let ended = pos.play(cell("a1"));
    assert!(ended.is_terminal(), "a1 ends the game");
    assert_eq!(ended.final_score() * pos.to_move().sign(), margin, "a1's final margin for O");
    assert!(!pos.play(cell("b3")).is_terminal(), "b3 goes on");
}

#[test]
fn counting_discs_takes_a_proven_one_disc_loss_and_playing_to_win_does_not() {
    let pos = Position::<Size8>::parse(PROVEN_LOSS_8, crate::Scoring::PLAIN).unwrap();
    check_the_two_moves(&pos, -1);
    let a1 = Move::<Size8>::parse("a1").unwrap();
    for depth in [2, 3] {
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        // Every other move leaves O at least 3 discs behind by the count.
        let mut s = disc_searcher::<Size8>();
        let r = s.search(&pos, &limits);
        assert_eq!((r.best, r.score), (a1, Some(-SCORE_PER_DISC)), "discs, depth {depth}");
        s.set_outcomes(Outcomes::wins(None));
        let r = s.search(&pos, &limits);
        assert_ne!(r.best, a1, "wins, depth {depth}");
        let score = r.score.unwrap();
        assert!(matches!(Band::of(score), Band::Unproven(_)) && score <= -3 * SCORE_PER_DISC, "{score}");
    }
}

#[test]
fn on_duo12_a_level_score_counts_as_the_tie_rule_says() {
    let a1 = Move::<Size12>::parse("a1").unwrap();
    let limits = Limits { depth: Some(2), ..Limits::default() };
    // X 4 + 1 against O 5: level; X 5 + 1 against 5: O loses by one.
    for (x_far, margin) in [(4, 0), (5, -1)] {
        let pos = proven_end_12(x_far);
        check_the_two_moves(&pos, margin);
        for (tie_winner, takes_a1) in [(Some(Color::White), margin == 0), (Some(Color::Black), false), (None, false)] {
            if tie_winner.is_none() && margin == 0 {
                // A draw scores 0, above every move that falls behind.
                continue;
            }
            let mut s = disc_searcher::<Size12>();
            s.set_outcomes(Outcomes::wins(tie_winner));
            let r = s.search(&pos, &limits);
            assert_eq!(r.best == a1, takes_a1, "X {x_far}, ties to {tie_winner:?}");
            if takes_a1 {
                assert_eq!(Band::of(r.score.unwrap()), Band::Won(0));
            }
        }
    }
}

/// Full-width negamax under `outcomes` with the disc count at the horizon,
/// as the search values its nodes: exact from as many plies as there are
/// empties, a wiped-out side at the horizon scored as finished.
fn outcome_negamax<G: Geometry>(pos: &Position<G>, depth: u32, outcomes: Outcomes) -> i32 {
    let mover = pos.to_move();
    if depth >= pos.empty_count() {
        return outcomes.final_score(minimax(pos), mover);
    }
    let moves = pos.legal_moves();
    if moves.is_empty() || (depth == 0 && (pos.player().is_empty() || pos.opponent().is_empty())) {
        return outcomes.final_score(pos.final_score_for_mover(), mover);
    }
    if depth == 0 {
        return FinalScore.evaluate(pos);
    }
    moves.iter().map(|&mv| -outcome_negamax(&pos.result(mv), depth - 1, outcomes)).max().unwrap()
}

#[test]
fn proven_and_unproven_scores_keep_their_bands_through_the_table_and_the_windows() {
    // One searcher per position keeps its table from depth to depth, so
    // solved entries (the solver's margins) and midgame bounds in bands
    // meet in later iterations' windows.
    let rules = [
        Outcomes::MARGIN,
        Outcomes::wins(None),
        Outcomes::wins(Some(Color::Black)),
        Outcomes::wins(Some(Color::White)),
    ];
    let mut rng = SplitMix(64);
    for k in 0..12 {
        let variant = if k % 2 == 0 { Variant::Othello6 } else { Variant::Duo12 };
        let empties = 8 + (k % 3) as u32;
        if k % 2 == 0 {
            let pos = random_position::<Size6>(variant, empties, &mut rng);
            rules.iter().for_each(|&outcomes| check_outcome_search(&pos, outcomes));
        } else {
            let pos = random_position::<Size12>(variant, empties, &mut rng);
            rules.iter().for_each(|&outcomes| check_outcome_search(&pos, outcomes));
        }
    }
}

/// [`proven_and_unproven_scores_keep_their_bands_through_the_table_and_the_windows`]
/// on `pos`.
fn check_outcome_search<G: Geometry>(pos: &Position<G>, outcomes: Outcomes) {
    if pos.is_terminal() {
        return;
    }
    let mut s = disc_searcher::<G>();
    s.set_params(SearchParams { mpc_confidence: 0.0, ..SearchParams::DEFAULT });
    s.set_outcomes(outcomes);
    for depth in 1..=pos.empty_count() {
        let r = s.search(pos, &Limits { depth: Some(depth), search_forced: true, ..Limits::default() });
        let score = r.score.unwrap();
        assert_eq!(score, outcome_negamax(pos, r.depth, outcomes), "{outcomes:?} depth {}", r.depth);
        if r.depth < depth {
            // Stopped early only on a proven result, which deeper searches keep.
            assert!(score.abs() >= DECIDED);
            let deeper = outcome_negamax(pos, depth, outcomes);
            assert_eq!(deeper.signum(), score.signum());
            assert!(deeper.abs() >= DECIDED);
        }
    }
}

#[test]
fn the_clocks_decide_who_a_level_score_goes_to() {
    let pos: Position<Size12> = Variant::Duo12.start();
    let config = EngineConfig::default();
    let limits = Limits { time: Some(TimePlan::fixed(5.0)), ..Limits::default() };
    let clock = |own, opponent| Clock { own_remaining: own, opponent_remaining: opponent };
    // O moves first; its clock after this move's hard limit against X's.
    assert_eq!(config.outcomes(&pos, &clock(100.0, 90.0), &limits).tie_winner, Some(Color::White));
    assert_eq!(config.outcomes(&pos, &clock(100.0, 96.0), &limits).tie_winner, Some(Color::Black));
    assert_eq!(config.outcomes(&pos, &clock(100.0, 95.0), &limits).tie_winner, Some(Color::Black));
    assert_eq!(config.outcomes(&pos, &Clock::UNLIMITED, &limits).tie_winner, Some(Color::Black));
    // Othello's level score is a draw.
    let othello: Position<Size8> = Variant::Othello8.start();
    assert_eq!(config.outcomes(&othello, &clock(100.0, 1.0), &limits).tie_winner, None);
    let margin = EngineConfig { objective: Objective::Margin, ..config };
    assert_eq!(margin.outcomes(&pos, &clock(1.0, 1.0), &limits).objective, Objective::Margin);
}
