//! Training positions stored as boards, at most 64 bytes each: the discs
//! of both sides, the target and the game key. An optimiser pass computes
//! each position's features again from its board ([`Rows`]), so ten
//! million positions fit in memory where their features (hundreds of bytes
//! a position on 12x12) would not.

use crate::dataset::Rows;

/// 64-bit words of one side's discs: 12x12 boards need three.
pub const SIDE_WORDS: usize = 3;
/// The bit that marks White to move: the last of the opponent's words,
/// beyond the 144 cells of the largest board.
const WHITE_TO_MOVE: u64 = 1 << 63;

/// One position's discs: the side to move's words, then the opponent's
/// (low word first), and who is to move in the top bit of the last word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PackedBoard {
    words: [u64; 2 * SIDE_WORDS],
}

impl PackedBoard {
    /// The board of `player` and `opponent` (their words, low first, at
    /// most [`SIDE_WORDS`] each, leaving the top bit of the last free).
    pub fn new(player: &[u64], opponent: &[u64], white_to_move: bool) -> Self {
        assert!(player.len() <= SIDE_WORDS && opponent.len() <= SIDE_WORDS, "at most {SIDE_WORDS} words a side");
        let mut words = [0; 2 * SIDE_WORDS];
        words[..player.len()].copy_from_slice(player);
        words[SIDE_WORDS..SIDE_WORDS + opponent.len()].copy_from_slice(opponent);
        assert_eq!(words[2 * SIDE_WORDS - 1] & WHITE_TO_MOVE, 0, "the flag bit is not a cell");
        if white_to_move {
            words[2 * SIDE_WORDS - 1] |= WHITE_TO_MOVE;
        }
        PackedBoard { words }
    }

    /// The side to move's words.
    pub fn player(&self) -> &[u64] {
        &self.words[..SIDE_WORDS]
    }

    /// The opponent's words (without the flag).
    pub fn opponent(&self) -> [u64; SIDE_WORDS] {
        let mut words = [0; SIDE_WORDS];
        words.copy_from_slice(&self.words[SIDE_WORDS..]);
        words[SIDE_WORDS - 1] &= !WHITE_TO_MOVE;
        words
    }

    /// True when White is to move.
    pub fn white_to_move(&self) -> bool {
        self.words[2 * SIDE_WORDS - 1] & WHITE_TO_MOVE != 0
    }
}

/// A model whose positions pack into a [`PackedBoard`].
pub trait Packer: Sync {
    /// The position `board` (flattened text form) packed.
    fn pack(&self, board: &str) -> Result<PackedBoard, String>;
    /// Replaces `out` by the features of a packed position (a weight may
    /// appear more than once: its multiplicities add).
    fn packed_features(&self, board: &PackedBoard, out: &mut Vec<(u32, i32)>);
}

/// Bytes a position of a [`PackedDataset`] takes: board, target, game key.
pub const BYTES_PER_POSITION: usize = size_of::<PackedBoard>() + size_of::<f32>() + size_of::<u64>();

/// Positions kept as packed boards with their targets and game keys.
#[derive(Clone)]
pub struct PackedDataset<'m> {
    packer: &'m dyn Packer,
    boards: Vec<PackedBoard>,
    targets: Vec<f32>,
    games: Vec<u64>,
}

impl<'m> PackedDataset<'m> {
    /// An empty set whose features `packer` computes.
    pub fn new(packer: &'m dyn Packer) -> Self {
        PackedDataset { packer, boards: Vec::new(), targets: Vec::new(), games: Vec::new() }
    }

    /// Appends one position.
    pub fn push(&mut self, game: u64, board: PackedBoard, target: f64) {
        self.boards.push(board);
        self.targets.push(target as f32);
        self.games.push(game);
    }

    /// Game key of position `p`.
    pub fn game(&self, p: usize) -> u64 {
        self.games[p]
    }

    /// Splits by game: a game goes to the second set when `in_second(game)`.
    pub fn split_by_game(&self, in_second: impl Fn(u64) -> bool) -> (Self, Self) {
        let (mut first, mut second) = (Self::new(self.packer), Self::new(self.packer));
        for p in 0..self.len() {
            let side = if in_second(self.games[p]) { &mut second } else { &mut first };
            side.boards.push(self.boards[p]);
            side.targets.push(self.targets[p]);
            side.games.push(self.games[p]);
        }
        (first, second)
    }
}

impl Rows for PackedDataset<'_> {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn target(&self, p: usize) -> f64 {
        f64::from(self.targets[p])
    }

    fn features_into(&self, p: usize, out: &mut Vec<(u32, i32)>) {
        out.clear();
        self.packer.packed_features(&self.boards[p], out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_keep_their_words_and_the_side_to_move() {
        let player = [u64::MAX, 0x1234, 0xffff];
        let opponent = [7, 0, (1 << 16) - 1];
        for white in [false, true] {
            let board = PackedBoard::new(&player, &opponent, white);
            assert_eq!(board.player(), &player);
            assert_eq!(board.opponent(), opponent);
            assert_eq!(board.white_to_move(), white);
        }
        let short = PackedBoard::new(&[5], &[9], true);
        assert_eq!((short.player(), short.opponent()), (&[5, 0, 0][..], [9, 0, 0]));
    }
}
