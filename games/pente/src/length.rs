//! How long a Pente game still lasts, learnt from the project's own games:
//! the expected number of own moves left (this one included) for a player
//! who has placed `k` stones, given that the game is still going. The time
//! plan spends the clock over these moves.
//!
//! The table is a data file (`games/pente/data/pente_game_length.txt`) written by
//! `selfplay game-length`, with the command that made it in its comments.

use std::sync::OnceLock;

/// The first line of a game-length table after its comments.
pub const FORMAT_LINE: &str = "format game-length 1";
/// Games a row must be learnt from; later rows repeat the last such row.
pub const MIN_GAMES_PER_ROW: usize = 10;
/// The compiled-in table.
const COMPILED: &str = include_str!("../data/pente_game_length.txt");
/// Rows are kept to a thousandth of a move (as written).
const RESOLUTION: f64 = 1000.0;
/// Own moves left assumed when a table has no row at all.
const FALLBACK_MOVES_LEFT: f64 = 12.0;

/// Expected own moves left by own stones placed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLength {
    /// Row `k`: the expected own moves left after placing `k` stones.
    moves_left: Vec<f64>,
}

impl GameLength {
    /// Learns the table from finished games of `plies` plies each (from
    /// the empty board): for each `k`, the mean over games still going when
    /// a player had placed `k` stones (first or second player) of the own
    /// moves that player had left. Rows stop where fewer than
    /// [`MIN_GAMES_PER_ROW`] games last that long.
    pub fn learn(plies: &[u32]) -> Self {
        let mut moves_left = Vec::new();
        for k in 0u32.. {
            if plies.iter().filter(|&&total| total > 2 * k).count() < MIN_GAMES_PER_ROW {
                break;
            }
            let mut samples = Vec::new();
            for &total in plies {
                // The first player moves at ply 2k, the second at 2k + 1.
                for ply in [2 * k, 2 * k + 1] {
                    if total > ply {
                        samples.push(f64::from((total - ply).div_ceil(2)));
                    }
                }
            }
            let mean = samples.iter().sum::<f64>() / samples.len() as f64;
            moves_left.push((mean * RESOLUTION).round() / RESOLUTION);
        }
        GameLength { moves_left }
    }

    /// Expected own moves left (this one included) after placing `placed`
    /// stones.
    pub fn own_moves_left(&self, placed: u32) -> f64 {
        let row = (placed as usize).min(self.moves_left.len().saturating_sub(1));
        self.moves_left.get(row).copied().unwrap_or(FALLBACK_MOVES_LEFT)
    }

    /// The table's text form: `comments` as `#` lines, the format line,
    /// then `k moves_left` rows.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut out: String = comments.iter().map(|c| format!("# {c}\n")).collect();
        out += FORMAT_LINE;
        out.push('\n');
        for (k, m) in self.moves_left.iter().enumerate() {
            out += &format!("{k} {m:.3}\n");
        }
        out
    }

    /// Parses the text form; errors name `source`, the line and what was
    /// expected.
    pub fn parse(text: &str, source: &str) -> Result<Self, String> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if l == FORMAT_LINE => {}
            other => return Err(format!("{source}: line {}: expected `{FORMAT_LINE}`", other.map_or(1, |(n, _)| n))),
        }
        let mut moves_left = Vec::new();
        for (n, line) in lines.filter(|(_, l)| !l.is_empty()) {
            let mut words = line.split_whitespace();
            let k = words.next().and_then(|w| w.parse::<usize>().ok());
            let m = words.next().and_then(|w| w.parse::<f64>().ok()).filter(|m| m.is_finite() && *m >= 1.0);
            match (k, m, words.next()) {
                (Some(k), Some(m), None) if k == moves_left.len() => moves_left.push(m),
                _ => {
                    return Err(format!(
                        "{source}: line {n}: expected `{} MOVES_LEFT` (a number of at least 1)",
                        moves_left.len()
                    ));
                }
            }
        }
        Ok(GameLength { moves_left })
    }

    /// The compiled-in table.
    pub fn compiled() -> &'static GameLength {
        static TABLE: OnceLock<GameLength> = OnceLock::new();
        TABLE
            .get_or_init(|| GameLength::parse(COMPILED, "games/pente/data/pente_game_length.txt").expect("valid table"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learning_counts_the_moves_each_player_had_left() {
        // Ten games of 9 plies: the first player moves at plies 0, 2, 4, 6, 8
        // (5 moves), the second at 1, 3, 5, 7 (4 moves).
        let table = GameLength::learn(&[9; MIN_GAMES_PER_ROW]);
        assert_eq!(table.own_moves_left(0), 4.5);
        assert_eq!(table.own_moves_left(3), 1.5);
        // The row after 4 stones has only the first player's last move;
        // past the data, the last row.
        assert_eq!(table.moves_left.len(), 5);
        assert_eq!(table.own_moves_left(40), 1.0);
        assert_eq!(GameLength::learn(&[]).own_moves_left(3), FALLBACK_MOVES_LEFT);
    }

    #[test]
    fn the_text_form_round_trips_and_bad_lines_are_named() {
        let table = GameLength::learn(&[9, 21, 15, 30, 17, 11, 25, 19, 23, 13, 40, 35]);
        let text = table.to_text(&["made by: a test".into()]);
        assert_eq!(GameLength::parse(&text, "t").unwrap(), table);
        let err = GameLength::parse(&format!("{FORMAT_LINE}\n0 5\n2 4\n"), "t.txt").unwrap_err();
        assert_eq!(err, "t.txt: line 3: expected `1 MOVES_LEFT` (a number of at least 1)");
        assert!(GameLength::parse("0 5\n", "t.txt").unwrap_err().starts_with("t.txt: line 1: expected"));
        assert!(GameLength::compiled().own_moves_left(0) > 1.0);
    }
}
