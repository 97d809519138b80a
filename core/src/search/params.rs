//! The registry of search and time parameters: each has a name, a default
//! and a range, and can be set by name (`selfplay`'s `engine:NAME=VALUE`,
//! the competition programs' `--param NAME=VALUE`), so a change can be
//! matched against the default without a rebuild.
//!
//! The core's own parameters are [`SearchParams`]; a game registers its
//! own (an exact solver's settings, say) in a struct of the same kind made
//! by [`param_registry!`](crate::param_registry) and named by
//! [`super::SearchGame::Params`]. One set of [`ParamSettings`] applies to
//! both.

/// One registered parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamInfo {
    /// The name it is set by.
    pub name: &'static str,
    /// Its default value.
    pub default: f64,
    /// The smallest value accepted.
    pub min: f64,
    /// The largest value accepted.
    pub max: f64,
    /// What it controls.
    pub doc: &'static str,
}

impl ParamInfo {
    /// The start of this parameter's row in the book's tables
    /// (docs/src/engine/parameters.md): name, default and range.
    pub fn book_row(&self) -> String {
        format!("| `{}` | {:?} | {:?}-{:?} |", self.name, self.default, self.min, self.max)
    }
}

/// The confidences of the selective solves that lead to an exact one, in
/// tenths of a standard deviation: cuts right 73%, 87%, 95%, 98% and 99% of
/// the time, two-sided (the ladder strong Othello engines use);
/// `solve.first_confidence` picks where a solve starts on it.
pub const SOLVE_CONFIDENCES: [u8; 5] = [11, 15, 20, 26, 33];

/// A struct of registered parameters: every field an `f64` with a name, a
/// default, a range and a meaning ([`param_registry!`](crate::param_registry)
/// makes one).
pub trait ParamRegistry: Copy + std::fmt::Debug + PartialEq + Send + Sync + 'static {
    /// Every parameter at its default.
    const DEFAULT: Self;
    /// Every parameter: name, default, range and meaning.
    const REGISTRY: &'static [ParamInfo];

    /// The field of parameter `name`, if it is one of these.
    fn slot(&mut self, name: &str) -> Option<&mut f64>;

    /// True when `name` is one of these parameters.
    fn knows(name: &str) -> bool {
        Self::REGISTRY.iter().any(|p| p.name == name)
    }

    /// Sets parameter `name` to `value`; an error names what was expected.
    fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let info = Self::REGISTRY.iter().find(|p| p.name == name).ok_or_else(|| unknown(name))?;
        check_range(info, value)?;
        *self.slot(name).expect("registered names have slots") = value;
        Ok(())
    }

    /// The value of parameter `name`.
    fn get(&self, name: &str) -> Option<f64> {
        let mut copy = *self;
        copy.slot(name).map(|v| *v)
    }
}

/// The error of a name no registry knows.
fn unknown(name: &str) -> String {
    format!("unknown parameter `{name}`: see docs/src/engine/parameters.md")
}

/// An error unless `value` is a number within `info`'s range.
fn check_range(info: &ParamInfo, value: f64) -> Result<(), String> {
    if value.is_finite() && (info.min..=info.max).contains(&value) {
        Ok(())
    } else {
        Err(format!("`{}={value}`: expected a number from {} to {}", info.name, info.min, info.max))
    }
}

/// Declares a struct of registered parameters and its [`ParamRegistry`]:
/// one line per field, `/// meaning` then `field = "group.name", default,
/// min, max;`.
#[macro_export]
macro_rules! param_registry {
    ($(#[$meta:meta])* $vis:vis struct $Name:ident {
        $( $(#[doc = $doc:literal])+ $field:ident = $name:literal, $default:expr, $min:expr, $max:expr; )*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        $vis struct $Name {
            $( $(#[doc = $doc])+ pub $field: f64, )*
        }

        impl $crate::search::params::ParamRegistry for $Name {
            const DEFAULT: Self = $Name { $( $field: $default, )* };
            const REGISTRY: &'static [$crate::search::params::ParamInfo] = &[
                $( $crate::search::params::ParamInfo {
                    name: $name, default: $default, min: $min, max: $max, doc: concat!($($doc),+).trim_ascii(),
                }, )*
            ];

            #[allow(unused_variables)]
            fn slot(&mut self, name: &str) -> Option<&mut f64> {
                match name {
                    $( $name => Some(&mut self.$field), )*
                    _ => None,
                }
            }
        }

        impl $Name {
            /// Every parameter at its default (the registry's, without its
            /// trait in scope).
            pub const DEFAULT: Self = <$Name as $crate::search::params::ParamRegistry>::DEFAULT;
        }

        impl Default for $Name {
            fn default() -> Self {
                Self::DEFAULT
            }
        }
    };
}

crate::param_registry! {
    /// A game's parameters when it has none of its own.
    pub struct NoParams {}
}

crate::param_registry! {
    /// Values of every parameter of the core's search and time plan.
    pub struct SearchParams {
    /// Fraction of the remaining clock never planned for.
    safety = "time.safety", 0.06, 0.0, 0.5;
    /// Own moves added to the moves a plan expects, so it never counts on
    /// the game ending early.
    extra_moves = "time.extra_moves", 3.0, 0.0, 30.0;
    /// Extra weight of a move at the plan's peak of the game (1 + this).
    peak_bonus = "time.peak_bonus", 0.6, 0.0, 4.0;
    /// Game progress (0 start, 1 end) where moves weigh most.
    peak_progress = "time.peak_progress", 0.55, 0.0, 1.0;
    /// Progress from the peak at which the extra weight has gone.
    peak_spread = "time.peak_spread", 0.55, 0.05, 2.0;
    /// Own moves' worth of time planned for the exact endgame of a game
    /// whose end is known (the solve and the moves after it).
    endgame_moves = "time.endgame_moves", 2.0, 0.0, 20.0;
    /// The hard limit of a move is this multiple of its target...
    hard_factor = "time.hard_factor", 3.0, 1.0, 10.0;
    /// ...but never more than this fraction of the usable clock.
    hard_fraction = "time.hard_fraction", 0.2, 0.01, 1.0;
    /// A new iteration starts when it is predicted to end within this
    /// multiple of the target.
    start_allowance = "time.start_allowance", 1.0, 0.1, 4.0;
    /// Below this fraction of the target spent, the next iteration starts
    /// even when it is not predicted to end, stopped at the target.
    min_use = "time.min_use", 0.6, 0.0, 1.0;
    /// Predicted cost of the next iteration over the last one when too
    /// little has been measured.
    branching = "time.branching", 4.0, 1.0, 50.0;
    /// Smallest and...
    branching_min = "time.branching_min", 1.5, 1.0, 50.0;
    /// ...largest measured cost ratio of two iterations the prediction uses.
    branching_max = "time.branching_max", 12.0, 1.0, 100.0;
    /// Target multiplier when the best move changed in the last iteration.
    unstable_factor = "time.unstable_factor", 1.3, 1.0, 4.0;
    /// Iterations from this depth on can stretch the target...
    extend_depth = "time.extend_depth", 7.0, 1.0, 64.0;
    /// ...by a score drop of this many points of final score (discs in
    /// Reversi; `SCORE_PER_POINT` score units each) from the last iteration
    /// of the same parity (two plies shallower)...
    drop_points = "time.drop_points", 2.0, 0.1, 64.0;
    /// ...multiplies the target by this.
    drop_factor = "time.drop_factor", 1.3, 1.0, 4.0;
    /// The target never grows past this multiple of the planned one.
    extend_cap = "time.extend_cap", 2.0, 1.0, 10.0;
    /// What a move is expected to spend, as a multiple of its planned share
    /// (targets stretched by instability, iterations that outrun their
    /// predicted cost), before the game has measured it: the plan divides
    /// each share by the game's running overrun, so that the moves late in
    /// the game keep theirs...
    overrun = "time.overrun", 1.0, 0.5, 4.0;
    /// ...counted as this many measured moves in that running overrun
    /// (a large value keeps `time.overrun` fixed).
    overrun_moves = "time.overrun_moves", 4.0, 0.0, 1000.0;
    /// Half-width of the first aspiration window, in points of final score
    /// (`SCORE_PER_POINT` score units each)...
    aspiration = "search.aspiration", 0.5, 0.01, 64.0;
    /// ...used by iterations from this depth on.
    aspiration_depth = "search.aspiration_depth", 4.0, 1.0, 128.0;
    /// Factor by which a failed aspiration window widens.
    aspiration_growth = "search.aspiration_growth", 4.0, 2.0, 64.0;
    /// First half-width of the exact solve's aspiration window, in points...
    exact_aspiration = "search.exact_aspiration", 2.0, 0.01, 64.0;
    /// ...and the factor by which it widens when the margin falls outside.
    exact_aspiration_growth = "search.exact_aspiration_growth", 2.0, 2.0, 64.0;
    /// Nodes searched this many plies deep or more probe and store the
    /// transposition table; shallower ones (most of the tree's inner
    /// nodes, whose entries would crowd out deeper ones) only search.
    table_depth = "search.table_depth", 0.0, 0.0, 64.0;
    /// Nodes searched fewer plies deep than this use the small table
    /// (`search.small_table_mib`), deeper ones the main one: the many
    /// shallow entries then live in a table that stays in the caches
    /// (0: every node uses the main table).
    small_table_depth = "search.small_table_depth", 0.0, 0.0, 64.0;
    /// Size of the small table in MiB.
    small_table_mib = "search.small_table_mib", 2.0, 1.0, 1024.0;
    /// Nodes searched at most this many plies deep ask for every child's
    /// table bucket while they order their moves, so the children's misses
    /// overlap (0: only the table move's and the next sibling's).
    prefetch_children_depth = "search.prefetch_children_depth", 0.0, 0.0, 64.0;
    /// Depth of the midgame search that gives the exact solve its first
    /// guess when no midgame iteration ran before it.
    guess_depth = "search.guess_depth", 6.0, 1.0, 64.0;
    /// Share of the move's target the game's own forced-win search may use
    /// at the root.
    forced_win_share = "search.forced_win_share", 0.25, 0.0, 1.0;
    /// The exact solve from the root is tried with this many plies to go
    /// when one CPU second is left for it (measured: 12x12 Reversi
    /// positions with 16-18 empties solve in 0.1-5 s, 8x8 ones with 20 in
    /// 0.3-1.5 s)...
    solve_plies = "solve.plies_at_one_second", 17.0, 0.0, 64.0;
    /// ...plus this many per doubling of the time (one more empty costs
    /// about three times as much).
    solve_plies_per_doubling = "solve.plies_per_doubling", 0.65, 0.0, 4.0;
    /// Midgame iterations stop this many plies short of the end: the exact
    /// solve follows.
    solve_warm_up_gap = "solve.warm_up_gap", 10.0, 0.0, 64.0;
    /// Below this many remaining plies the solver is always worth a try.
    solve_always = "solve.always_plies", 12.0, 0.0, 64.0;
    /// The solve from the root first runs selective solves at the
    /// confidences of [`SOLVE_CONFIDENCES`] from this index on (each fills
    /// the table with moves and bounds for the next), then the exact one;
    /// `SOLVE_CONFIDENCES.len()` (5): the exact solve alone.
    solve_first_confidence = "solve.first_confidence", 5.0, 0.0, 5.0;
    /// ...when the solve starts with at least this many plies to go
    /// (fewer: the exact solve alone, which is then quicker).
    solve_ladder_plies = "solve.ladder_plies", 0.0, 0.0, 64.0;
    /// Multi-ProbCut's confidence: a node is cut when a shallow search puts
    /// it this many standard deviations beyond the window (0: off)...
    mpc_confidence = "mpc.confidence", 0.0, 0.0, 8.0;
    /// ...at depths from this one on...
    mpc_min_depth = "mpc.min_depth", 4.0, 3.0, 128.0;
    /// ...with a shallow search about this fraction as deep (same parity)...
    mpc_depth_ratio = "mpc.depth_ratio", 0.5, 0.0, 0.9;
    /// ...whose error against the deep one has this standard deviation, in
    /// points...
    mpc_sigma = "mpc.sigma", 2.0, 0.01, 64.0;
    /// ...plus this many points per ply between the two depths.
    mpc_sigma_per_ply = "mpc.sigma_per_ply", 0.0, 0.0, 16.0;
    }
}

/// Parameters set by name (a program's `--param NAME=VALUE`, a `selfplay`
/// player's `NAME=VALUE`), kept apart from the defaults they change: each
/// game has its own defaults ([`super::SearchGame::PARAMS`] and
/// [`super::SearchGame::GAME_PARAMS`]) and the settings apply over them
/// ([`ParamSettings::over`]).
///
/// A name of the core's registry is checked when it is set; any other
/// `group.name` is taken as a game's parameter and checked against that
/// game's registry by [`ParamSettings::check`], which whoever builds a
/// player of a game calls before it plays.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParamSettings {
    set: Vec<(String, f64)>,
}

/// True when `name` has the form of a registry name: `group.name`, lower
/// case letters, digits and underscores.
fn well_formed(name: &str) -> bool {
    let part = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    name.split_once('.').is_some_and(|(group, rest)| part(group) && part(rest))
}

impl ParamSettings {
    /// Sets parameter `name` to `value` (a later setting of the same name
    /// wins); an error names what was expected.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        match SearchParams::REGISTRY.iter().find(|p| p.name == name) {
            Some(info) => check_range(info, value)?,
            None if well_formed(name) && value.is_finite() => {}
            None if well_formed(name) => return Err(format!("`{name}={value}`: expected a number")),
            None => return Err(unknown(name)),
        }
        self.set.retain(|(n, _)| n != name);
        self.set.push((name.to_string(), value));
        Ok(())
    }

    /// Sets `NAME=VALUE`.
    pub fn set_text(&mut self, pair: &str) -> Result<(), String> {
        let (name, value) = pair.split_once('=').ok_or_else(|| format!("`{pair}`: expected NAME=VALUE"))?;
        let value: f64 = value.parse().map_err(|_| format!("`{pair}`: expected a number after `=`"))?;
        self.set(name, value)
    }

    /// The settings of a program's command line: `--param NAME=VALUE`,
    /// repeated; anything else is an error naming what was expected.
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut settings = ParamSettings::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            if arg != "--param" {
                return Err(format!("unexpected argument `{arg}`: expected only --param NAME=VALUE"));
            }
            settings.set_text(&args.next().ok_or("--param: expected NAME=VALUE")?)?;
        }
        Ok(settings)
    }

    /// An error naming the first setting that is neither the core's nor
    /// one of `P` (a game's registry), or that lies outside its range.
    pub fn check<P: ParamRegistry>(&self) -> Result<(), String> {
        for (name, value) in &self.set {
            if SearchParams::knows(name) {
                continue;
            }
            let info = P::REGISTRY.iter().find(|p| p.name == name).ok_or_else(|| unknown(name))?;
            check_range(info, *value)?;
        }
        Ok(())
    }

    /// `base` with the settings of its registry applied (the others are
    /// another registry's).
    pub fn over<P: ParamRegistry>(&self, base: P) -> P {
        let mut params = base;
        for (name, value) in &self.set {
            if let Some(slot) = params.slot(name) {
                *slot = *value;
            }
        }
        params
    }

    /// The settings as `NAME=VALUE` pairs, in the order they were made.
    pub fn pairs(&self) -> Vec<String> {
        self.set.iter().map(|(n, v)| format!("{n}={v}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_lists_every_parameter_with_its_default_and_range() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/src/engine/parameters.md");
        let chapter = std::fs::read_to_string(path).expect("the book's parameter chapter");
        for p in SearchParams::REGISTRY {
            assert!(chapter.contains(&p.book_row()), "docs/src/engine/parameters.md lacks the row {}", p.book_row());
        }
    }

    #[test]
    fn every_parameter_is_set_by_its_name_within_its_range() {
        let mut names = std::collections::HashSet::new();
        for info in SearchParams::REGISTRY {
            assert!(names.insert(info.name), "{} registered twice", info.name);
            assert!(info.min <= info.default && info.default <= info.max, "{info:?}");
            assert_eq!(SearchParams::DEFAULT.get(info.name), Some(info.default));
            let mut p = SearchParams::DEFAULT;
            p.set(info.name, info.max).unwrap();
            assert_eq!(p.get(info.name), Some(info.max));
            assert!(p.set(info.name, info.max + 1.0).is_err());
            assert!(p.set(info.name, f64::NAN).is_err());
        }
        let mut settings = ParamSettings::default();
        settings.set_text("time.hard_factor=2.5").unwrap();
        assert_eq!(settings.over(SearchParams::DEFAULT).hard_factor, 2.5);
        for bad in ["nope", "time.hard_factor", "time.hard_factor=x", "time.hard_factor=99", "Time.x=1", "time.x=inf"] {
            assert!(settings.set_text(bad).is_err(), "{bad}");
        }
        // A name outside the core's registry is a game's, checked against it.
        settings.set_text("time.nope=1").unwrap();
        assert!(settings.check::<NoParams>().is_err());
    }

    crate::param_registry! {
        /// A game's registry, for the tests.
        struct GameParams {
            /// A setting of the game's.
            width = "game.width", 2.0, 1.0, 4.0;
        }
    }

    #[test]
    fn a_games_settings_apply_to_its_registry_and_are_checked_against_it() {
        let mut settings = ParamSettings::default();
        settings.set_text("game.width=3").unwrap();
        settings.set_text("time.safety=0.1").unwrap();
        assert_eq!(settings.check::<GameParams>(), Ok(()));
        assert_eq!(settings.over(GameParams::DEFAULT).width, 3.0);
        assert_eq!(settings.over(SearchParams::DEFAULT).safety, 0.1);
        assert!(settings.check::<NoParams>().is_err());
        settings.set_text("game.width=5").unwrap();
        assert!(settings.check::<GameParams>().is_err());
    }

    #[test]
    fn settings_apply_over_any_base_and_the_last_setting_wins() {
        let args = |a: &[&str]| ParamSettings::from_args(a.iter().map(|s| s.to_string()));
        let settings =
            args(&["--param", "time.hard_factor=2.5", "--param", "time.safety=0.1", "--param", "time.hard_factor=2"])
                .unwrap();
        let base = SearchParams { peak_bonus: 1.5, hard_factor: 5.0, ..SearchParams::DEFAULT };
        let applied = settings.over(base);
        assert_eq!((applied.hard_factor, applied.safety, applied.peak_bonus), (2.0, 0.1, 1.5));
        assert_eq!(settings.pairs(), ["time.safety=0.1", "time.hard_factor=2"]);
        assert_eq!(args(&[]).unwrap().over(base), base);
        for bad in [&["--param"][..], &["x"], &["--param", "time"], &["--param", "time.safety=0.9"]] {
            assert!(args(bad).is_err(), "{bad:?}");
        }
    }
}
