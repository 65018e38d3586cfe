#!/bin/sh
# Seeds each fuzz target's corpus from the repository's own inputs (run from anywhere):
#   definitions  the bundled definitions, the examples, the bad-file corpus, render fixtures
#   record       the scenario records and the examples' records
#   jcz_import   the JCZ importer's fixtures, and JCloisterZone's reference files when
#                ../shared/reference/jcz (beside the repository) or $TILEKIT_JCZ_REFERENCE has them
#   lsp          language server sessions: the handshake, a bundled file opened and changed,
#                completion and hover in it, shutdown and exit
#   completion   a cursor and a bundled file or example, for completion and hover there
#   http         the requests the live page sends, and a few broken ones
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

# One framed LSP message: its JSON after its Content-Length header.
frame() {
    printf 'Content-Length: %s\r\n\r\n%s' "$(printf '%s' "$1" | wc -c)" "$1"
}
# A JSON string of a file's text.
json_text() {
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' "$1" | awk '{printf "%s\\n", $0}'
}
session() { # name file
    uri="file:///fuzz/$(basename "$2")"
    {
        frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
        frame '{"jsonrpc":"2.0","method":"initialized","params":{}}'
        frame "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"$uri\",\"languageId\":\"toml\",\"version\":1,\"text\":\"$(json_text "$2")\"}}}"
        frame "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/completion\",\"params\":{\"textDocument\":{\"uri\":\"$uri\"},\"position\":{\"line\":12,\"character\":4}}}"
        frame "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"$uri\"},\"position\":{\"line\":3,\"character\":2}}}"
        frame "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"$uri\",\"version\":2},\"contentChanges\":[{\"text\":\"format = 1\\n[set]\\nid = \\\"x\\\"\\n\"}]}}"
        frame '{"jsonrpc":"2.0","id":4,"method":"shutdown"}'
        frame '{"jsonrpc":"2.0","method":"exit"}'
    } >"$FUZZ/corpus/lsp/$1"
}
mkdir -p "$FUZZ/corpus/lsp"
session river "$ROOT/definitions/river.toml"
session lakes "$ROOT/examples/lakes.toml"
session mayor "$ROOT/examples/mayor.toml"
echo "lsp: $(ls "$FUZZ/corpus/lsp" | wc -l) inputs"

# A cursor (line, column: one byte each) and a document.
mkdir -p "$FUZZ/corpus/completion"
for f in "$ROOT"/definitions/*.toml "$ROOT"/examples/*.toml; do
    { printf '\014\004'; cat "$f"; } >"$FUZZ/corpus/completion/$(basename "$f")"
done
echo "completion: $(ls "$FUZZ/corpus/completion" | wc -l) inputs"

mkdir -p "$FUZZ/corpus/http"
request() { # name text (\n becomes CRLF)
    printf '%s' "$2" | sed 's/$/\r/' >"$FUZZ/corpus/http/$1"
}
request get-page 'GET / HTTP/1.1
Host: localhost

'
request get-state 'GET /api/state?x=1 HTTP/1.1
Host: localhost
Accept: application/json

'
request head-tile 'HEAD /tile/BA-RCr.png?v=3 HTTP/1.0

'
request post-game 'POST /api/game HTTP/1.1
Host: localhost
Content-Type: application/json
Content-Length: 39

{"seats":["human","greedy"],"seed":7}
'
request post-move 'POST /api/game/1/move HTTP/1.1
Content-Length: 9

{"i": 3}
'
request chunked 'POST /api/game HTTP/1.1
Transfer-Encoding: chunked

4
abcd
0

'
echo "http: $(ls "$FUZZ/corpus/http" | wc -l) inputs"
