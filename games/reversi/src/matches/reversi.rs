//! Reversi in a match: [`ReversiProtocol`] for every variant (the Duo
//! handout's file protocol, GGF records, NBoard on 8x8), its balanced
//! suites, the registry entry [`REVERSI`], and positions of othello8 runs as
//! OBF lines (`selfplay export --obf`).

use crate::eval::{SCORE_PER_DISC, discs};
use crate::ffo::obf_text;
use crate::ggf::{self, GgfGame};
use crate::protocol::duo;
use crate::reference::reversi_minimax;
use crate::{
    CompiledGeometry, Geometry, Move, Position, ReversiEngine, ReversiEvaluator, Size8, Variant, disc_char,
    reversi_engine,
};
use engine_core::agent::{Agent, Clock};
use engine_core::game::Color;
use engine_core::search::EngineConfig;
use selfplay::family::{self, GameFamily};
use selfplay::job::Job;
use selfplay::openings::{SuiteGame, SuiteSpec};
use selfplay::protocol::{GameProtocol, Outcome, ROW_SEPARATOR};
use selfplay::record::{self, ENDING_TIMEOUT, GGF_PLACE, GameRecord, MoveNote, RUN_FILE};
use selfplay::run::{self, RunOptions, Summary};
use std::io::Write;
use std::path::{Path, PathBuf};

/// [`GameProtocol`] for a Reversi variant played on geometry `G`.
#[derive(Clone, Copy, Debug)]
pub struct ReversiProtocol<G: Geometry> {
    variant: Variant,
    geometry: std::marker::PhantomData<G>,
}

impl<G: Geometry> ReversiProtocol<G> {
    /// The protocol of `variant`, whose board must be `G`.
    pub fn new(variant: Variant) -> Self {
        assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
        ReversiProtocol { variant, geometry: std::marker::PhantomData }
    }

    /// The variant played.
    pub fn reversi_variant(&self) -> Variant {
        self.variant
    }
}

impl<G: CompiledGeometry> GameProtocol for ReversiProtocol<G> {
    type State = Position<G>;

    fn variant(&self) -> String {
        self.variant.name().to_string()
    }

    fn start(&self) -> Position<G> {
        self.variant.start()
    }

    fn side_letter(&self, color: Color) -> char {
        disc_char(color)
    }

    fn flatten(&self, state: &Position<G>) -> String {
        let mut text = String::with_capacity(G::CELLS + G::N + 2);
        text.push(disc_char(state.to_move()));
        for row in state.rows() {
            text.push(ROW_SEPARATOR);
            text.push_str(&row);
        }
        text
    }

    fn parse_flat(&self, text: &str) -> Result<Position<G>, String> {
        let lines: Vec<&str> = text.trim().split(ROW_SEPARATOR).collect();
        if lines.len() != G::N + 1 {
            return Err(format!(
                "expected a side letter and {} rows separated by `{ROW_SEPARATOR}`, found {} fields",
                G::N,
                lines.len()
            ));
        }
        Position::parse(&lines.join("\n"), self.variant.scoring())
            .map_err(|e| format!("field {}: {}", e.line, e.message))
    }

    fn is_pass(&self, mv: Move<G>) -> bool {
        mv.is_pass()
    }

    fn input_file(&self, state: &Position<G>, clock: &Clock) -> String {
        duo::input_text(state, clock.own_remaining, clock.opponent_remaining)
    }

    fn parse_output(&self, text: &str) -> Result<Move<G>, String> {
        duo::parse_output(text)
    }

    fn nboard_game(&self, state: &Position<G>, seconds: Option<f64>) -> Option<String> {
        if self.variant != Variant::Othello8 {
            return None;
        }
        let mut game = GgfGame::new(*state);
        game.set_tag("PC", "selfplay");
        if let Some(s) = seconds {
            game.set_tag("TI", &ggf::clock_text(s));
        }
        Some(game.to_string())
    }

    fn parse_nboard_move(&self, text: &str) -> Result<Move<G>, String> {
        ggf::parse_move::<G>(text).ok_or_else(|| format!("expected a move like F5 or PA, found `{text}`"))
    }

    /// GGF's result is Black's disc margin; a forfeit gives the winner the
    /// whole board with the flag `t` (time) or `r` (any other forfeit), as
    /// GGF records a resignation. Evaluations are the mover's, in discs.
    fn ggf_record(
        &self,
        opening: &Position<G>,
        moves: &[MoveNote<Move<G>>],
        record: &GameRecord,
        time: [f64; 2],
    ) -> Option<String> {
        let mut game = GgfGame::new(*opening);
        game.set_tag("PC", &format!("{GGF_PLACE}{}", record.game));
        game.set_tag("PB", &ggf_tag_value(&record.black));
        game.set_tag("PW", &ggf_tag_value(&record.white));
        if time[0] == time[1] {
            if time[0].is_finite() {
                game.set_tag("TI", &ggf::clock_text(time[0]));
            }
        } else {
            for (tag, seconds) in [("TB", time[0]), ("TW", time[1])] {
                if seconds.is_finite() {
                    game.set_tag(tag, &ggf::clock_text(seconds));
                }
            }
        }
        let flag = if !record.forfeited() {
            None
        } else if record.ending == ENDING_TIMEOUT {
            Some(ggf::ResultFlag::Timeout)
        } else {
            Some(ggf::ResultFlag::Resigned)
        };
        let margin = match (flag, record.black_points()) {
            (Some(_), Some(points)) if points > 0.5 => G::CELLS as f64,
            (Some(_), _) => -(G::CELLS as f64),
            (None, _) => f64::from(record.score),
        };
        game.set_tag("RE", &ggf::result_text(margin, flag));
        for m in moves {
            game.push(m.mv, m.score.map(discs), m.cpu);
        }
        Some(game.to_string())
    }

    fn outcome(&self, state: &Position<G>, time_left: [f64; 2]) -> Outcome {
        let (black, white) = state.disc_counts();
        let score = state.score();
        let scoring = state.scoring();
        Outcome {
            winner: scoring.winner(score, time_left),
            score,
            counts: [black, white],
            tiebreak: score == 0 && scoring.ties_by_time,
        }
    }

    fn engine(&self, config: EngineConfig) -> Result<Box<dyn Agent<Position<G>>>, String> {
        Ok(Box::new(reversi_engine::<G>(self.variant, config)?))
    }

    fn minimax(&self, _seed: u64) -> Box<dyn Agent<Position<G>>> {
        Box::new(reversi_minimax::<G>())
    }
}

/// `text` as a GGF tag value: a `]` would close the tag, so it becomes `)`.
fn ggf_tag_value(text: &str) -> String {
    text.replace(']', ")")
}

impl<G: CompiledGeometry> SuiteGame for ReversiProtocol<G> {
    type Eval = ReversiEvaluator<G>;
    const HEADER_FIELDS: usize = 1;
    const SCORE_PER_UNIT: f64 = SCORE_PER_DISC as f64;
    const UNIT: &'static str = "discs";

    fn scorer(&self, config: EngineConfig) -> Result<ReversiEngine<G>, String> {
        reversi_engine::<G>(self.reversi_variant(), config)
    }
}

/// The names of the Reversi variants, as `--variant` takes them.
const VARIANT_NAMES: [&str; Variant::ALL.len()] = {
    let mut names = [""; Variant::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Variant::ALL[i].name();
        i += 1;
    }
    names
};

/// Every Reversi variant in the programs' registry.
pub struct ReversiFamily;

/// Reversi's entry in the programs' registry.
pub static REVERSI: ReversiFamily = ReversiFamily;

/// The variant named `name`.
fn variant(name: &str) -> Result<Variant, String> {
    name.parse().map_err(|_| format!("unknown Reversi variant `{name}`"))
}

impl GameFamily for ReversiFamily {
    fn variants(&self) -> &'static [&'static str] {
        &VARIANT_NAMES
    }

    fn run_observed(
        &self,
        job: &Job,
        options: &RunOptions,
        observe: &mut dyn FnMut(u64, u64, &str),
    ) -> Result<Summary, String> {
        let v = variant(&job.variant)?;
        crate::with_geometry!(v, G => run::run_observed(&ReversiProtocol::<G>::new(v), job, options, &mut *observe))
    }

    fn write_suite(&self, name: &str, spec: &SuiteSpec, out: &Path, command: &[String]) -> Result<(), String> {
        let v = variant(name)?;
        crate::with_geometry!(v, G => family::write_suite(&ReversiProtocol::<G>::new(v), spec, out, command))
    }
}

/// Writes every `positions.csv` row of the othello8 run folders `sources`
/// to `out` as an OBF line, folder by folder in file order (line K of
/// `out` is the K-th row read); returns a one-line report.
pub fn export_obf(out: &Path, sources: &[PathBuf]) -> Result<String, String> {
    if sources.is_empty() {
        return Err("export: expected at least one run folder".into());
    }
    let protocol = ReversiProtocol::<Size8>::new(Variant::Othello8);
    let mut text = String::new();
    let mut rows = 0u64;
    for src in sources {
        let variant = record::run_variant(src)?;
        if variant != Variant::Othello8.name() {
            return Err(format!(
                "{}: expected a run of othello8 (OBF holds 8x8 positions), found {variant}",
                src.join(RUN_FILE).display()
            ));
        }
        let path = src.join(record::POSITIONS_FILE);
        let mut line = 1;
        record::read_positions(&path, |p| {
            line += 1;
            let pos = protocol
                .parse_flat(&p.board)
                .map_err(|e| format!("{}:{line}: expected an 8x8 position in `board`: {e}", path.display()))?;
            text += &obf_text(&pos);
            text.push('\n');
            rows += 1;
            Ok(())
        })?;
    }
    let mut file = std::fs::File::create(out).map_err(|e| format!("{}: cannot create: {e}", out.display()))?;
    file.write_all(text.as_bytes()).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(format!("wrote {rows} positions from {} folders to {}", sources.len(), out.display()))
}
