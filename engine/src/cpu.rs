//! Runtime CPU-feature dispatch for hot, recursive code.
//!
//! Release binaries target baseline x86-64 so they run anywhere. A recursive
//! walk wrapped in [`multiversion!`] is compiled twice, once for the baseline
//! and once with AVX2/BMI2, and [`dispatch!`] calls the best copy the running
//! CPU supports. Inlined helpers (move generation, flips) are specialised
//! inside each copy.

/// True when the running CPU has the features of the fast code path.
#[inline]
pub fn has_fast_path() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Compiles a function twice, in modules `NAME::portable` and `NAME::fast`
/// (the latter with AVX2, BMI1/2, POPCNT and LZCNT enabled). Recursive calls
/// by name stay within the same copy. Call it through [`dispatch!`].
macro_rules! multiversion {
    ($(#[$attr:meta])* fn $name:ident $($rest:tt)*) => {
        #[allow(non_snake_case, dead_code)]
        mod $name {
            pub(in super::super) mod portable {
                #[allow(unused_imports)]
                use super::super::*;
                $(#[$attr])*
                pub(in super::super) fn $name $($rest)*
            }
            #[cfg(target_arch = "x86_64")]
            pub(in super::super) mod fast {
                #[allow(unused_imports)]
                use super::super::*;
                $(#[$attr])*
                #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
                pub(in super::super) fn $name $($rest)*
            }
        }
    };
}
pub(crate) use multiversion;

/// Calls the best copy of a [`multiversion!`] function for this CPU.
macro_rules! dispatch {
    ($name:ident :: < $($g:ty),* > ( $($arg:expr),* $(,)? )) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if $crate::cpu::has_fast_path() {
                // SAFETY: the CPU has every feature the fast copy enables.
                unsafe { $name::fast::$name::<$($g),*>($($arg),*) }
            } else {
                $name::portable::$name::<$($g),*>($($arg),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $name::portable::$name::<$($g),*>($($arg),*)
        }
    }};
}
pub(crate) use dispatch;
