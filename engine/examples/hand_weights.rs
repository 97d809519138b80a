//! Writes the hand-set starting weights of every variant into the generated
//! weight files `engine/src/eval/weights/VARIANT.rs`.

use engine::eval::hand::{REGENERATE_COMMAND, hand_set};
use engine::reversi::Variant;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/eval/weights");
    for variant in Variant::ALL {
        let path = dir.join(format!("{variant}.rs"));
        let source = hand_set(variant).to_rust_source(REGENERATE_COMMAND);
        if let Err(e) = std::fs::write(&path, source) {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
        println!("wrote {}", path.display());
    }
}
