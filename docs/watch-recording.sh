#!/usr/bin/env bash
# Produces the terminal recording of `cuelog watch` shown in the README: a recorder
# appends the bundled officiating example to live.jsonl in three steps while the watch
# follows it. Run from the repository root with cuelog installed: bash docs/watch-recording.sh
set -euo pipefail
src="$(pwd)/examples/snooker-officiating.jsonl"
dir="$(mktemp -d)"
cd "$dir"
: > live.jsonl
run() { echo "\$ $1"; eval "$1"; sleep 1; }
run "cuelog watch live.jsonl --until-end --settle 2 &"
run "head -n 3 $src >> live.jsonl                 # match, frame, stroke 1"
run "sed -n 4p $src >> live.jsonl                 # stroke 2: B hits the pink first, no foul called"
run "sed -n 5,20p $src >> live.jsonl              # the rest of the frame"
wait
rm -rf "$dir"
