#!/usr/bin/env bash
# Runs one fuzz target for a bounded time and prints how many inputs it survived:
#
#     tests/fuzz/run.sh TARGET SECONDS [extra libFuzzer options]
#
# Targets: the names in the TARGETS of shared/src/fuzzing/mod.rs, client/src/fuzzing.rs and
# server/src/config/fuzzing.rs, one file each in fuzz_targets/.
# Needs `cargo install cargo-fuzz`. libFuzzer needs nightly compiler flags; RUSTC_BOOTSTRAP=1
# allows them on the stable toolchain. No sanitizer: the code under test is safe Rust (the
# workspace denies `unsafe`; its one exception, the endgame database's memory map, is not
# fuzzed: the targets parse bytes in memory), so the fuzzer looks for panics, failed
# properties (asserted in the target bodies), overflows (debug assertions are on) and
# oversize allocations.
# The working corpus is corpus/TARGET (not committed); seeds/TARGET and regressions/TARGET are
# read too. A crash is written to artifacts/TARGET/: once fixed, copy it to regressions/TARGET/
# so that `cargo test --workspace` replays it (tests/tests/fuzz_regressions.rs).
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer options]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
mkdir -p "corpus/$target" "artifacts/$target"
inputs=("corpus/$target")
for extra in "seeds/$target" "regressions/$target"; do
    if [ -d "$extra" ]; then
        inputs+=("$extra")
    fi
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo fuzz run --sanitizer none --debug-assertions "$target" "${inputs[@]}" -- \
    -max_total_time="$seconds" -artifact_prefix="artifacts/$target/" -print_final_stats=1 \
    "$@" 2>&1 | tee "$log" | grep -E '^(#[0-9]+ +(DONE|pulse)|==|thread|stat::number_of_executed_units)' || true
runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
if grep -qE 'panicked|deadly signal|ERROR: libFuzzer' "$log"; then
    echo "$target: CRASH after $runs executions; input in tests/fuzz/artifacts/$target/"
    grep -E 'panicked|Test unit written' "$log" || true
    exit 1
fi
echo "$target: $runs executions in $seconds s, no crash"
