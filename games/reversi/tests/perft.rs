//! perft from the start position of every variant, against counts published
//! by independent implementations (the engine-core issue lists them).

use reversi::{Geometry, Position, Size4, Size6, Size8, Size12, Variant, perft};

fn check<G: Geometry>(variant: Variant, expected: &[u64]) {
    let root: Position<G> = variant.start();
    assert_eq!(perft(&root, expected.len()).leaves, expected, "{variant}");
}

macro_rules! perft_tests {
    ($($(#[$attr:meta])* $name:ident: $g:ty, $variant:expr, [$($count:expr),* $(,)?];)*) => {$(
        $(#[$attr])*
        #[test]
        fn $name() {
            check::<$g>($variant, &[$($count),*]);
        }
    )*};
}

perft_tests! {
    tiny4_to_depth_12: Size4, Variant::Tiny4,
        [4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436];
    othello6_to_depth_7: Size6, Variant::Othello6, [4, 12, 56, 244, 1364, 7604, 47740];
    othello8_to_depth_9: Size8, Variant::Othello8, [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    #[ignore = "deep: run with --ignored"]
    othello8_to_depth_12: Size8, Variant::Othello8,
        [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636];
    duo12_to_depth_5: Size12, Variant::Duo12, [8, 56, 400, 2696, 20408];
}

#[test]
fn a_finished_game_is_one_leaf_at_every_depth() {
    let full = "X\nXXXX\nXXXX\nXXXX\nXXXO\n";
    let root = Position::<Size4>::parse(full, Variant::Tiny4.scoring()).unwrap();
    assert_eq!(perft(&root, 3).leaves, [1, 1, 1]);
}
