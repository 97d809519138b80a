//! The game master's rules, checked with small fake agents (shell scripts):
//! legal play through the file protocol, each way of losing by forfeit,
//! passes the agent never sees, and the end-of-game scoring rules.

use engine_core::agent::{Agent, Clock, RandomAgent};
use engine_core::game::{Color, Game};
use reversi::matches::ReversiProtocol;
use reversi::reference::reversi_minimax;
use reversi::{Position, Size4, Size12, Variant};
use selfplay::game::{GameSetup, play_game};
use selfplay::player::{PlayerSpec, Seat};
use selfplay::protocol::GameProtocol;
use selfplay::record::GameRecord;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// CPU seconds for the reference agent: always above its depth-3 threshold.
const PLENTY: f64 = 1000.0;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("selfplay-gm-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes an executable bash script and returns its `cmd:` spec.
fn script(dir: &std::path::Path, name: &str, body: &str, options: &str) -> PlayerSpec {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/bash\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd:{}{options}", path.display()).parse().unwrap()
}

fn play<P: GameProtocol>(
    protocol: &P,
    dir: &std::path::Path,
    players: [&PlayerSpec; 2],
    opening: P::State,
    time: [f64; 2],
    id: u64,
) -> (GameRecord, Vec<selfplay::record::PositionRecord>) {
    let home = |i: usize| dir.join(format!("home{i}"));
    let mut black = Seat::new(protocol, players[0], 1, &home(0)).unwrap();
    let mut white = Seat::new(protocol, players[1], 2, &home(1)).unwrap();
    let setup = GameSetup {
        id,
        seed: 0,
        opening,
        names: [players[0].text.clone(), players[1].text.clone()],
        time,
        sample_every: 1,
    };
    let game = play_game(protocol, &setup, [&mut black, &mut white], &AtomicBool::new(false)).expect("not abandoned");
    (game.record, game.positions)
}

/// A tiny4 game between a seeded random X and the reference agent as O in
/// which X has to pass at least once before the end: X's moves in order.
fn game_with_a_pass() -> (Vec<String>, Position<Size4>) {
    for seed in 0..500 {
        let mut x = RandomAgent::new(seed);
        let mut o = reversi_minimax::<Size4>();
        let mut pos: Position<Size4> = Variant::Tiny4.start();
        let (mut moves, mut x_passed) = (Vec::new(), false);
        while !pos.is_terminal() {
            let legal = pos.legal_moves();
            let mv = if legal[0].is_pass() {
                x_passed |= pos.to_move() == Color::Black;
                legal[0]
            } else if pos.to_move() == Color::Black {
                let mv = Agent::<Position<Size4>>::choose(&mut x, &pos, &Clock::UNLIMITED).mv;
                moves.push(mv.to_string());
                mv
            } else {
                o.choose(&pos, &Clock { own_remaining: PLENTY, opponent_remaining: PLENTY }).mv
            };
            pos.make(mv);
        }
        if x_passed && moves.len() >= 3 {
            return (moves, pos);
        }
    }
    panic!("no seed gives X a pass");
}

/// A script that plays `moves` in order, keeping its place in playdata.txt.
fn replay_script(moves: &[String]) -> String {
    format!(
        r#"moves=({})
n=0
[ -f playdata.txt ] && n=$(cat playdata.txt)
head -1 input.txt | grep -qx X || exit 9
printf '%s\n' "${{moves[$n]}}" > output.txt
echo "move $n" >&2
echo $((n + 1)) > playdata.txt"#,
        moves.join(" ")
    )
}

#[test]
fn an_agent_plays_a_whole_game_through_files_and_never_sees_its_passes() {
    let dir = temp_dir("legal");
    let (moves, end) = game_with_a_pass();
    let protocol = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    let agent = script(&dir, "replay.sh", &replay_script(&moves), "");
    let minimax: PlayerSpec = "minimax".parse().unwrap();
    // Twice: playdata.txt must not survive from one game to the next.
    for id in 0..2 {
        let (game, positions) = play(&protocol, &dir, [&agent, &minimax], protocol.start(), [PLENTY, PLENTY], id);
        assert_eq!(game.ending, "normal", "{game:?}");
        let (black, white) = end.disc_counts();
        assert_eq!((game.black_count, game.white_count, game.score), (black, white, end.score()));
        let expected = match end.score() {
            s if s > 0 => "1-0",
            s if s < 0 => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(game.result, expected);
        assert!(game.black_cpu > 0.0, "the script's CPU time is charged");
        let x_rows = positions.iter().filter(|p| p.side == "X").count();
        assert_eq!(x_rows, moves.len());
        // The game folder is removed after a normal game; its stderr is kept.
        assert!(!dir.join("home0").join(format!("game-{id}-X")).exists());
        let log = fs::read_to_string(dir.join("home0").join(selfplay::external::STDERR_LOG)).unwrap();
        let game_log: Vec<&str> = log.split(&format!("# game-{id}-X\n")).nth(1).unwrap().lines().collect();
        let expected: Vec<String> = (0..moves.len()).map(|n| format!("move {n}")).collect();
        assert_eq!(game_log[..moves.len()], expected[..], "{log}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A script that plays `moves` in order and logs its search on stderr the
/// way the competition programs do, move `n` by `n % 4`: a full line; nothing;
/// a line without a score; a good line followed by another line.
fn logging_script(moves: &[String]) -> String {
    format!(
        r#"moves=({})
n=0
[ -f playdata.txt ] && n=$(cat playdata.txt)
mv=${{moves[$n]}}
printf '%s\n' "$mv" > output.txt
case $((n % 4)) in
0) echo "played $mv (search depth 3 score -$n nodes $((100 + n)), 0.0100 s CPU)" >&2 ;;
2) echo "played $mv (search depth 5 score - nodes 9, 0.0100 s CPU)" >&2 ;;
3) echo "played $mv (search depth 7 score 1 nodes 2, 0.0100 s CPU)" >&2; echo "bye" >&2 ;;
esac
echo $((n + 1)) > playdata.txt"#,
        moves.join(" ")
    )
}

#[test]
fn an_agents_played_lines_fill_score_depth_and_nodes() {
    let dir = temp_dir("logged");
    let (moves, _) = game_with_a_pass();
    let protocol = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    let agent = script(&dir, "logging.sh", &logging_script(&moves), "");
    let minimax: PlayerSpec = "minimax".parse().unwrap();
    let (game, positions) = play(&protocol, &dir, [&agent, &minimax], protocol.start(), [PLENTY, PLENTY], 0);
    assert_eq!(game.ending, "normal", "{game:?}");
    let x_rows: Vec<_> = positions.iter().filter(|p| p.side == "X").collect();
    assert_eq!(x_rows.len(), moves.len());
    for (n, p) in x_rows.iter().enumerate() {
        let expected = match n % 4 {
            0 => (Some(-(n as i32)), Some(3), Some(100 + n as u64)),
            2 => (None, Some(5), Some(9)),
            _ => (None, None, None),
        };
        assert_eq!((p.score, p.depth, p.nodes), expected, "move {n}: {p:?}");
    }
    // Each row carries the CPU time charged for its move.
    let charged: f64 = x_rows.iter().map(|p| p.cpu.expect("cpu recorded")).sum();
    assert!((charged - game.black_cpu).abs() < 1e-9, "{charged} vs {}", game.black_cpu);
    // The reference agent searches in process: its nodes are known.
    for p in positions.iter().filter(|p| p.side == "O") {
        assert!(p.depth.is_some() && p.nodes.is_some_and(|n| n > 0) && p.cpu.is_some(), "{p:?}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The first legal move of X in the tiny4 start position.
fn first_move() -> String {
    let start: Position<Size4> = Variant::Tiny4.start();
    start.legal_moves()[0].to_string()
}

fn forfeit(body: &str, options: &str, time: f64) -> (GameRecord, f64) {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_dir(&format!("forfeit-{n}"));
    let protocol = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    let agent = script(&dir, "agent.sh", body, options);
    let random: PlayerSpec = "random".parse().unwrap();
    let started = Instant::now();
    let (game, positions) = play(&protocol, &dir, [&agent, &random], protocol.start(), [time, PLENTY], 7);
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(game.result, "0-1", "the agent (X) loses: {game:?}");
    assert!(game.detail.starts_with("X: "), "{game:?}");
    assert!(positions.is_empty(), "a forfeited game gives no training positions");
    // The folder is kept for inspection.
    assert!(dir.join("home0").join("game-7-X").join("input.txt").exists());
    fs::remove_dir_all(&dir).unwrap();
    (game, wall)
}

#[test]
fn a_crash_loses() {
    let (game, _) = forfeit(&format!("echo {} > output.txt; exit 3", first_move()), "", 10.0);
    assert_eq!((game.ending.as_str(), game.detail.as_str()), ("crash", "X: exit status 3"));
    let (game, _) = forfeit("kill -SEGV $$", "", 10.0);
    assert_eq!(game.ending, "crash");
}

#[test]
fn a_missing_output_loses() {
    let (game, _) = forfeit("true", "", 10.0);
    assert_eq!(game.ending, "no-output");
}

#[test]
fn garbage_output_loses() {
    let (game, _) = forfeit("printf 'hello world\\n' > output.txt", "", 10.0);
    assert_eq!(game.ending, "bad-output");
    let (game, _) = forfeit("printf '\\xff\\xfe' > output.txt", "", 10.0);
    assert_eq!(game.ending, "bad-output");
}

#[test]
fn an_illegal_move_loses() {
    // a1 is empty but flips nothing at the start.
    let (game, _) = forfeit("echo a1 > output.txt", "", 10.0);
    assert_eq!((game.ending.as_str(), game.detail.as_str()), ("illegal-move", "X: illegal move a1"));
}

#[test]
fn a_busy_hang_is_killed_at_its_cpu_time() {
    let (game, wall) = forfeit("while :; do :; done", "", 1.0);
    // Killed by its CPU limit (or, on a crowded machine, by the wall clock
    // backstop at 2 x 1 s + 1 s): a loss on time either way.
    assert_eq!(game.ending, "timeout");
    assert!(game.black_cpu > 0.3, "charged its CPU time: {}", game.black_cpu);
    assert!(wall < 10.0, "killed promptly: {wall} s");
}

#[test]
fn a_sleeping_hang_is_killed_by_the_wall_clock() {
    let (game, wall) = forfeit("sleep 60", "", 0.5);
    assert_eq!(game.ending, "timeout");
    assert!((1.5..10.0).contains(&wall), "killed after 2 x 0.5 s + 1 s: {wall} s");
}

#[test]
fn overrunning_the_remaining_time_loses_even_with_a_move() {
    // Burns about 0.3 s of CPU, then answers legally, with 0.1 s left.
    let body = format!("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo {} > output.txt", first_move());
    let (game, _) = forfeit(&body, "", 0.1);
    assert_eq!(game.ending, "timeout");
}

#[test]
fn input_holds_both_clocks_and_the_calibration_file_is_there() {
    let dir = temp_dir("calibrate");
    fs::write(dir.join("counter"), "").unwrap();
    let cal = dir.join("cal.sh");
    fs::write(
        &cal,
        format!("#!/bin/bash\necho 12345 > calibration.txt\necho run >> {}\n", dir.join("counter").display()),
    )
    .unwrap();
    fs::set_permissions(&cal, fs::Permissions::from_mode(0o755)).unwrap();
    let protocol = ReversiProtocol::<Size4>::new(Variant::Tiny4);
    let body =
        format!("cp input.txt {0}/seen-input.txt; cp calibration.txt {0}/seen-calibration.txt; exit 1", dir.display());
    let agent = script(&dir, "agent.sh", &body, &format!(";calibrate={}", cal.display()));
    let selfplay::player::PlayerKind::External(spec) = &agent.kind else { panic!() };
    selfplay::external::calibrate(spec, &dir.join("home0")).unwrap();
    selfplay::external::calibrate(spec, &dir.join("home0")).unwrap();
    assert_eq!(fs::read_to_string(dir.join("counter")).unwrap(), "run\n", "calibrate runs once");
    let random: PlayerSpec = "random".parse().unwrap();
    play(&protocol, &dir, [&agent, &random], protocol.start(), [12.5, 300.0], 0);
    assert_eq!(fs::read_to_string(dir.join("seen-input.txt")).unwrap(), "X\n12.5 300\n....\n.OX.\n.XO.\n....\n");
    assert_eq!(fs::read_to_string(dir.join("seen-calibration.txt")).unwrap(), "12345\n");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_level_duo_game_goes_to_more_time_left_then_to_x() {
    let dir = temp_dir("tiebreak");
    let protocol = ReversiProtocol::<Size12>::new(Variant::Duo12);
    // Finished: 71 X discs + 1 bonus against 72 O discs, one dead empty cell.
    let mut rows = ["XXXXXXOOOOOO"; 12];
    rows[0] = "XXXXX.OOOOOO";
    let end = protocol.parse_flat(&format!("X/{}", rows.join("/"))).unwrap();
    assert!(end.is_terminal());
    let random: PlayerSpec = "random".parse().unwrap();
    let result = |time| play(&protocol, &dir, [&random, &random], end, time, 0).0;
    let g = result([10.0, 20.0]);
    assert_eq!((g.result.as_str(), g.ending.as_str(), g.score), ("0-1", "tiebreak", 0));
    assert_eq!(result([20.0, 10.0]).result, "1-0");
    assert_eq!(result([15.0, 15.0]).result, "1-0");
    // One X disc fewer: O wins outright on discs.
    rows[1] = "XXXXX.OOOOOO";
    let lost = protocol.parse_flat(&format!("X/{}", rows.join("/"))).unwrap();
    let g = play(&protocol, &dir, [&random, &random], lost, [20.0, 10.0], 0).0;
    assert_eq!((g.result.as_str(), g.ending.as_str(), g.score), ("0-1", "normal", -1));
    fs::remove_dir_all(&dir).unwrap();
}
