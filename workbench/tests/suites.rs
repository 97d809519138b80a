//! The opening suites in `data/openings`: each reads as the variant its
//! header names, holds as many positions as the header says, and keeps one
//! position per symmetry class, written as its smallest image; where the
//! command asked for `--lookahead` or `--playout`, no position's game ends
//! that soon.

use engine_core::search::EngineConfig;
use pente::PenteProtocol;
use reversi::matches::ReversiProtocol;
use reversi::{Size8, Size12, Variant};
use selfplay::openings::{LOOKAHEAD, SuiteGame, canonical, ends_in_playout};
use selfplay::run::{ends_within, read_openings};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn suites_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/openings")
}

/// The word after `flag` in `line`.
fn word_after<'a>(line: &'a str, flag: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == flag).and_then(|_| words.next())
}

/// Checks one suite file against its two header lines.
fn check<P: SuiteGame>(protocol: &P, path: &Path, header: &[&str]) {
    let name = path.display();
    let count: usize = word_after(header[1], &format!("{}:", protocol.variant()))
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("{name}: line 2 should give the count, found `{}`", header[1]));
    let openings = read_openings(protocol, path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(openings.len(), count, "{name}: the header's count");
    let text = std::fs::read_to_string(path).unwrap();
    let mut classes = HashSet::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
        let smallest = canonical(line, P::HEADER_FIELDS);
        assert_eq!(smallest, line, "{name}:{}: not the smallest image of its class", i + 1);
        assert!(classes.insert(smallest), "{name}:{}: a second position of one symmetry class", i + 1);
    }
    let option = |flag: &str, default: u32| word_after(header[0], flag).map_or(default, |w| w.parse().unwrap());
    let (lookahead, playout) = (option("--lookahead", LOOKAHEAD), option("--playout", 0));
    let mut engine = protocol.scorer(EngineConfig::default()).unwrap();
    for (i, start) in openings.iter().enumerate() {
        assert!(!ends_within(start, lookahead), "{name}: position {}: a line of {lookahead} plies ends it", i + 1);
        let over = ends_in_playout(&mut engine, start, playout);
        assert!(!over, "{name}: position {}: over within {playout} plies of play", i + 1);
    }
}

#[test]
fn every_committed_suite_matches_its_header() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suites_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "expected the othello8, duo12 and pente suites in {}", suites_dir().display());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text.lines().take(2).collect();
        assert!(header.len() == 2 && header.iter().all(|l| l.starts_with('#')), "{}: two header lines", path.display());
        let variant = word_after(header[0], "--variant")
            .unwrap_or_else(|| panic!("{}: line 1 should name the command's --variant", path.display()));
        match variant {
            "othello8" => check(&ReversiProtocol::<Size8>::new(Variant::Othello8), &path, &header),
            "duo12" => check(&ReversiProtocol::<Size12>::new(Variant::Duo12), &path, &header),
            "pente" => check(&PenteProtocol, &path, &header),
            other => panic!("{}: no check for variant `{other}`", path.display()),
        }
    }
}
