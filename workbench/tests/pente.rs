//! `--variant pente`: whole runs against the reference agents, determinism,
//! and external agents (shell scripts) refereed through the Pente file
//! protocol: legal play by the full rules, and forfeits.

use engine_core::game::{Color, Game};
use pente::PenteProtocol;
use pente::{Cell, PentePosition};
use selfplay::game::{GameSetup, play_game};
use selfplay::job::{Job, Schedule};
use selfplay::player::{PlayerSpec, Seat};
use selfplay::protocol::GameProtocol;
use selfplay::record::{self, GameRecord, PositionRecord};
use selfplay::run::{self, RunOptions};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// CPU seconds per side: far more than any of these games uses.
const PLENTY: f64 = 300.0;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("selfplay-pente-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn job(players: &[&str], games: u64, seed: u64) -> Job {
    Job {
        variant: "pente".into(),
        players: players.iter().map(|s| s.to_string()).collect(),
        schedule: Schedule::RoundRobin,
        games,
        seed,
        openings: None,
        random_plies: 4,
        tc: PLENTY,
        sample_every: 1,
        shard: None,
    }
}

fn run_pente(job: &Job, out: &Path, threads: usize) -> run::Summary {
    let options = RunOptions {
        out: out.to_path_buf(),
        threads,
        sprt: None,
        command: vec!["test".into()],
        quiet: true,
        executor: Default::default(),
    };
    run::run(&PenteProtocol, job, &options).unwrap()
}

/// The games of a folder in id order, CPU time columns zeroed.
fn games(dir: &Path) -> Vec<GameRecord> {
    let mut games = record::games_in(dir).unwrap();
    for g in &mut games {
        (g.black_cpu, g.white_cpu) = (0.0, 0.0);
    }
    games
}

/// The positions of a folder in game and ply order, the `cpu` column
/// (checked present) blanked.
fn positions(dir: &Path) -> Vec<PositionRecord> {
    let mut rows = record::positions_in(dir).unwrap();
    for p in &mut rows {
        assert!(p.cpu.is_some_and(|c| c >= 0.0), "{p:?}");
        p.cpu = None;
    }
    rows
}

#[test]
fn the_engine_beats_the_random_agent_and_the_files_read_back() {
    let out = temp_dir("run");
    let engine = "engine:depth=1";
    let summary = run_pente(&job(&[engine, "random"], 4, 5), &out, 2);
    assert_eq!(summary.games, 4);
    let protocol = PenteProtocol;
    let games = games(&out);
    assert_eq!(games.len(), 4);
    for g in &games {
        let engine_is_black = g.black == engine;
        assert_eq!(g.result, if engine_is_black { "1-0" } else { "0-1" }, "{g:?}");
        assert_eq!(g.score, if engine_is_black { 1 } else { -1 }, "Black's side: +1 won, -1 lost");
        assert_eq!(g.ending, "normal");
        let opening = protocol.parse_flat(&g.opening).unwrap();
        // Four random plies: White's first stone on the centre, the second
        // at distance 3, each Black stone anywhere legal.
        assert_eq!(opening.stone_at(Cell::CENTRE), Some(Color::White));
        assert_eq!((opening.placed(Color::White), opening.placed(Color::Black)), (2, 2));
        assert!(opening.is_legal(Cell::parse("1A").unwrap()), "the opening rule is over");
        // The counts are captured stones: whole pairs.
        assert!(g.black_count % 2 == 0 && g.white_count % 2 == 0, "{g:?}");
    }
    let rows = positions(&out);
    assert!(!rows.is_empty());
    for p in &rows {
        let board = protocol.parse_flat(&p.board).unwrap_or_else(|e| panic!("{}: {e}", p.board));
        assert_eq!(p.side, protocol.side_letter(board.to_move()).to_string());
        assert!(p.board.starts_with(&p.side));
        let g = &games[p.game as usize];
        let engine_moved = (p.side == "b") == (g.black == engine);
        assert_eq!(p.result, if engine_moved { 1.0 } else { 0.0 });
        assert_eq!(p.disc_diff, if engine_moved { 1 } else { -1 });
        // Only the engine searches.
        assert_eq!(p.depth.is_some(), engine_moved);
        assert_eq!(p.nodes.is_some(), engine_moved, "{p:?}");
    }
    // Colour-swapped pairs start from one opening; the two pairs differ.
    assert_eq!(games[0].opening, games[1].opening);
    assert_ne!(games[0].opening, games[2].opening);
    fs::remove_dir_all(out).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_pente_games() {
    // Under 3 s left the minimax agent searches one ply on every move, so
    // its games do not depend on the CPU time it used; its ties are seeded.
    let job = job(&["engine:depth=1", "random", "minimax:tc=2"], 4, 11);
    let (a, b, c) = (temp_dir("det-a"), temp_dir("det-b"), temp_dir("det-c"));
    assert_eq!(run_pente(&job, &a, 2).games, 12);
    run_pente(&job, &b, 1);
    assert!(games(&a).iter().all(|g| g.ending == "normal"), "{:?}", games(&a));
    assert_eq!(games(&a), games(&b));
    assert_eq!(positions(&a), positions(&b));
    run_pente(&Job { seed: 12, ..job }, &c, 2);
    assert_ne!(games(&a), games(&c));
    for d in [a, b, c] {
        fs::remove_dir_all(d).unwrap();
    }
}

/// Writes an executable bash script that checks the shape of `input.txt`
/// (else exits 9: a crash) and then runs `body`; returns its `cmd:` spec.
fn agent(dir: &Path, name: &str, body: &str) -> PlayerSpec {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    let check = r#"head -1 input.txt | grep -qxE 'WHITE|BLACK' || exit 9
sed -n 2p input.txt | grep -qxE '[0-9]+(\.[0-9]+)?(e-?[0-9]+)?' || exit 9
sed -n 3p input.txt | grep -qxE '[0-9]*[02468],[0-9]*[02468]' || exit 9
[ "$(sed -n '4,22p' input.txt | grep -cxE '[wb.]{19}')" = 19 ] || exit 9
[ "$(wc -l < input.txt)" = 22 ] || exit 9"#;
    fs::write(&path, format!("#!/bin/bash\n{check}\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd:{}", path.display()).parse().unwrap()
}

/// Plays the first empty cell in reading order (row 19 first, column A
/// first): legal by the rules once the opening rule is over, but far from
/// the stones, outside the candidate cells the engine searches.
const FIRST_EMPTY: &str = r#"awk -v cols=ABCDEFGHJKLMNOPQRST 'NR >= 4 && NR <= 22 {
    c = index($0, ".")
    if (c) { print (23 - NR) substr(cols, c, 1); exit }
}' input.txt > output.txt"#;

/// The opening the external games start from: White 10K, Black 11L, White
/// 10N (distance 3 from the centre), Black 9M.
fn opening() -> PentePosition {
    let mut pos = PenteProtocol.start();
    for mv in ["10K", "11L", "10N", "9M"] {
        let cell = Cell::parse(mv).unwrap();
        assert!(pos.is_legal(cell));
        pos.make(cell);
    }
    pos
}

fn play(dir: &Path, players: [&PlayerSpec; 2], id: u64) -> (GameRecord, Vec<PositionRecord>) {
    let home = |i: usize| dir.join(format!("home{i}"));
    let mut black = Seat::new(&PenteProtocol, players[0], 1, &home(0)).unwrap();
    let mut white = Seat::new(&PenteProtocol, players[1], 2, &home(1)).unwrap();
    let setup = GameSetup {
        id,
        seed: 0,
        opening: opening(),
        names: [players[0].text.clone(), players[1].text.clone()],
        time: [PLENTY, PLENTY],
        sample_every: 1,
    };
    let game =
        play_game(&PenteProtocol, &setup, [&mut black, &mut white], &AtomicBool::new(false)).expect("not abandoned");
    assert_eq!(game.ggf, None, "GGF records no Pente game");
    (game.record, game.positions)
}

#[test]
fn an_external_agent_plays_whole_games_through_the_file_protocol() {
    let dir = temp_dir("external");
    let script = agent(&dir, "first-empty.sh", FIRST_EMPTY);
    let engine: PlayerSpec = "engine:depth=1".parse().unwrap();
    // The script as White (whose turn it is after the opening), then as Black.
    for (id, players, script_side) in [(0, [&engine, &script], "w"), (1, [&script, &engine], "b")] {
        let (game, positions) = play(&dir, players, id);
        assert_eq!(game.ending, "normal", "{game:?}");
        let engine_won = if script_side == "w" { "1-0" } else { "0-1" };
        assert_eq!(game.result, engine_won, "{game:?}");
        let script_rows: Vec<_> = positions.iter().filter(|p| p.side == script_side).collect();
        assert!(script_rows.len() >= 2, "{game:?}");
        // Its first move, the first empty cell 19A, is no candidate of the
        // engine's move list but legal, and stands in the next position.
        let first = positions.iter().position(|p| p.side == script_side).unwrap();
        let after = PenteProtocol.parse_flat(&positions[first + 1].board).unwrap();
        let color = if script_side == "w" { Color::White } else { Color::Black };
        assert_eq!(after.stone_at(Cell::parse("19A").unwrap()), Some(color));
        let cpu = if script_side == "w" { game.white_cpu } else { game.black_cpu };
        assert!(cpu > 0.0, "the script's CPU time is charged");
        // The game folder is removed after a normal game.
        let home = if script_side == "w" { "home1" } else { "home0" };
        assert!(!dir.join(home).join(format!("game-{id}-{script_side}")).exists());
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The script plays White against `random` from [`opening`]; returns the
/// record, which must be a forfeit of White.
fn forfeit(name: &str, body: &str) -> GameRecord {
    let dir = temp_dir(name);
    let script = agent(&dir, "agent.sh", body);
    let random: PlayerSpec = "random".parse().unwrap();
    let (game, positions) = play(&dir, [&random, &script], 3);
    assert_eq!(game.result, "1-0", "the script (White) loses: {game:?}");
    assert!(game.detail.starts_with("w: "), "{game:?}");
    assert!(positions.is_empty(), "a forfeited game gives no training positions");
    assert!(dir.join("home1").join("game-3-w").join("input.txt").exists(), "kept for inspection");
    fs::remove_dir_all(&dir).unwrap();
    game
}

#[test]
fn garbage_and_illegal_moves_forfeit() {
    for (name, text) in [("lower", "9n"), ("reversi", "k10"), ("words", "pass"), ("off-board", "20A")] {
        let game = forfeit(name, &format!("echo {text} > output.txt"));
        assert_eq!(game.ending, "bad-output", "{text}: {game:?}");
    }
    let game = forfeit("occupied", "echo 10K > output.txt");
    assert_eq!((game.ending.as_str(), game.detail.as_str()), ("illegal-move", "w: illegal move 10K"));
    let game = forfeit("silent", "true");
    assert_eq!(game.ending, "no-output");
}
