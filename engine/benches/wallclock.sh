#!/bin/sh
# Nanoseconds per placed tile of `tilekit bench`, for release builds run side by side: each
# round runs every binary once, in turn, so the load of a shared machine falls on all of them
# alike; prints the min, lower quartile and median over the rounds.
#
#   engine/benches/wallclock.sh base|all72|whole ROUNDS BINARY...   (from the repository root)
#
#   base    the base game, 40,000 games a run
#   all72   all seven bundled sets, every rule on, cut to 72 tiles, 16,000 games a run
#   whole   the same, the whole draw (169 tiles), 7,000 games a run
set -eu
game=$1 rounds=$2
shift 2
ALL="--sets base,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2 --wells"
case $game in
base) args="--sets base --games 40000" ;;
all72) args="$ALL --tiles 72 --games 16000" ;;
whole) args="$ALL --games 7000" ;;
*) echo "unknown game $game (base, all72, whole)" >&2 && exit 2 ;;
esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
i=0
while [ "$i" -lt "$rounds" ]; do
    n=0
    for bin in "$@"; do
        # shellcheck disable=SC2086
        "$bin" bench $args | sed -n 's/^\([0-9]*\) ns per placed tile.*/\1/p' >>"$TMP/$n"
        n=$((n + 1))
    done
    i=$((i + 1))
done
n=0
for bin in "$@"; do
    sort -n "$TMP/$n" | awk -v bin="$bin" '{ v[NR] = $1 }
        END { printf "%s: min %d, lower quartile %d, median %d ns per placed tile\n",
              bin, v[1], v[int(NR / 4) + 1], v[int(NR / 2) + 1] }'
    n=$((n + 1))
done
