//! Writes the hand-set starting weights into the generated weight files
//! `engine/src/eval/weights/VARIANT.rs`: of the variants named as arguments,
//! or of every variant when none is named (which also replaces tuned files).

use engine::eval::hand::{REGENERATE_COMMAND, hand_set};
use engine::reversi::Variant;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/weights");
    let named: Result<Vec<Variant>, String> = std::env::args().skip(1).map(|a| a.parse()).collect();
    let variants = match named {
        Ok(v) if v.is_empty() => Variant::ALL.to_vec(),
        Ok(v) => v,
        Err(e) => {
            eprintln!("hand_weights: {e}");
            std::process::exit(2);
        }
    };
    for variant in variants {
        let path = dir.join(format!("{variant}.rs"));
        let source = hand_set(variant).to_rust_source(REGENERATE_COMMAND);
        if let Err(e) = std::fs::write(&path, source) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
        println!("wrote {}", path.display());
    }
}
