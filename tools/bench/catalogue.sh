#!/usr/bin/env bash
# Import, validate and render (256 px) every JCloisterZone reference file, timed by hyperfine.
# Usage: tools/bench/catalogue.sh [JCZ_FOLDER] [SCRATCH]   (needs hyperfine; builds release)
set -euo pipefail
cd "$(dirname "$0")/../.."
jcz=$(realpath "${1:-../shared/reference/jcz}")
scratch=${2:-/dev/shm/tilekit-catalogue}
cargo build --release -q -p tilekit
bin=$(realpath target/release/tilekit)
run="rm -rf $scratch && mkdir -p $scratch \
 && $bin import jcz $jcz --out $scratch/imported > /dev/null 2>&1 \
 && $bin validate $scratch/imported > /dev/null 2>&1 \
 && $bin render $scratch/imported --size 256 --out $scratch/previews > /dev/null 2>&1"
hyperfine --warmup 2 --runs 10 --shell bash "$run"
echo "$(ls "$scratch/previews" | wc -l) previews"
rm -rf "$scratch"
