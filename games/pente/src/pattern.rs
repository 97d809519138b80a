//! Line keys and line-pattern tables: what a stone placed on an empty cell
//! makes along one line, looked up by the cell's [`LineKey`] in that
//! direction. The bottom of the Pente layers: it knows cell contents and
//! lines, not boards.
//!
//! An entry ([`Pattern`]) holds the shape the new stone forms through the
//! cell (from dead to five, split shapes included), how many opponent pairs
//! it captures along the line, how many capture threats it creates, and how
//! many of its own pairs it leaves open to capture. Entries are computed on
//! first use and cached in a lock-free table, so a program started with a
//! hundredth of a second left pays only for the keys it looks at.

use engine_core::game::Color;
use std::sync::atomic::{AtomicU32, Ordering};

/// Contents of a cell, as stored in the board and in line keys.
pub(crate) type Stone = u8;
/// An empty cell.
pub(crate) const EMPTY: Stone = 0;
/// A cell outside the field.
pub(crate) const WALL: Stone = 3;

/// The stone value of a colour (Black 1, White 2).
#[inline(always)]
pub(crate) const fn stone(color: Color) -> Stone {
    color as u8 + 1
}

/// The contents of the eight cells up to four steps either way along one
/// line from a cell, two bits each: slots 0..4 hold steps -4..-1, slots 4..8
/// steps +1..+4.
pub type LineKey = u16;

/// The key slot of the cell `k` steps along the line (`k` in -4..=4, not 0).
#[inline(always)]
pub(crate) const fn slot(k: isize) -> u32 {
    if k < 0 { (k + 4) as u32 } else { (k + 3) as u32 }
}

/// The shape a stone forms through its cell along one line.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Shape {
    /// No five can ever pass through the cell along this line.
    Dead = 0,
    /// A five is still possible, but no two-stone shape.
    One,
    /// Can become a (closed) three with one more stone.
    Two,
    /// Can become an open three with one more stone.
    OpenTwo,
    /// Can become a (closed) four with one more stone.
    Three,
    /// Can become an open four (two ways to five) with one more stone.
    OpenThree,
    /// One way to complete five with one more stone.
    Four,
    /// Two or more ways to complete five with one more stone.
    OpenFour,
    /// Five or more in a row: a win.
    Five,
}

/// Number of [`Shape`]s (the length of shape weight tables).
pub const SHAPES: usize = 9;

impl Shape {
    const ALL: [Shape; SHAPES] = [
        Shape::Dead,
        Shape::One,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::Five,
    ];

    /// True for the shapes that threaten five on the next move.
    #[inline(always)]
    pub const fn is_four(self) -> bool {
        matches!(self, Shape::Four | Shape::OpenFour)
    }
}

/// What a stone placed on a cell does along one line: a packed table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pattern(u16);

const SHAPE_MASK: u16 = 0xF;
const CAPTURES_SHIFT: u16 = 4;
const THREATS_SHIFT: u16 = 6;
const EXPOSED_SHIFT: u16 = 8;
const TWO_BITS: u16 = 3;
/// Set on every computed entry, so that 0 means "not computed yet".
const VALID: u16 = 1 << 15;

impl Pattern {
    /// The shape formed through the cell.
    #[inline(always)]
    pub fn shape(self) -> Shape {
        Shape::ALL[(self.0 & SHAPE_MASK) as usize]
    }

    /// Opponent pairs captured along the line (0..=2).
    #[inline(always)]
    pub const fn captures(self) -> u32 {
        ((self.0 >> CAPTURES_SHIFT) & TWO_BITS) as u32
    }

    /// Capture threats created along the line (`X O O .` shapes, 0..=2).
    #[inline(always)]
    pub const fn threats(self) -> u32 {
        ((self.0 >> THREATS_SHIFT) & TWO_BITS) as u32
    }

    /// Own pairs left capturable along the line (0..=2).
    #[inline(always)]
    pub const fn exposed(self) -> u32 {
        ((self.0 >> EXPOSED_SHIFT) & TWO_BITS) as u32
    }
}

/// Number of distinct line keys.
const KEYS: usize = 1 << 16;
/// Cells of the nine-cell line window; the cell itself is in the middle.
const WINDOW: usize = 9;
const CENTRE: usize = 4;
const FULL: u32 = (1 << WINDOW) - 1;
const FIVE_MASK: u32 = 0x1F;

/// Cached entries, 0 until computed: Black's pattern in the low half,
/// White's in the high half, so that one read gives both.
static TABLE: [AtomicU32; KEYS] = [const { AtomicU32::new(0) }; KEYS];
/// Bits of one colour's half of a [`TABLE`] entry.
const HALF: u32 = 16;

/// The patterns a stone of each colour (indexed by [`Color::index`]) forms
/// on an empty cell whose line key (in one direction) is `key`.
#[inline(always)]
pub fn pattern_pair(key: LineKey) -> [Pattern; 2] {
    let slot = &TABLE[key as usize];
    let mut entry = slot.load(Ordering::Relaxed);
    if entry == 0 {
        let half = |color| u32::from(compute(color, key) | VALID);
        entry = half(Color::Black) | half(Color::White) << HALF;
        slot.store(entry, Ordering::Relaxed);
    }
    [Pattern(entry as u16), Pattern((entry >> HALF) as u16)]
}

/// The pattern a stone of `color` forms on an empty cell whose line key
/// (in one direction) is `key`.
#[inline(always)]
pub fn pattern(color: Color, key: LineKey) -> Pattern {
    pattern_pair(key)[color.index()]
}

/// The nine cells of the window: slots 0..4 then the centre then slots 4..8.
fn window(key: LineKey) -> [u8; WINDOW] {
    let mut cells = [EMPTY; WINDOW];
    for (slot, i) in (0..4).chain(5..9).enumerate() {
        cells[i] = ((key >> (2 * slot)) & 3) as u8;
    }
    cells
}

fn compute(color: Color, key: LineKey) -> u16 {
    let cells = window(key);
    let (own, opp) = (stone(color), stone(color.opponent()));
    let mut mine = 1u32 << CENTRE;
    let mut blocked = 0u32;
    for (i, &c) in cells.iter().enumerate() {
        if c == own {
            mine |= 1 << i;
        } else if c == opp || c == WALL {
            blocked |= 1 << i;
        }
    }
    let shape = classify(mine, blocked) as u16;
    let at = |i: usize, v: u8| cells[i] == v;
    let mut captures = 0;
    let mut threats = 0;
    let mut exposed = 0;
    // Both sides of the centre: `near`, `mid`, `far` are 1, 2, 3 steps out,
    // `back` is 1 step the other way.
    for (near, mid, far, back) in [(5, 6, 7, 3), (3, 2, 1, 5)] {
        if at(near, opp) && at(mid, opp) {
            if at(far, own) {
                captures += 1;
            } else if at(far, EMPTY) {
                threats += 1;
            }
        }
        if at(near, own) && ((at(mid, EMPTY) && at(back, opp)) || (at(mid, opp) && at(back, EMPTY))) {
            exposed += 1;
        }
    }
    shape | (captures << CAPTURES_SHIFT) | (threats << THREATS_SHIFT) | (exposed << EXPOSED_SHIFT)
}

/// Five-cell windows through the centre that `blocked` leaves open.
fn open_windows(blocked: u32) -> impl Iterator<Item = u32> {
    (0..=CENTRE).map(|i| FIVE_MASK << i).filter(move |w| w & blocked == 0)
}

/// Cells that complete a five through the centre (empty when already five).
fn completions(mine: u32, blocked: u32) -> u32 {
    open_windows(blocked).map(|w| w & !mine).filter(|missing| missing.count_ones() == 1).fold(0, |a, m| a | m)
}

fn is_five(mine: u32) -> bool {
    (0..=CENTRE).any(|i| (FIVE_MASK << i) & mine == FIVE_MASK << i)
}

/// The four-level shape of `mine` (Four, OpenFour, or None).
fn four_level(mine: u32, blocked: u32) -> Option<Shape> {
    match completions(mine, blocked).count_ones() {
        0 => None,
        1 => Some(Shape::Four),
        _ => Some(Shape::OpenFour),
    }
}

/// The best shape one more stone on an empty window cell reaches, mapped by
/// `level` and `demote`.
fn best_after_one(mine: u32, blocked: u32, level: impl Fn(u32) -> Option<Shape>) -> Option<Shape> {
    let empties = FULL & !mine & !blocked;
    (0..WINDOW as u32).filter(|&e| empties & (1 << e) != 0).filter_map(|e| level(mine | (1 << e))).max()
}

fn three_level(mine: u32, blocked: u32) -> Option<Shape> {
    best_after_one(mine, blocked, |m| four_level(m, blocked)).map(|s| match s {
        Shape::OpenFour => Shape::OpenThree,
        _ => Shape::Three,
    })
}

fn classify(mine: u32, blocked: u32) -> Shape {
    if is_five(mine) {
        return Shape::Five;
    }
    if let Some(s) = four_level(mine, blocked) {
        return s;
    }
    if let Some(s) = three_level(mine, blocked) {
        return s;
    }
    if let Some(s) = best_after_one(mine, blocked, |m| three_level(m, blocked)) {
        return if s == Shape::OpenThree { Shape::OpenTwo } else { Shape::Two };
    }
    if open_windows(blocked).next().is_some() { Shape::One } else { Shape::Dead }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line drawn as nine characters (`x` own = black, `o`
    /// opponent, `#` wall, `.` empty, `_` the empty centre).
    fn key(line: &str) -> LineKey {
        let cells: Vec<u8> = line
            .bytes()
            .map(|c| match c {
                b'x' => 1,
                b'o' => 2,
                b'#' => 3,
                _ => 0,
            })
            .collect();
        (0..4).chain(5..9).enumerate().map(|(slot, i)| (cells[i] as LineKey) << (2 * slot)).sum()
    }

    fn shape(line: &str) -> Shape {
        pattern(Color::Black, key(line)).shape()
    }

    #[test]
    fn shapes_of_drawn_lines() {
        assert_eq!(shape("xxxx_...."), Shape::Five);
        assert_eq!(shape(".xxx_xx.."), Shape::Five, "overline through the cell");
        assert_eq!(shape(".xxx_...."), Shape::OpenFour);
        assert_eq!(shape("oxxx_...."), Shape::Four);
        assert_eq!(shape("..x._xx.."), Shape::Four, "split four");
        assert_eq!(shape("..xx_...."), Shape::OpenThree);
        assert_eq!(shape("..x._x..."), Shape::OpenThree, "split three");
        assert_eq!(shape(".oxx_...."), Shape::Three);
        assert_eq!(shape("...x_...."), Shape::OpenTwo);
        assert_eq!(shape("...._...."), Shape::One);
        assert_eq!(shape("##o._.o.."), Shape::Dead);
        assert_eq!(shape("...._..x#"), Shape::Two, "closed by the wall");
    }

    #[test]
    fn captures_threats_and_exposure() {
        let p = pattern(Color::Black, key("xoo._oox."));
        assert_eq!((p.captures(), p.threats()), (1, 0));
        let p = pattern(Color::Black, key("...._oox."));
        assert_eq!(p.captures(), 1);
        let p = pattern(Color::Black, key("...._oo.."));
        assert_eq!((p.captures(), p.threats()), (0, 1));
        let p = pattern(Color::Black, key("...._x.o."));
        assert_eq!(p.exposed(), 0, "a lone stone next to the cell makes no capturable pair with an open back");
        let p = pattern(Color::Black, key("...o_x..."));
        assert_eq!(p.exposed(), 1, "o x x . is open to capture");
    }
}
