"""Trains the valuation network of `carcassonne_ai::net` on self-play rows.

Reads the NumPy files that the `selfplay` example writes (per position and
seat: the network's inputs, the points the seat went on to score, the
game's index), fits a small multilayer perceptron to the points still to
score with PyTorch on the CPU, and writes the weights as Rust source
(`crates/ai/src/net_weights.rs`), the inputs' scaling folded into the first
layer, with a few rows and the model's outputs on them for the Rust test
to check against. Whole games are held out to measure the fit.

    python crates/ai/training/train_net.py round0.npy round1.npy \
        --out crates/ai/src/net_weights.rs

PyTorch serves the training only: the bots evaluate the network in Rust.
"""

import argparse
import sys
import time

import numpy as np
import torch
from torch import nn

INPUTS = 27


def load(paths):
    """The rows of every file, their games numbered apart."""
    parts, offset = [], 0.0
    for path in paths:
        rows = np.load(path).astype(np.float32)
        if rows.shape[1] != INPUTS + 2:
            sys.exit(f"{path}: {rows.shape[1]} columns, expected {INPUTS + 2}")
        rows[:, -1] += offset
        offset = rows[:, -1].max() + 1
        parts.append(rows)
    return np.concatenate(parts)


def model(hidden, inputs=INPUTS):
    """Two hidden layers of rectified units, one output (`Mlp` in crates/ai/src/net.rs)."""
    return nn.Sequential(
        nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1)
    )


def rust_f32(v):
    """The shortest literal that reads back as the same `f32`."""
    return np.format_float_scientific(np.float32(v), unique=True, exp_digits=1, trim="0")


def rust_array(values):
    return "[" + ", ".join(rust_f32(v) for v in values) + "]"


def weights_source(net, mean, std, check_x, check_y, command, fit, what="valuation network", module="net"):
    """The Rust file: weights with the scaling folded in, and the check rows.

    `what` names the model and `module` its Rust module (`crate::net`,
    `crate::prior`), whose `INPUTS` sizes the first layer."""
    w1 = net[0].weight.detach().double().numpy() / std
    b1 = net[0].bias.detach().double().numpy() - w1 @ mean
    w2 = net[2].weight.detach().double().numpy()
    b2 = net[2].bias.detach().double().numpy()
    w3 = net[4].weight.detach().double().numpy()[0]
    b3 = float(net[4].bias.detach().double().numpy()[0])
    hidden = len(b1)
    lines = [
        f"//! The {what}'s weights (`crate::{module}`), written by",
        f"//! `{command.split()[1]}`; do not edit. Made by",
        "//!",
        f"//! `{command}`",
        "//!",
        f"//! {fit}",
        "",
        f"use crate::{module}::INPUTS;",
        "",
        f"pub(crate) const HIDDEN: usize = {hidden};",
        "",
        "#[rustfmt::skip]",
        "pub(crate) const W1: [[f32; INPUTS]; HIDDEN] = [",
        *[f"    {rust_array(row)}," for row in w1],
        "];",
        "#[rustfmt::skip]",
        f"pub(crate) const B1: [f32; HIDDEN] = {rust_array(b1)};",
        "#[rustfmt::skip]",
        "pub(crate) const W2: [[f32; HIDDEN]; HIDDEN] = [",
        *[f"    {rust_array(row)}," for row in w2],
        "];",
        "#[rustfmt::skip]",
        f"pub(crate) const B2: [f32; HIDDEN] = {rust_array(b2)};",
        "#[rustfmt::skip]",
        f"pub(crate) const W3: [f32; HIDDEN] = {rust_array(w3)};",
        f"pub(crate) const B3: f32 = {rust_f32(b3)};",
        "",
        "/// Held-out rows' inputs and what the trained model gave for them.",
        "#[cfg(test)]",
        "#[rustfmt::skip]",
        f"pub(crate) const CHECK: [([f32; INPUTS], f32); {len(check_y)}] = [",
        *[f"    ({rust_array(x)}, {rust_f32(y)})," for x, y in zip(check_x, check_y)],
        "];",
    ]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="NumPy files written by the selfplay example")
    ap.add_argument("--out", default="crates/ai/src/net_weights.rs")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.time()

    rows = load(args.data)
    x, y, game = rows[:, :INPUTS], rows[:, INPUTS], rows[:, INPUTS + 1].astype(np.int64)
    held = (game * 2654435761 % 2**32) % 10 == 0  # a tenth of the games, whole
    xt, yt, xv, yv = x[~held], y[~held], x[held], y[held]
    mean = xt.mean(axis=0).astype(np.float64)
    std = np.maximum(xt.std(axis=0), 1e-3).astype(np.float64)
    scale = lambda a: torch.tensor((a - mean) / std, dtype=torch.float32)
    xt_s, xv_s = scale(xt), scale(xv)
    yt_t, yv_t = torch.tensor(yt)[:, None], torch.tensor(yv)[:, None]

    # A linear fit on the same inputs, for comparison.
    design = np.hstack([xt, np.ones((len(xt), 1), np.float32)]).astype(np.float64)
    coef, *_ = np.linalg.lstsq(design, yt.astype(np.float64), rcond=None)
    linear_mse = float(np.mean((np.hstack([xv, np.ones((len(xv), 1))]) @ coef - yv) ** 2))

    net = model(args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    steps = args.epochs * ((len(xt_s) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1))
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(xt_s))
        net.train()
        for i in range(0, len(perm), args.batch):
            idx = perm[i : i + args.batch]
            opt.zero_grad()
            loss = loss_fn(net(xt_s[idx]), yt_t[idx])
            loss.backward()
            opt.step()
            sched.step()
        with torch.no_grad():
            val = loss_fn(net(xv_s), yv_t).item()
        print(f"epoch {epoch + 1}/{args.epochs}: held-out mean squared error {val:.2f}", file=sys.stderr)

    with torch.no_grad():
        val = loss_fn(net(xv_s), yv_t).item()
        base = float(np.mean((yv - yt.mean()) ** 2))
        check_x = xv[:: max(1, len(xv) // 6)][:6]
        check_y = net(scale(check_x))[:, 0].numpy()
    games = len(np.unique(game))
    fit = (
        f"{len(rows)} rows of {games} games, {held.sum()} rows held out (whole games): mean squared error "
        f"{val:.1f} points² (a linear fit on the same inputs {linear_mse:.1f}, the mean alone {base:.1f})."
    )
    print(f"{fit} {time.time() - started:.0f} s.", file=sys.stderr)
    command = " ".join(["python crates/ai/training/train_net.py", *sys.argv[1:]])
    with open(args.out, "w") as f:
        f.write(weights_source(net, mean, std, check_x, check_y, command, fit))


if __name__ == "__main__":
    main()
