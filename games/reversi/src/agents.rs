//! The strong engine as a Reversi player on every board size: the shared
//! search ([`engine_core::search::Engine`]) with the evaluation the configuration
//! chooses, dispatched by a `match` rather than a trait object so that the
//! node loop calls it directly.

use super::{Geometry, Move, Position, Variant};
use super::{Size4, Size6, Size8, Size10, Size12};
use crate::eval::pattern::PatternTrail;
use crate::eval::{ClassicEval, Evaluation, Evaluator, PatternEval};
use engine_core::bitboard::{Isa, Portable};
use engine_core::search::{CompiledSearch, Engine, EngineConfig, Limits, SearchResult, Searcher};

/// The evaluation a Reversi engine plays with (see [`Evaluation`]).
// One per engine, which the searcher keeps boxed: boxing the large variant
// as well would cost an indirection per evaluation.
#[allow(clippy::large_enum_variant)]
pub enum ReversiEvaluator<G: Geometry> {
    /// The learnt pattern evaluation.
    Pattern(PatternEval<G>),
    /// The classic hand-written heuristic.
    Classic(ClassicEval<G>),
}

impl<G: Geometry> Evaluator<Position<G>> for ReversiEvaluator<G> {
    type Trail = PatternTrail<G::Bits>;

    #[inline(always)]
    fn evaluate(&self, pos: &Position<G>) -> i32 {
        self.evaluate_on::<Portable>(pos)
    }

    fn trail_start(&self, trail: &mut PatternTrail<G::Bits>, root: &Position<G>) {
        if let ReversiEvaluator::Pattern(eval) = self {
            eval.trail_start(trail, root);
        }
    }

    #[inline(always)]
    fn trail_push(&self, trail: &mut PatternTrail<G::Bits>, after: &Position<G>, mv: Move<G>, before: &Position<G>) {
        if let ReversiEvaluator::Pattern(eval) = self {
            eval.trail_push(trail, after, mv, before);
        }
    }

    #[inline(always)]
    fn trail_pop(&self, trail: &mut PatternTrail<G::Bits>) {
        if let ReversiEvaluator::Pattern(eval) = self {
            eval.trail_pop(trail);
        }
    }

    #[inline(always)]
    fn evaluate_trail_on<I: Isa>(&self, trail: &PatternTrail<G::Bits>, pos: &Position<G>) -> i32 {
        match self {
            ReversiEvaluator::Pattern(eval) => eval.evaluate_trail_on::<I>(trail, pos),
            ReversiEvaluator::Classic(eval) => eval.evaluate_on::<I>(pos),
        }
    }

    #[inline(always)]
    fn evaluate_after_on<I: Isa>(
        &self,
        trail: &mut PatternTrail<G::Bits>,
        after: &Position<G>,
        mv: Move<G>,
        before: &Position<G>,
    ) -> i32 {
        match self {
            ReversiEvaluator::Pattern(eval) => eval.evaluate_after_on::<I>(trail, after, mv, before),
            ReversiEvaluator::Classic(eval) => eval.evaluate_on::<I>(after),
        }
    }

    // Inlined into each CPU-level copy of the search (`cpu::multiversion!`),
    // so the evaluation runs with that copy's instructions (POPCNT, BMI2).
    #[inline(always)]
    fn evaluate_on<I: Isa>(&self, pos: &Position<G>) -> i32 {
        match self {
            ReversiEvaluator::Pattern(eval) => eval.evaluate_on::<I>(pos),
            ReversiEvaluator::Classic(eval) => eval.evaluate_on::<I>(pos),
        }
    }
}

/// A board geometry whose Reversi search this crate compiles, once, for
/// the evaluation the engine plays with (see [`CompiledSearch`]): every
/// geometry of [`Variant`].
pub trait CompiledGeometry: Geometry {
    /// Searches `pos` within `limits` with `searcher`.
    fn reversi_search(
        searcher: &mut Searcher<Position<Self>, ReversiEvaluator<Self>>,
        pos: &Position<Self>,
        limits: &Limits,
    ) -> SearchResult<Move<Self>>;
}

/// Implements [`CompiledGeometry`] for each listed geometry.
macro_rules! compiled_geometries {
    ($($g:ty),*) => {$(
        impl CompiledGeometry for $g {
            // Never inlined: the one copy is this crate's.
            #[inline(never)]
            fn reversi_search(
                searcher: &mut Searcher<Position<Self>, ReversiEvaluator<Self>>,
                pos: &Position<Self>,
                limits: &Limits,
            ) -> SearchResult<Move<Self>> {
                searcher.search_generic(pos, limits)
            }
        }
    )*};
}
compiled_geometries!(Size4, Size6, Size8, Size10, Size12);

impl<G: CompiledGeometry> CompiledSearch<Position<G>> for ReversiEvaluator<G> {
    #[inline]
    fn compiled_search(
        searcher: &mut Searcher<Position<G>, Self>,
        pos: &Position<G>,
        limits: &Limits,
    ) -> SearchResult<Move<G>> {
        G::reversi_search(searcher, pos, limits)
    }
}

/// The pattern evaluation alone (tests, benches): compiled where it is used.
impl<G: Geometry> CompiledSearch<Position<G>> for PatternEval<G> {}

/// The classic heuristic alone (tests): compiled where it is used.
impl<G: Geometry> CompiledSearch<Position<G>> for ClassicEval<G> {}

/// The strong engine as a player of Reversi on geometry `G`.
pub type ReversiEngine<G> = Engine<Position<G>, ReversiEvaluator<G>>;

/// An engine for `variant` (whose board must be `G`) with `config`: the
/// pattern evaluation with the compiled-in weights or with the tuner's
/// weights file `config.weights`, or the classic heuristic; fails when the
/// weights file cannot be used.
pub fn reversi_engine<G: Geometry>(variant: Variant, config: EngineConfig) -> Result<ReversiEngine<G>, String> {
    assert_eq!(variant.size(), G::N, "variant {variant} is not played on this geometry");
    config.check::<Position<G>>()?;
    let eval = match (config.evaluation, &config.weights) {
        (Evaluation::Pattern, Some(path)) => ReversiEvaluator::Pattern(PatternEval::<G>::from_file(variant, path)?),
        (Evaluation::Pattern, None) => ReversiEvaluator::Pattern(PatternEval::<G>::compiled(variant)),
        (Evaluation::Classic, None) => ReversiEvaluator::Classic(ClassicEval::<G>::new(variant.start_discs())),
        (Evaluation::Classic, Some(_)) => return Err("the classic evaluation takes no weights file".into()),
    };
    let name = match config.evaluation {
        Evaluation::Pattern => format!("engine-{variant}"),
        Evaluation::Classic => format!("classic-{variant}"),
    };
    Ok(Engine::with_evaluator(name, Box::new(eval), config))
}
