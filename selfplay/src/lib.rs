//! Parallel self-play and match runner: engines, reference agents and
//! external programs meet in one match loop, refereed as the handouts' game
//! master referees; results go to CSV game by game, with Elo statistics, an
//! SPRT, resumable and shardable runs.
//!
//! Module map (dependencies run downwards):
//! - [`cluster`]: the executor option, and the Slurm driver that plays a
//!   run's shards as a job array and merges them;
//! - [`run`]: the worker threads, the single writer, progress, report;
//!   [`job`]: what a run plays (players, schedule, games, seed, shard);
//!   [`merge`]: shard folders joined into one;
//! - [`game`]: the match loop of one game;
//! - [`player`]: player specs and seats; [`external`]: the external seat;
//!   [`nboard`]: the NBoard engine seat;
//! - [`answer`]: what a seat answers (a move with its CPU time, or a forfeit);
//! - [`protocol`]: the game-specific part ([`protocol::GameProtocol`]),
//!   which each game implements in its own crate; [`openings`]: balanced
//!   opening suites of any such game; [`family`]: a game's entry in the
//!   programs' registry;
//! - [`record`]: the CSV and GGF files and resume; [`stats`]: Elo, LOS, SPRT;
//! - [`report`]: `selfplay report`, a self-contained HTML page of run folders.
//!
//! This crate names no game: the games' crates depend on it, and the
//! `selfplay` program (in the `workbench` crate) lists them.
//!
//! # Output files
//!
//! `games.csv`, one row per finished game:
//!
//! | column | meaning |
//! |---|---|
//! | `game` | game id from 0; pairing `game / games`, colours swap with `game % 2` |
//! | `pair` | `game / 2`: the two games of a pair share an opening |
//! | `seed` | the run's `--seed` (with `game` it fixes every random choice) |
//! | `opening` | start position of the game, flattened (see below) |
//! | `black`, `white` | player specs playing `X` and `O` |
//! | `result` | `1-0`, `0-1` or `1/2-1/2` (Black's points first) |
//! | `black_count`, `white_count` | discs on the final board (Pente: stones each side captured) |
//! | `score` | final score from Black's side under the variant's scoring (Pente: +1, -1 or 0) |
//! | `plies` | plies from the opening, passes included |
//! | `black_cpu`, `white_cpu` | CPU seconds each side used |
//! | `ending` | `normal`, `tiebreak` (level score decided by time, then X), or the loser's forfeit: `timeout`, `crash`, `no-output`, `bad-output`, `illegal-move` |
//! | `detail` | for a forfeit: the loser's side letter and what happened |
//!
//! `positions.csv`, one row per sampled position in which a player chose a
//! move (forced passes and opening plies are not rows; games lost by forfeit
//! have no rows):
//!
//! | column | meaning |
//! |---|---|
//! | `game` | the game's id in `games.csv` |
//! | `ply` | plies played from the game's opening before this position |
//! | `side` | side to move, `X` or `O` (Pente: `w` or `b`) |
//! | `board` | the position flattened: side letter, then the rows of the position text form (row 1 first), joined by `/`, e.g. `X/..../.OX./.XO./....`; Pente: side letter, captured stones `white,black`, the 19 board lines (row 19 first), see [`protocol::PenteProtocol`] |
//! | `score` | the mover's search score (100 per disc), empty if it did not search |
//! | `depth` | the mover's completed search depth, empty if it did not search |
//! | `result` | the game's result from the mover's side: 1, 0.5 or 0 |
//! | `disc_diff` | the final score (disc difference under the variant's scoring) from the mover's side |
//! | `cpu` | CPU seconds the mover was charged for this move |
//! | `nodes` | search nodes of this move; empty if it did not search or (an external program) did not say |
//!
//! An external player's `score`, `depth` and `nodes` come from the last line
//! it wrote to stderr during the move, when that is an
//! [`engine_core::agent::played_line`]. Files with the older 8 columns (no `cpu`,
//! `nodes`) are read with those fields `None`; a run is not resumed into one.
//!
//! `games.ggf` (Reversi variants): one GGF game a line, in the order the
//! games finished: `PC[selfplay game ID]` ties it to its `games.csv` row,
//! `PB`/`PW` the player specs, `TI` the clock (or `TB`/`TW`), `TY` the board
//! size, `BO` the opening, then every move with the mover's evaluation in
//! discs and its CPU seconds (`B[F5/1.25/0.31]`; passes, the game master's
//! included, as `PA`). `RE` is Black's final disc margin; a forfeit gives
//! the winner the whole board with `:t` (time) or `:r` (any other forfeit),
//! as GGF records a resignation. Pente games have no GGF record.
//!
//! `run.json`: the command line, the job (what decides the games: variant,
//! players, schedule, games, seed, openings, tc, sampling, shard), threads,
//! SPRT, the engine version and the column lists.

pub mod answer;
pub mod checks;
pub mod cluster;
pub mod external;
pub mod family;
pub mod game;
pub mod job;
pub mod merge;
pub mod nboard;
pub mod openings;
pub mod player;
pub mod protocol;
pub mod record;
pub mod report;
pub mod run;
pub mod stats;
