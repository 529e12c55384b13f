#!/usr/bin/env bash
# Produces the terminal recording of `cuelog watch` shown in the README: a recorder
# appends the bundled officiating example to live.jsonl in three steps while the watch
# follows it. Run from the repository root with cuelog on the PATH:
#   COLUMNS=200 bash docs/watch-recording.sh
set -euo pipefail
dir="$(mktemp -d)"
cp examples/snooker-officiating.jsonl "$dir/recorder.jsonl"
cd "$dir"
: > live.jsonl
run() { echo "\$ $1"; eval "$1"; sleep "${2:-1}"; }
run "cuelog watch live.jsonl --until-end --settle 2 &" 6   # its start-up is not the point
run "head -n 3 recorder.jsonl >> live.jsonl      # match, frame, stroke 1"
run "sed -n 4p recorder.jsonl >> live.jsonl      # stroke 2: B hits the pink first, no foul called"
run "sed -n 5p recorder.jsonl >> live.jsonl      # stroke 3 is played"
run "sed -n 6,20p recorder.jsonl >> live.jsonl   # the rest of the frame"
wait
rm -rf "$dir"
