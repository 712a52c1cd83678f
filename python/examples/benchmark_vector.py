"""Steps a second of the batched environment (carcassonne.vector), standard
rules, 2 players, the learner against the random bot, random legal
actions, the observations written every step:

- on one thread and on every core, the observation without the flat mask
  (the legal actions listed in `info["legal_actions"]`);
- on every core with the flat 69,192-entry int8 mask in the observation;
- the same, with the batch's masks also copied out each step (what a
  learner that stores them pays), beside the bound that memory bandwidth
  sets on a full mask per step (measured here with a numpy copy of 256 MB,
  and again at the size of the batch's masks, which may fit in the cache);
- for reference, in the same run, the engine alone: random playouts in
  Rust (`Game.playout`), in moves a second on one thread.

A step is one learner move and the bot's answer (two moves of the game);
with `--opponents self` (self-play: the learner at every seat) a step is
one move.

    python python/examples/benchmark_vector.py [--envs 128] [--seconds 3] [--repeat 3] [--opponents random] [--json]

Prints one line per measurement: the best of --repeat runs in steps a
second, and in steps per second of CPU time the process used (all its
threads; on a shared machine the steadier figure), then every run; with
--json, a JSON object.
"""

import argparse
import json
import os
import time

import numpy as np

import carcassonne
from carcassonne.vector import CarcassonneVectorEnv

MASK_BYTES = 69_192


def steps_per_second(envs, seconds, copy_mask=False):
    """Learner steps a second over about `seconds` (after a warm-up), and
    steps per second of CPU time this process used (every thread's): on a
    machine shared with other work the second is the steadier figure."""
    obs, info = envs.reset(seed=1)
    rng = np.random.default_rng(1)
    n = envs.num_envs
    store = np.empty_like(obs["action_mask"]) if copy_mask else None
    for _ in range(20):
        obs, _, _, _, info = envs.step((rng.random(n) * info["legal_count"]).astype(np.int64))
    calls, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        picks = (rng.random(n) * info["legal_count"]).astype(np.int64)
        obs, _, _, _, info = envs.step(picks)
        if store is not None:
            np.copyto(store, obs["action_mask"])
        calls += 1
    return calls * n / (time.perf_counter() - start), calls * n / (time.process_time() - cpu)


def playout_moves_per_second(seconds):
    """Moves a second of random playouts in Rust, one thread, and per CPU-second."""
    moves, seed = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        game = carcassonne.Game(seed=seed)
        game.playout(seed)
        moves += len(game.history)
        seed += 1
    return moves / (time.perf_counter() - start), moves / (time.process_time() - cpu)


def copy_bandwidth(nbytes, repeat=5):
    """Bytes a second through a numpy copy of `nbytes` (each byte read once
    and written once: counted twice). 256 MB goes through memory; a copy
    small enough for the last-level cache runs from the cache."""
    a = np.ones(nbytes, dtype=np.uint8)
    b = np.empty_like(a)
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        np.copyto(b, a)
        best = max(best, 2 * a.nbytes / (time.perf_counter() - start))
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=128, help="games in the batch")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (the best is reported)")
    ap.add_argument("--opponents", default="random", help="the bot spec of the other seat, or 'self' for self-play")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cores = os.cpu_count() or 1

    def measure(name, threads, mask, copy_mask=False):
        envs = CarcassonneVectorEnv(
            num_envs=args.envs, opponents=args.opponents, actions="legal", action_mask=mask, threads=threads
        )
        runs = [steps_per_second(envs, args.seconds, copy_mask) for _ in range(args.repeat)]
        wall, cpu = max(r[0] for r in runs), max(r[1] for r in runs)
        runs_text = ", ".join(f"{r[0]:,.0f}" for r in runs)
        print(f"{name:<48} {wall:>10,.0f} steps/s  {cpu:>10,.0f} per CPU-second  (runs: {runs_text})", flush=True)
        return {"steps_per_s": wall, "steps_per_cpu_s": cpu, "runs": [r[0] for r in runs]}

    figures = {"envs": args.envs, "cores": cores}
    wall, cpu = max(playout_moves_per_second(args.seconds) for _ in range(args.repeat))
    figures["engine_moves_per_s"] = {"moves_per_s": wall, "moves_per_cpu_s": cpu}
    print(f"{'the engine alone: random playouts (moves)':<48} {wall:>10,.0f} moves/s  {cpu:>10,.0f} per CPU-second")
    figures["one_thread"] = measure("1 thread, no flat mask", 1, False)
    figures["every_core"] = measure(f"{cores} threads, no flat mask", cores, False)
    figures["every_core_mask"] = measure(f"{cores} threads, flat mask in the observation", cores, True)
    figures["every_core_mask_copied"] = measure(f"{cores} threads, flat mask, copied out each step", cores, True, True)
    bandwidth = copy_bandwidth(256 << 20)
    batch_bytes = args.envs * MASK_BYTES
    cached = copy_bandwidth(batch_bytes, repeat=20)
    figures["copy_bandwidth_bytes_per_s"] = bandwidth
    figures["batch_copy_bandwidth_bytes_per_s"] = cached
    figures["full_mask_bound"] = bandwidth / MASK_BYTES
    print(f"memory bandwidth (numpy copy of 256 MB, read + write): {bandwidth / 1e9:.1f} GB/s")
    print(
        f"a full {MASK_BYTES:,}-byte mask per step, written once: at most {bandwidth / MASK_BYTES:,.0f} steps/s; "
        f"written and copied out (3 passes): {bandwidth / (3 * MASK_BYTES):,.0f} steps/s"
    )
    print(
        f"the same copy at the batch's mask size ({batch_bytes / 1e6:.1f} MB): {cached / 1e9:.1f} GB/s; "
        f"copied out alone (2 passes, the mask written only where it changed): "
        f"at most {cached / (2 * MASK_BYTES):,.0f} steps/s"
    )
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
