#!/bin/sh
# The SPSA run of record for issue 67, run in slices across working sessions
# (each lasts a few hours and starts from a fresh clone, where data/runs/ is
# gone): the run's state (spsa.csv, spsa.json) is kept in git beside this
# script, in othello8-run/, and every slice resumes it on the same
# trajectory with binaries built from the same commit.
#
#   data/spsa/othello8-run.sh start       # build the pinned tuner if needed, restore, run detached
#   data/spsa/othello8-run.sh checkpoint  # copy the state into data/spsa/othello8-run/ (then commit it)
#   data/spsa/othello8-run.sh status      # iterations done, the last row
#
# Logs: data/runs/spsa-othello8.log (one line an iteration) and .out.
set -eu
cd "$(git rev-parse --show-toplevel)"

# The commit whose release build plays every game of the run: the engine
# must not change under a running SPSA.
PINNED=dccdd13
BIN=data/runs/bin
OUT=data/runs/spsa-othello8
KEPT=data/spsa/othello8-run

build() {
    if [ -x "$BIN/tuner" ] && [ "$(cat "$BIN/COMMIT" 2>/dev/null)" = "$PINNED" ]; then
        return
    fi
    tree=$(mktemp -d)
    git worktree add --detach "$tree" "$PINNED" >/dev/null
    (cd "$tree" && cargo build --release -p workbench --bin tuner --bin selfplay --target-dir "$tree/target")
    mkdir -p "$BIN"
    cp "$tree/target/release/tuner" "$tree/target/release/selfplay" "$BIN/"
    echo "$PINNED" >"$BIN/COMMIT"
    git worktree remove --force "$tree"
}

case "${1:-}" in
start)
    if pgrep -f "tuner spsa .*--out $OUT" >/dev/null; then
        echo "othello8-run: already running" >&2
        exit 1
    fi
    build
    if [ ! -e "$OUT/spsa.csv" ] && [ -e "$KEPT/spsa.csv" ]; then
        mkdir -p "$OUT"
        cp "$KEPT/spsa.csv" "$KEPT/spsa.json" "$OUT/"
    fi
    # The proof match resumes from its finished games (its positions.csv,
    # too large for git, then holds only the games played after the resume).
    if [ ! -e "$OUT/verify/games.csv" ] && [ -e "$KEPT/verify-games.csv" ]; then
        mkdir -p "$OUT/verify"
        cp "$KEPT/verify-games.csv" "$OUT/verify/games.csv"
        cp "$KEPT/verify-run.json" "$OUT/verify/run.json"
    fi
    setsid nohup nice -n 5 "$BIN/tuner" spsa --variant othello8 \
        --params data/spsa/othello8-time-selectivity.txt \
        --tc 10 --iterations 280 --pairs-per-iteration 4 --threads 2 \
        --openings data/openings/othello8.txt --verify-games 400 --verify-tc 30 --sprt 0,10 \
        --report --out "$OUT" </dev/null >>"$OUT.out" 2>>"$OUT.log" &
    echo "othello8-run: started (log $OUT.log)"
    ;;
checkpoint)
    mkdir -p "$KEPT"
    cp "$OUT/spsa.csv" "$OUT/spsa.json" "$KEPT/"
    [ -e "$OUT/tuned.txt" ] && cp "$OUT/tuned.txt" "$KEPT/"
    if [ -e "$OUT/verify/games.csv" ]; then
        cp "$OUT/verify/games.csv" "$KEPT/verify-games.csv"
        cp "$OUT/verify/run.json" "$KEPT/verify-run.json"
    fi
    echo "othello8-run: $(($(wc -l <"$KEPT/spsa.csv") - 1)) iterations kept in $KEPT"
    ;;
status)
    echo "$(($(wc -l <"$OUT/spsa.csv") - 1)) of 280 iterations"
    tail -n 1 "$OUT/spsa.csv"
    ;;
*)
    echo "usage: data/spsa/othello8-run.sh start|checkpoint|status" >&2
    exit 2
    ;;
esac
