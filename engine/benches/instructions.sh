#!/bin/sh
# Instructions per placed tile of random playouts, counted by valgrind (robust to the load of a
# shared machine, where wall-clock is not), for a `tilekit` binary built with `--release`:
#
#   engine/benches/instructions.sh [target/release/tilekit]     (run from the repository root)
#   ONLY='P&D' engine/benches/instructions.sh BINARY            (only the figures named so)
#
# Each figure is the instructions of `engine::simulate::play_random` (valgrind's
# `--toggle-collect`: each game's start from its setup — the shuffle, the start tile — and its
# playout) in `tilekit bench … --games 1200` minus the same with `--games 200`, divided by the
# tiles placed in the 1,000 games between. Counting only the playouts keeps `bench`'s
# placement-listing part out: in builds before its own generator, that part played different
# games in the two runs, and on a large board its difference outweighed the playouts' (the
# 576-tile and whole all-sets figures of those builds were off by hundreds). Not counted: the
# bench loop dropping each game and its events. The figures:
#   base C1 72   the first edition's base game: no garden, so no abbot (`--edition C1`)
#   base 72      the base game (`--sets base`): the newest edition, its gardens and the abbot
#   base 576     the base game with every count × 8 (a folder written here from
#                definitions/base.toml), the games of 576 tiles; 150 − 25 games
#   all 72       all seven bundled sets, every rule on, cut to 72 tiles
#   all whole    the same, the whole draw (169 tiles): the game those sets make; 500 − 100 games
#   base+P&D 72  the first edition's base game with Princess & Dragon (the dragon, the fairy,
#                the princess, the portal), cut to 72 tiles
#   base+A&M 72  the same with Abbey & Mayor (the mayor, the barn, the wagon)
#   every set 72 every bundled set, every rule on, cut to 72 tiles
set -eu
BIN=${1:-target/release/tilekit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/x8"
# `count = 4` and `count = { C1 = 5, C2 = 4 }` lines, × 8.
perl -pe 'if (/^count = /) { s/= (\d+)/"= " . $1 * 8/ge }' definitions/base.toml > "$TMP/x8/base.toml"

count() { # games args… → instructions of the playouts
    games=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$TMP/out" \
        --toggle-collect='engine::simulate::play_random' "$BIN" bench "$@" --games "$games" \
        >"$TMP/stdout" 2>"$TMP/stderr"
    sed -n 's/.*refs: *//p' "$TMP/stderr" | tr -d ,
}
tiles() { sed -n 's/.*, \([0-9.]*\) tiles\/game.*/\1/p' "$TMP/stdout"; }

figure() { # name many few args…
    name=$1 many=$2 few=$3
    shift 3
    # ONLY=P&D measures only the figures whose name holds it.
    case "$name" in *"${ONLY:-}"*) ;; *) return 0 ;; esac
    a=$(count "$few" "$@")
    b=$(count "$many" "$@")
    t=$(tiles)
    echo "$name: $(echo "($b - $a) / (($many - $few) * $t)" | bc -l | xargs printf '%.0f') instructions per placed tile ($t tiles/game)"
}

figure "base C1 72" 1200 200 --sets base --edition C1
figure "base 72" 1200 200 --sets base
figure "base 576" 150 25 "$TMP/x8" --sets base
figure "all 72" 1200 200 --sets base,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2 --tiles 72 --wells
figure "all whole" 500 100 --sets base,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2 --wells
figure "base+P&D 72" 1200 200 --sets base,princess-and-dragon --edition C1 --tiles 72
figure "base+A&M 72" 1200 200 --sets base,abbey-and-mayor --edition C1 --tiles 72
figure "every set 72" 1200 200 --sets base,festival,village-life,inns-and-cathedrals,traders-and-builders,river,river-2,abbey-and-mayor,princess-and-dragon --tiles 72 --wells
