//! Run records in the field's position format: `selfplay export --obf`
//! turns the `positions.csv` rows of othello8 runs into OBF lines (the FFO
//! suite's one-line form, which `analyze --obf` and other engines read).

use crate::protocol::{GameProtocol, ReversiProtocol};
use crate::record::{self, RUN_FILE};
use engine::reversi::ffo::obf_text;
use engine::reversi::{Size8, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The variant a run folder played, from its `run.json`.
fn run_variant(dir: &Path) -> Result<String, String> {
    let path = dir.join(RUN_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}:{}: {e}", path.display(), e.line()))?;
    value["job"]["variant"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{}: expected a `job` object with a `variant`", path.display()))
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
        let variant = run_variant(src)?;
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
