//! A game as the programs' registry lists it: the names of its variants,
//! and for one of them a match ([`crate::run::run`] with the game's
//! [`GameProtocol`](crate::protocol::GameProtocol)) and a balanced opening
//! suite. The `selfplay` program looks `--variant` up in the registry and
//! knows no game by name.

use crate::job::Job;
use crate::openings::{LOOKAHEAD, PLAYOUT_DEPTH, SuiteGame, SuiteSpec, make_suite};
use crate::run::{self, RunOptions, Summary};
use std::path::Path;

/// One game's entry in the registry.
pub trait GameFamily: Sync {
    /// The names `--variant` accepts for this game (`othello8`, `pente`, ..).
    fn variants(&self) -> &'static [&'static str];

    /// Plays `job`, whose variant is one of [`GameFamily::variants`],
    /// telling `observe` after each game what [`run::run_observed`] tells.
    fn run_observed(
        &self,
        job: &Job,
        options: &RunOptions,
        observe: &mut dyn FnMut(u64, u64, &str),
    ) -> Result<Summary, String>;

    /// Plays `job`, whose variant is one of [`GameFamily::variants`].
    fn run(&self, job: &Job, options: &RunOptions) -> Result<Summary, String> {
        self.run_observed(job, options, &mut |_, _, _| {})
    }

    /// Writes a balanced opening suite of `variant` to `out`; `command` is
    /// the command line that asked for it (recorded in the file).
    fn write_suite(&self, variant: &str, spec: &SuiteSpec, out: &Path, command: &[String]) -> Result<(), String>;
}

/// The entry of `registry` that plays `variant`; the error lists every
/// variant the registry knows.
pub fn find<'a>(registry: &[&'a dyn GameFamily], variant: &str) -> Result<&'a dyn GameFamily, String> {
    registry.iter().copied().find(|g| g.variants().contains(&variant)).ok_or_else(|| {
        let names: Vec<&str> = registry.iter().flat_map(|g| g.variants().iter().copied()).collect();
        format!("unknown variant `{variant}`: expected one of {}", names.join(", "))
    })
}

/// A game of one variant, played by protocol `P`: its [`GameFamily`] entry.
pub struct OneVariant<P: SuiteGame> {
    /// The variant's name.
    pub name: &'static [&'static str],
    /// The protocol that plays it.
    pub protocol: P,
}

impl<P: SuiteGame + Sync> GameFamily for OneVariant<P> {
    fn variants(&self) -> &'static [&'static str] {
        self.name
    }

    fn run_observed(
        &self,
        job: &Job,
        options: &RunOptions,
        observe: &mut dyn FnMut(u64, u64, &str),
    ) -> Result<Summary, String> {
        run::run_observed(&self.protocol, job, options, observe)
    }

    fn write_suite(&self, _variant: &str, spec: &SuiteSpec, out: &Path, command: &[String]) -> Result<(), String> {
        write_suite(&self.protocol, spec, out, command)
    }
}

/// Makes a balanced suite of `protocol`'s game and writes it to `out` with
/// a header naming `command` (the program by its file name alone, so the
/// header reads the same from any build folder) and what the suite holds.
pub fn write_suite<P: SuiteGame>(protocol: &P, spec: &SuiteSpec, out: &Path, command: &[String]) -> Result<(), String> {
    let suite = make_suite(protocol, spec)?;
    if suite.len() < spec.count {
        eprintln!("selfplay: only {} balanced positions found (of {} wanted)", suite.len(), spec.count);
    }
    let command: Vec<String> = command
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 { Path::new(a).file_name().map_or(a.clone(), |f| f.to_string_lossy().into()) } else { a.clone() }
        })
        .collect();
    let mut text = format!("# made by: {}\n", command.join(" "));
    text += &format!(
        "# {}: {} positions {} random plies deep, depth-{} score within ±{} {}, one per symmetry class\n",
        protocol.variant(),
        suite.len(),
        spec.plies,
        spec.depth,
        spec.window,
        P::UNIT
    );
    if spec.lookahead != LOOKAHEAD || spec.playout != 0 {
        text += &format!(
            "# no line of {} plies ends the game, nor {} plies of the engine's depth-{PLAYOUT_DEPTH} play\n",
            spec.lookahead, spec.playout
        );
    }
    for entry in &suite {
        text += &entry.flat;
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("{}: cannot write: {e}", out.display()))
}
