//! Helpers shared by the Pente tests: positions drawn as pictures.

#![allow(dead_code)]

use engine_core::game::Color;
use pente::{Cell, PentePosition};

/// A position from a picture of `w`, `b` and `.` whose top-left character
/// lies on the cell named `top_left` (e.g. `12H`); the rest of the board is
/// empty. Spaces in the picture are ignored.
pub fn drawn(to_move: Color, captured_white: u32, captured_black: u32, top_left: &str, picture: &str) -> PentePosition {
    let origin = Cell::parse(top_left).expect("top-left cell");
    let mut stones = Vec::new();
    for (dl, row) in picture.lines().map(str::trim).filter(|l| !l.is_empty()).enumerate() {
        for (dc, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let cell = Cell::at(origin.line() + dl, origin.col() + dc);
            match ch {
                'w' => stones.push((cell, Color::White)),
                'b' => stones.push((cell, Color::Black)),
                '.' => {}
                other => panic!("unexpected {other:?} in a picture"),
            }
        }
    }
    PentePosition::from_stones(&stones, to_move, captured_white, captured_black)
}

/// The cell named `name`.
pub fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap_or_else(|| panic!("bad cell name {name}"))
}
