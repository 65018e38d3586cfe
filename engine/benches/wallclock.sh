#!/bin/sh
# Nanoseconds per placed tile of `tilekit bench`, for release builds run side by side: each
# round runs every binary once, in turn, so the load of a shared machine falls on all of them
# alike; prints the min, lower quartile and median over the rounds.
#
#   engine/benches/wallclock.sh base|base169|all72|whole|ratio ROUNDS BINARY...   (from the repository root)
#
#   base     the base game, 40,000 games a run
#   base169  the base game at the whole draw's length: every count × 3, cut to 169 tiles (a
#            folder written here from definitions/base.toml), 17,000 games a run
#   all72    all seven bundled sets, every rule on, cut to 72 tiles, 16,000 games a run
#   whole    the same, the whole draw (169 tiles), 7,000 games a run
#   ratio    all four in each round (each binary in turn for each game), then per binary, at the
#            min, lower quartile and median, the rules-as-data target: each expansion game's
#            ratio to the base game, and the whole draw's to the base game of its length (a
#            longer game spreads its start and final scoring over more tiles)
set -eu
mode=$1 rounds=$2
shift 2
ALL="--sets base,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2 --wells"
args_of() {
    case $1 in
    base) echo "--sets base --games 40000" ;;
    base169) echo "$TMP/x3 --sets base --tiles 169 --games 17000" ;;
    all72) echo "$ALL --tiles 72 --games 16000" ;;
    whole) echo "$ALL --games 7000" ;;
    *) echo "unknown game $1 (base, base169, all72, whole, ratio)" >&2 && exit 2 ;;
    esac
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/x3"
# `count = 4` and `count = { C1 = 5, C2 = 4 }` lines, × 3.
perl -pe 'if (/^count = /) { s/= (\d+)/"= " . $1 * 3/ge }' definitions/base.toml >"$TMP/x3/base.toml"
case $mode in
ratio) games="base base169 whole all72" ;;
*) args_of "$mode" >/dev/null && games=$mode ;;
esac
i=0
while [ "$i" -lt "$rounds" ]; do
    for game in $games; do
        args=$(args_of "$game")
        n=0
        for bin in "$@"; do
            # shellcheck disable=SC2086
            "$bin" bench $args | sed -n 's/^\([0-9]*\) ns per placed tile.*/\1/p' >>"$TMP/$game.$n"
            n=$((n + 1))
        done
    done
    i=$((i + 1))
done
# min, lower quartile, median of a file of numbers
stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[1], v[int(NR / 4) + 1], v[int(NR / 2) + 1] }'; }
n=0
for bin in "$@"; do
    for game in $games; do
        stats "$TMP/$game.$n" >"$TMP/s.$game"
        read -r lo q1 med <"$TMP/s.$game"
        printf "%s %s: min %d, lower quartile %d, median %d ns per placed tile\n" \
            "$bin" "$game" "$lo" "$q1" "$med"
    done
    if [ "$mode" = ratio ]; then
        for pair in whole/base all72/base whole/base169; do
            read -r g0 g1 g2 <"$TMP/s.${pair%/*}"
            read -r b0 b1 b2 <"$TMP/s.${pair#*/}"
            awk -v p="$pair" -v a="$g0 $g1 $g2" -v b="$b0 $b1 $b2" 'BEGIN { split(a, x); split(b, y);
                printf "  %s: min %.3f, lower quartile %.3f, median %.3f\n", p,
                x[1] / y[1], x[2] / y[2], x[3] / y[3] }'
        done
    fi
    n=$((n + 1))
done
