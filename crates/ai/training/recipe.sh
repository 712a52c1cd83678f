#!/usr/bin/env bash
# The valuation network's recipe, end to end (docs/ai.md, "A network
# trained by self-play"): expert iteration in three rounds. Round 0: games
# of the search at 300 iterations (`easy` before the network) against
# itself, and a network trained on them; rounds 1 and 2: games of the same
# search with the last round's network, and the network trained again on
# every round's rows. Then the evaluation: 400 paired games against the
# search without the network at the same budget.
#
#   bash crates/ai/training/recipe.sh [WORKDIR]
#
# Needs Python 3.9+ with PyTorch and NumPy (`pip install torch numpy`; the
# CPU is enough). Writes crates/ai/src/net_weights.rs; the rows, each
# round's network and the evaluation stay in WORKDIR (target/net). About
# 45 minutes on two cores (docs/ai.md); GAMES (4000) sets the games a round.
set -euo pipefail
cd "$(dirname "$0")/../../.."
work=${1:-target/net}
games=${GAMES:-4000}
python=${PYTHON:-python3}
weights=crates/ai/src/net_weights.rs
mkdir -p "$work"

rows=()
for round in 0 1 2; do
    bots=mcts:300it
    [ "$round" = 0 ] || bots="mcts:300it:net=1"
    echo "== round $round: $games games of $bots against itself" >&2
    cargo run --release -q -p carcassonne-ai --example selfplay -- \
        --bots "$bots" --games "$games" --seed $((round + 1)) --threads 2 --out "$work/round$round.npy"
    rows+=("$work/round$round.npy")
    echo "== round $round: training on ${rows[*]}" >&2
    "$python" crates/ai/training/train_net.py "${rows[@]}" --out "$weights"
    cp "$weights" "$work/net_weights_round$round.rs"
done

echo "== evaluation: 400 paired games against the search without the network, at the same budget" >&2
cargo run --release -q -p carcassonne-ai --example arena -- \
    --bots "mcts:300it:net=1,mcts:300it" --games 400 --seed 48 --threads 2 | tee "$work/eval.txt"
