//! Run-time dispatch of the engine's hot functions to a build for today's processors.
//!
//! The release build targets baseline x86-64, where `count_ones` has no instruction of its own
//! and is emulated in a dozen. Nearly every x86-64 processor sold since 2013 has `popcnt`, and
//! BMI1/BMI2 (`tzcnt`, `blsr`, `andn`...) with it. A [`Kernel`] is a function written once, as an
//! `#[inline(always)]` body, and compiled twice: [`call`] runs it either as built for the
//! baseline, or as built with those instructions when the processor was found to have them
//! ([`Instructions::detected`]). The binary stays portable: other processors and other
//! architectures run the baseline build, with identical results (the tests run both).
//!
//! A recursive kernel (perft) recurses through the callback it is given, so that every level of
//! the recursion runs the same build. [`prefetch`] asks the processor to fetch memory ahead of
//! a read. This is the one file that allows `unsafe` besides the endgame database's memory map:
//! calling the build for newer processors is `unsafe` because it must not run on a processor
//! without them, and [`Instructions`] can only say so after asking the processor; the prefetch
//! instruction's intrinsic is `unsafe` to call as well, though every x86-64 processor has it.

/// A function with two builds, chosen at run time by [`call`].
pub trait Kernel {
    /// What the function takes.
    type Input;
    /// What it returns.
    type Output;
    /// The function's body. `recurse` calls the same build of the same kernel again, so a
    /// recursive function stays in the build it started in. Mark it `#[inline(always)]`, with
    /// what it calls, so that it is compiled into each build rather than called from both.
    /// The input is passed by reference: a copy of a compound value would be stored piece by
    /// piece by the caller and loaded whole by the callee, which processors do not forward
    /// from store to load (perft lost a fifth of its time to that).
    fn run<R: Fn(&Self::Input) -> Self::Output>(input: &Self::Input, recurse: &R) -> Self::Output;
}

/// Which build of the hot functions to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Instructions(Build);

/// The builds; private, so that the build for newer processors is named only by
/// [`Instructions::detected`], once the processor said it has what that build needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Build {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    PopcntBmi2,
}

impl Instructions {
    /// The baseline build, for any processor of the architecture.
    pub const BASELINE: Instructions = Instructions(Build::Baseline);

    /// The fastest build this processor runs: with `popcnt`, BMI1 and BMI2 where it has all
    /// three, the baseline otherwise (and on other architectures). Cheap to call: the standard
    /// library asks the processor once and keeps the answer.
    #[must_use]
    pub fn detected() -> Instructions {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
        {
            return Instructions(Build::PopcntBmi2);
        }
        Instructions::BASELINE
    }

    /// Every build this processor runs, the baseline first: what tests compare.
    #[must_use]
    pub fn available() -> Vec<Instructions> {
        let mut builds = vec![Instructions::BASELINE];
        let detected = Instructions::detected();
        if detected != Instructions::BASELINE {
            builds.push(detected);
        }
        builds
    }

    /// The build's name as a person reads it in a report: `baseline` or `popcnt+bmi2`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            Build::Baseline => "baseline",
            #[cfg(target_arch = "x86_64")]
            Build::PopcntBmi2 => "popcnt+bmi2",
        }
    }
}

/// Runs kernel `K` on `input` in the build `instructions` names.
#[inline]
#[allow(unsafe_code)]
pub fn call<K: Kernel>(instructions: Instructions, input: &K::Input) -> K::Output {
    match instructions.0 {
        Build::Baseline => baseline::<K>(input),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `popcnt_bmi2` needs the processor to have popcnt, BMI1 and BMI2, and an
        // `Instructions` names that build only when `detected` found all three on this
        // processor (its field is private, so no other code can make one).
        Build::PopcntBmi2 => unsafe { popcnt_bmi2::<K>(input) },
    }
}

/// Asks the processor to bring the memory of `value` into its caches without waiting for it,
/// so that a read of it a little later finds it there instead of waiting for memory (the
/// search's transposition table, larger than a core's caches, is read this way). A hint: it
/// changes nothing the program sees; a no-op on other architectures.
#[inline(always)]
#[allow(unsafe_code)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is part of the
    // baseline the build targets); it reads nothing the program sees and cannot fault, and the
    // address is a live reference's.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The build for any processor.
fn baseline<K: Kernel>(input: &K::Input) -> K::Output {
    K::run(input, &|next: &K::Input| baseline::<K>(next))
}

/// The build for processors with popcnt, BMI1 and BMI2. The closure inherits the function's
/// features, so the recursion stays in this build without another check.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn popcnt_bmi2<K: Kernel>(input: &K::Input) -> K::Output {
    K::run(input, &|next: &K::Input| popcnt_bmi2::<K>(next))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the set bits of a tree of masks, recursing through the callback.
    struct TreeCount;

    impl Kernel for TreeCount {
        type Input = (u32, u32);
        type Output = u64;
        #[inline(always)]
        fn run<R: Fn(&(u32, u32)) -> u64>(&(mask, depth): &(u32, u32), recurse: &R) -> u64 {
            if depth == 0 {
                return u64::from(mask.count_ones());
            }
            recurse(&(mask.wrapping_mul(0x9e37_79b9), depth - 1))
                + recurse(&(mask ^ 0x5555, depth - 1))
        }
    }

    #[test]
    fn every_build_gives_the_same_answer() {
        let plain = |(mask, depth): (u32, u32)| -> u64 {
            fn go(mask: u32, depth: u32) -> u64 {
                if depth == 0 {
                    u64::from(mask.count_ones())
                } else {
                    go(mask.wrapping_mul(0x9e37_79b9), depth - 1) + go(mask ^ 0x5555, depth - 1)
                }
            }
            go(mask, depth)
        };
        for instructions in Instructions::available() {
            for input in [(0, 0), (u32::MAX, 3), (12_345, 10)] {
                assert_eq!(
                    call::<TreeCount>(instructions, &input),
                    plain(input),
                    "{} on {input:?}",
                    instructions.name()
                );
            }
        }
    }

    #[test]
    fn the_baseline_is_always_available_and_first() {
        let builds = Instructions::available();
        assert_eq!(builds[0], Instructions::BASELINE);
        assert!(builds.len() <= 2);
        assert!(builds.contains(&Instructions::detected()));
    }
}
