#!/bin/sh
# Runs one fuzz target for a while on one core (run from anywhere):
#   tools/fuzz/run.sh TARGET [SECONDS]        (TARGET: definitions, record, jcz_import, lsp,
#                                             completion, http)
# Needs cargo-fuzz (`cargo install cargo-fuzz`), on the stable toolchain: `--sanitizer none`
# instruments for coverage only; a panic, a stack overflow, a run over 10 s or over 2 GB of
# memory is a crash, written to tools/fuzz/artifacts/TARGET/ with the command to reproduce it.
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
TARGET=${1:?usage: run.sh TARGET [SECONDS]}
SECONDS_=${2:-600}
[ -d "$FUZZ/corpus/$TARGET" ] || "$FUZZ/seed.sh"
cd "$FUZZ/../.."
exec cargo fuzz run --fuzz-dir tools/fuzz --sanitizer none "$TARGET" "tools/fuzz/corpus/$TARGET" -- \
    -max_total_time="$SECONDS_" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
