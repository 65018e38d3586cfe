#!/bin/sh
# Seeds each fuzz target's corpus from the repository's own inputs (run from anywhere):
#   definitions  the bundled definitions, the examples, the bad-file corpus, render fixtures
#   record       the scenario records and the examples' records
#   jcz_import   the JCZ importer's fixtures, and JCloisterZone's reference files when
#                ../shared/reference/jcz (beside the repository) or $TILEKIT_JCZ_REFERENCE has them
# The corpora are not committed (tools/fuzz/corpus/ is ignored): a crash found becomes a
# regression case in the bad-file corpus or the tests.
set -eu
FUZZ=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$FUZZ/../.." && pwd)
seed() { # target files…
    target=$1
    shift
    mkdir -p "$FUZZ/corpus/$target"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$FUZZ/corpus/$target/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
    echo "$target: $(ls "$FUZZ/corpus/$target" | wc -l) inputs"
}
seed definitions "$ROOT"/definitions/*.toml "$ROOT"/examples/*.toml "$ROOT"/tests/fixtures/bad/*.toml \
    "$ROOT"/tools/render/tests/fixtures/*.toml "$ROOT"/tiledef/tests/fixtures/*.toml
seed record "$ROOT"/engine/tests/scenarios/*.toml "$ROOT"/examples/records/*.toml
REFERENCE=${TILEKIT_JCZ_REFERENCE:-$ROOT/../shared/reference/jcz}
seed jcz_import "$ROOT"/tools/jcz/tests/fixtures/*.xml "$REFERENCE"/*.xml
