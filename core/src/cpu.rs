//! Runtime CPU-feature dispatch for hot, recursive code.
//!
//! Release binaries target baseline x86-64 so they run anywhere. A recursive
//! walk wrapped in [`multiversion!`] is compiled three times: for the
//! baseline, with AVX2/BMI2, and with AVX-512 (VL, VBMI2, VPOPCNTDQ) as
//! well. [`dispatch!`] calls the best copy the running CPU supports;
//! [`run_on!`] calls a chosen one (the tests run every copy). Inlined
//! helpers (move generation, flips) are specialised inside each copy.

/// True when the running CPU has the features of the fast (AVX2) code path.
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

/// True when the running CPU also has the features of the AVX-512 code path
/// (AVX-512 F, VL, VBMI2 and VPOPCNTDQ).
#[inline]
pub fn has_avx512_path() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_fast_path()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AMD's first family whose PEXT is a fast instruction (Zen 3).
#[cfg(target_arch = "x86_64")]
const AMD_FAST_PEXT_FAMILY: u32 = 0x19;

/// True when PEXT (BMI2) is a fast instruction here: a CPU with BMI2 that is
/// not an AMD (or Hygon) before Zen 3, where it is slow microcode. Read
/// once, then cached.
#[inline]
pub fn pext_is_fast() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::__cpuid;
            if !std::arch::is_x86_feature_detected!("bmi2") {
                return false;
            }
            let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
            let name = [vendor.ebx.to_le_bytes(), vendor.edx.to_le_bytes(), vendor.ecx.to_le_bytes()].concat();
            let base = (signature >> 8) & 0xF;
            let family = if base == 0xF { base + ((signature >> 20) & 0xFF) } else { base };
            let amd = name == b"AuthenticAMD" || name == b"HygonGenuine";
            !amd || family >= AMD_FAST_PEXT_FAMILY
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// Compiles a function three times, in modules `NAME::portable`,
/// `NAME::fast` (AVX2, BMI1/2, POPCNT and LZCNT enabled) and `NAME::avx512`
/// (those plus AVX-512 F, VL, VBMI2 and VPOPCNTDQ). Recursive calls
/// by name stay within the same copy. Inside each copy the type `Simd` names
/// the [`Isa`](crate::bitboard::Isa) of that copy, for the kernels' `_with`
/// forms. Call it through [`dispatch!`] or [`run_on!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __multiversion {
    ($(#[$attr:meta])* fn $name:ident $($rest:tt)*) => {
        #[allow(non_snake_case, dead_code)]
        mod $name {
            pub(in super::super) mod portable {
                #[allow(unused_imports)]
                use super::super::*;
                /// The instruction set of the four-lane kernels in this copy.
                #[allow(dead_code)]
                type Simd = $crate::bitboard::Portable;
                $(#[$attr])*
                pub(in super::super) fn $name $($rest)*
            }
            #[cfg(target_arch = "x86_64")]
            pub(in super::super) mod fast {
                #[allow(unused_imports)]
                use super::super::*;
                /// The instruction set of the four-lane kernels in this copy.
                #[allow(dead_code)]
                type Simd = $crate::bitboard::avx2::Avx2;
                $(#[$attr])*
                #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
                pub(in super::super) fn $name $($rest)*
            }
            #[cfg(target_arch = "x86_64")]
            pub(in super::super) mod avx512 {
                #[allow(unused_imports)]
                use super::super::*;
                /// The instruction set of the four-lane kernels in this copy.
                #[allow(dead_code)]
                type Simd = $crate::bitboard::avx2::Avx512;
                $(#[$attr])*
                #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512vbmi2,avx512vpopcntdq")]
                pub(in super::super) fn $name $($rest)*
            }
        }
    };
}
pub use crate::__multiversion as multiversion;

/// The name of the code path [`dispatch!`] runs on this CPU: `portable`,
/// `avx2` or `avx512`.
pub fn code_path_name() -> &'static str {
    match CodePath::best() {
        CodePath::Portable => "portable",
        CodePath::Fast => "avx2",
        CodePath::Avx512 => "avx512",
    }
}

/// Environment variable that caps the code path [`dispatch!`] picks:
/// `portable` or `avx2` (for measuring the copies against each other).
pub const CODE_PATH_VARIABLE: &str = "ENGINE_CODE_PATH";

/// One of the compiled copies of a [`multiversion!`] function.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum CodePath {
    /// Baseline x86-64 (or whatever the target is): runs anywhere.
    Portable,
    /// AVX2, BMI1/2, POPCNT and LZCNT: only where [`has_fast_path`] is true.
    Fast,
    /// The `Fast` features plus AVX-512 F, VL, VBMI2 and VPOPCNTDQ: only where
    /// [`has_avx512_path`] is true.
    Avx512,
}

impl CodePath {
    /// The best copy for the running CPU, capped by the environment variable
    /// [`CODE_PATH_VARIABLE`] when it names a slower one (`portable`, `avx2`).
    #[inline]
    pub fn best() -> CodePath {
        static BEST: std::sync::OnceLock<CodePath> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            let cap = match std::env::var(CODE_PATH_VARIABLE).as_deref() {
                Ok("portable") => CodePath::Portable,
                Ok("avx2") => CodePath::Fast,
                _ => CodePath::Avx512,
            };
            let supported = if has_avx512_path() {
                CodePath::Avx512
            } else if has_fast_path() {
                CodePath::Fast
            } else {
                CodePath::Portable
            };
            cap.min(supported)
        })
    }

    /// Every copy the running CPU can execute, portable first (tests run
    /// each of them).
    pub fn available() -> Vec<CodePath> {
        let mut paths = vec![CodePath::Portable];
        if has_fast_path() {
            paths.push(CodePath::Fast);
        }
        if has_avx512_path() {
            paths.push(CodePath::Avx512);
        }
        paths
    }
}

/// Calls the copy of a [`multiversion!`] function chosen by a [`CodePath`]
/// expression. It must be one the CPU supports: asking for an unsupported
/// copy panics.
#[doc(hidden)]
#[macro_export]
macro_rules! __run_on {
    ($path:expr, $name:ident :: < $($g:ty),* > ( $($arg:expr),* $(,)? )) => {{
        match $path {
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::CodePath::Fast => {
                assert!($crate::cpu::has_fast_path(), "the AVX2 code path needs AVX2, BMI1/2, POPCNT and LZCNT");
                // SAFETY: the CPU has every feature the fast copy enables.
                unsafe { $name::fast::$name::<$($g),*>($($arg),*) }
            }
            #[cfg(target_arch = "x86_64")]
            $crate::cpu::CodePath::Avx512 => {
                assert!($crate::cpu::has_avx512_path(), "the AVX-512 code path needs AVX-512 F, VL, VBMI2 and VPOPCNTDQ");
                // SAFETY: the CPU has every feature the avx512 copy enables.
                unsafe { $name::avx512::$name::<$($g),*>($($arg),*) }
            }
            _ => $name::portable::$name::<$($g),*>($($arg),*),
        }
    }};
}
pub use crate::__run_on as run_on;

/// Calls the best copy of a [`multiversion!`] function for this CPU.
#[allow(unused_macros)]
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch {
    ($name:ident :: < $($g:ty),* > ( $($arg:expr),* $(,)? )) => {
        $crate::cpu::run_on!($crate::cpu::CodePath::best(), $name::<$($g),*>($($arg),*))
    };
}
pub use crate::__dispatch as dispatch;
