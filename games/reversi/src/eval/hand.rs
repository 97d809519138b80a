//! Hand-set starting weights, derived from a few Othello rules of thumb
//! (corners good, X- and C-squares next to an empty corner bad, edge discs
//! anchored on an own corner stable, mobility early, disc count late). They
//! are only the seed of the generated weight files: the tuner replaces them.

use super::SCORE_PER_DISC;
use super::registry::{MOBILITY, PARITY, POSITIONAL, POTENTIAL_MOBILITY, Registry};
use super::weights::WeightSet;
use crate::Variant;

/// Value of an own corner disc, opening phase.
const CORNER: f64 = 80.0;
/// Value of an own X-square disc (diagonal neighbour of a corner), opening.
const X_SQUARE: f64 = -40.0;
/// Value of an own C-square disc (edge neighbour of a corner), opening.
const C_SQUARE: f64 = -15.0;
/// Value of another own edge disc, opening.
const EDGE: f64 = 5.0;
/// Value of an own disc in the central area, opening.
const CENTRE: f64 = 2.0;
/// Value per move of mobility advantage, opening.
const MOBILITY_EARLY: f64 = 12.0;
/// Value per cell of potential mobility advantage, opening.
const POTENTIAL_EARLY: f64 = 5.0;
/// Value of getting the last move, endgame.
const PARITY_LATE: f64 = 60.0;
/// Extra value of an X-square disc while its corner is empty (in patterns).
const X_EMPTY_CORNER: f64 = -30.0;
/// Value of each edge disc in an unbroken run from an own corner.
const STABLE_EDGE: f64 = 20.0;

/// Progress through the game of `phase`: 0 at the start, 1 at the end.
fn progress(reg: &Registry, phase: usize) -> f64 {
    if reg.phases == 1 { 1.0 } else { phase as f64 / (reg.phases - 1) as f64 }
}

/// Opening value of an own disc on quadrant cell (`r`, `c`), `r <= c`.
fn cell_value(r: usize, c: usize) -> f64 {
    match (r, c) {
        (0, 0) => CORNER,
        (1, 1) => X_SQUARE,
        (0, 1) => C_SQUARE,
        (0, _) => EDGE,
        (1, _) => 0.0,
        _ => CENTRE,
    }
}

/// Value of a pattern configuration (`digits`: 0 empty, 1 mover, 2
/// opponent, in the shape's cell order) for the mover: the X-square and
/// stable-edge rules on the shapes that hold a corner as their first cell.
fn pattern_value(name: &str, digits: &[u8], n: usize) -> f64 {
    let sign = |d: u8| match d {
        1 => 1.0,
        2 => -1.0,
        _ => 0.0,
    };
    let mut v = 0.0;
    let (edge_len, x_cells): (usize, &[usize]) = match name {
        // edge_x: the edge cells first, then the X-square(s).
        "edge_x" => {
            let len = n.min(8);
            (len, if len == n { &[len, len + 1] } else { &[len] })
        }
        // corner3x3 row-major: corner 0, X-square 4; its top edge is 0..3.
        "corner3x3" => (0, &[4]),
        _ => return 0.0,
    };
    for (k, &x) in x_cells.iter().enumerate() {
        // The corner of the first X is the edge's first cell; of the second,
        // its last cell.
        let corner = if k == 0 { 0 } else { edge_len - 1 };
        if digits[corner] == 0 {
            v += X_EMPTY_CORNER * sign(digits[x]);
        }
    }
    if edge_len > 0 {
        let runs = [(0..edge_len).collect::<Vec<_>>(), (0..edge_len).rev().collect()];
        // From the far end only when the pattern holds the whole edge.
        let ends = if edge_len == n { 2 } else { 1 };
        for run in runs.iter().take(ends) {
            let owner = digits[run[0]];
            if owner != 0 {
                let len = run.iter().take_while(|&&i| digits[i] == owner).count();
                v += STABLE_EDGE * sign(owner) * len as f64;
            }
        }
    }
    v
}

/// The hand-set weights of `variant`.
pub fn hand_set(variant: Variant) -> WeightSet {
    let reg = Registry::of(variant);
    let mut values = vec![0i16; reg.len()];
    let n = reg.n;
    let h = n / 2;
    for phase in 0..reg.phases {
        let t = progress(reg, phase);
        let mut set = |table: usize, entry: usize, v: f64| {
            let spec = &reg.tables[table];
            values[reg.index(phase, table, entry)] = v.round().clamp(f64::from(spec.min), f64::from(spec.max)) as i16;
        };
        for r in 0..h {
            for c in r..h {
                // Late in the game each disc tends towards its final-count value.
                let v = cell_value(r, c) * (1.0 - t) + f64::from(SCORE_PER_DISC) * t * t;
                set(POSITIONAL, reg.class_of(r, c), v);
            }
        }
        set(MOBILITY, 0, MOBILITY_EARLY * (1.0 - t) + 2.0);
        set(POTENTIAL_MOBILITY, 0, POTENTIAL_EARLY * (1.0 - t));
        set(PARITY, 0, PARITY_LATE * t * t);
        for p in &reg.patterns {
            let spec = &reg.tables[p.table];
            let cells = p.instances[0].len();
            let mut digits = vec![0u8; cells];
            for entry in 0..spec.len {
                let mut e = entry;
                for d in digits.iter_mut().rev() {
                    *d = (e % 3) as u8;
                    e /= 3;
                }
                set(p.table, entry, pattern_value(&spec.name, &digits, n) * (1.0 - t / 2.0));
            }
        }
    }
    WeightSet { key: variant.into(), values }
}

/// The command that writes the generated weight files from [`hand_set`].
pub const REGENERATE_COMMAND: &str = "cargo run --release -p reversi --example hand_weights";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_set_weights_are_valid_and_follow_the_rules_of_thumb() {
        for v in Variant::ALL {
            let set = hand_set(v);
            set.validate().unwrap();
            let reg = Registry::of(v);
            let at = |table, entry| set.values[reg.index(0, table, entry)];
            assert!(at(POSITIONAL, reg.class_of(0, 0)) > 0);
            assert!(at(POSITIONAL, reg.class_of(1, 1)) < 0);
            let edge = reg.table("edge_x").unwrap();
            // Mover owns the corner and the next edge cell: a stable run of 2.
            let cells = reg.patterns[0].instances[0].len() as u32;
            let two = 3usize.pow(cells - 1) + 3usize.pow(cells - 2);
            assert!(at(edge, two) > 0, "{v}");
        }
    }
}
