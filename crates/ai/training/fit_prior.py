"""Fits a prior over the root's moves to a long search's visits, and says
how well it foresees the search against the rankings the search has.

Reads the NumPy files that the `policy_rows` example writes (a row per
legal move of each searched position: the move's visits, whether the
search picked it, its mean reward there, the network's and the hand-set
valuation's margin after it, the network's inputs after it for both
seats), holds a fifth of the games out whole, and fits a small multilayer
perceptron whose score of a move, softmaxed over the position's moves,
matches the search's share of visits (cross-entropy, as AlphaZero's policy
head); with `--target value`, whose score matches the move's mean reward
less the position's (squared error, weighted by the visits' shares). Then,
on the held-out positions, for each ranking — the network's margin, the
hand-set valuation's, the fitted prior — how often it ranks the search's
pick first, in its top 3 and top 10, the pick's median rank, the share of
the visits on its first 5 and 10 moves (ties in the engine's order, as the
search breaks them), and how its scores go with the moves' mean rewards
(`r value`: their correlation, each about its position's mean, weighted by
the visits' shares).

    python crates/ai/training/fit_prior.py policy.npy \
        --out crates/ai/src/prior_weights.rs

With `--out` it writes the fitted prior as Rust source, the inputs'
scaling folded into the first layer, with a few held-out rows and the
model's scores on them for the Rust test to check against: the search
takes it with `policy=1` (`carcassonne_ai::prior`; docs/ai.md, "A prior
learned from a long search"). The shipped prior is the one fitted to four
fifths of the games, whose figures on the fifth held out the file says.
"""

import argparse
import sys
import time

import numpy as np
import torch

from train_net import INPUTS, model, weights_source

# A row: position, game, visits, picked, mean reward (-1 unvisited), then the
# prior's inputs (`carcassonne_ai::prior::INPUTS`: two margins and both seats'
# network inputs).
PRIOR_INPUTS = 2 + 2 * INPUTS
COLUMNS = 5 + PRIOR_INPUTS


def load(paths):
    """The rows of every file, their games and positions numbered apart."""
    parts, offset = [], 0.0
    for path in paths:
        rows = np.load(path).astype(np.float32)
        if rows.ndim != 2 or rows.shape[1] != COLUMNS:
            sys.exit(f"{path}: shape {rows.shape}, expected rows of {COLUMNS} columns")
        rows[:, 1] += offset
        rows[:, 0] += offset * 1000
        offset = rows[:, 1].max() + 1 if len(rows) else offset
        parts.append(rows)
    return np.concatenate(parts)


def foresight(score, visits, picked, spans):
    """Per ranking: pick first, top 3, top 10, median rank (1 = first), visits on the top 5 and 10."""
    ranks, top5, top10 = [], [], []
    for s, e in spans:
        order = np.argsort(-score[s:e], kind="stable")
        ranks.append(int(np.flatnonzero(picked[s:e][order] > 0)[0]))
        v = visits[s:e][order]
        top5.append(v[:5].sum() / v.sum())
        top10.append(v[:10].sum() / v.sum())
    r = np.array(ranks)
    return (r == 0).mean(), (r < 3).mean(), (r < 10).mean(), int(np.median(r)) + 1, np.mean(top5), np.mean(top10)


def centred(f, r, w):
    """Per position (rows), `f` less its `w`-weighted mean, less `r` less its own."""
    return (f - (w * f).sum(dim=1, keepdim=True)) - (r - (w * r).sum(dim=1, keepdim=True))


def value_correlation(score, reward, visits, spans):
    """Visit-weighted correlation of a ranking's scores with the moves' mean rewards,
    each taken about its position's mean (visited moves only, positions weighed alike)."""
    sab = saa = sbb = 0.0
    for s, e in spans:
        w = visits[s:e] / visits[s:e].sum()
        # An unvisited move (reward -1) has no weight.
        a = score[s:e] - (w * score[s:e]).sum()
        b = reward[s:e] - (w * reward[s:e]).sum()
        sab, saa, sbb = sab + (w * a * b).sum(), saa + (w * a * a).sum(), sbb + (w * b * b).sum()
    return sab / np.sqrt(saa * sbb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="NumPy files written by the policy_rows example")
    ap.add_argument("--out", help="write the fitted prior's weights here (crates/ai/src/prior_weights.rs)")
    ap.add_argument(
        "--target",
        choices=["visits", "value"],
        default="visits",
        help="fit the search's share of visits (softmax, cross-entropy) or each move's mean reward "
        "relative to the position's (squared error weighted by visits)",
    )
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=64, help="positions a step")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.time()

    rows = load(args.data)
    position, game, visits, picked = rows[:, 0], rows[:, 1].astype(np.int64), rows[:, 2], rows[:, 3]
    reward = rows[:, 4]
    net_margin, hand_margin = rows[:, 5], rows[:, 6]
    # What the prior sees: both seats' inputs after the move and both margins.
    x = rows[:, 5:]
    starts = np.flatnonzero(np.r_[True, position[1:] != position[:-1]])
    ends = np.r_[starts[1:], len(rows)]
    held = (game[starts] * 2654435761 % 2**32) % 5 == 0  # a fifth of the games, whole
    if held.all() or not held.any():
        sys.exit("too few games to hold a fifth out")
    train_rows = np.concatenate([np.arange(s, e) for s, e, h in zip(starts, ends, held) if not h])
    mean = x[train_rows].mean(axis=0)
    std = np.maximum(x[train_rows].std(axis=0), 1e-3)
    features = torch.tensor((x - mean) / std, dtype=torch.float32)

    # Positions padded to the most moves, with a mask.
    width = int((ends - starts).max())
    index = np.zeros((len(starts), width), np.int64)
    mask = np.zeros((len(starts), width), bool)
    for i, (s, e) in enumerate(zip(starts, ends)):
        index[i, : e - s] = np.arange(s, e)
        mask[i, : e - s] = True
    index, mask = torch.tensor(index), torch.tensor(mask)
    v = torch.tensor(visits)[index] * mask
    target = v / v.sum(dim=1, keepdim=True)

    net = model(args.hidden, PRIOR_INPUTS)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    train = torch.tensor(np.flatnonzero(~held))
    test = torch.tensor(np.flatnonzero(held))

    r = torch.tensor(reward)[index] * mask

    def loss_of(positions):
        w, scores = target[positions], net(features[index[positions]]).squeeze(-1)
        if args.target == "value":
            return (w * centred(scores, r[positions], w) ** 2).sum(dim=1).mean()
        logits = scores.masked_fill(~mask[positions], -1e9)
        return -(w * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()

    for epoch in range(args.epochs):
        perm = train[torch.randperm(len(train))]
        for b in range(0, len(perm), args.batch):
            opt.zero_grad()
            loss = loss_of(perm[b : b + args.batch])
            loss.backward()
            opt.step()
        with torch.no_grad():
            what = "squared error" if args.target == "value" else "cross-entropy"
            print(f"epoch {epoch + 1}/{args.epochs}: held-out {what} {loss_of(test).item():.5f}", file=sys.stderr)

    with torch.no_grad():
        prior = net(features).squeeze(-1).numpy()
    spans = [(s, e) for s, e, h in zip(starts, ends, held) if h]
    moves = np.mean([e - s for s, e in spans])
    print(
        f"{len(starts)} positions of {len(np.unique(game))} games; {len(spans)} held out (whole games), "
        f"{moves:.1f} moves each on average; {time.time() - started:.0f} s"
    )
    print(f"{'ranking':<26} {'pick 1st':>8} {'top 3':>7} {'top 10':>7} {'median rank':>12} {'visits top 5':>13} {'top 10':>7} {'r value':>8}")
    table = {}
    for name, score in [
        ("the network's margin", net_margin),
        ("the hand-set valuation's", hand_margin),
        ("the fitted prior", prior),
    ]:
        table[name] = first, top3, top10, median, v5, v10 = foresight(score, visits, picked, spans)
        corr = value_correlation(score, reward, visits, spans)
        print(f"{name:<26} {first:>8.3f} {top3:>7.3f} {top10:>7.3f} {median:>12} {v5:>13.3f} {v10:>7.3f} {corr:>8.3f}")

    if args.out:
        held_rows = np.concatenate([np.arange(s, e) for s, e in spans])
        check_rows = held_rows[:: max(1, len(held_rows) // 6)][:6]
        check_x = x[check_rows]
        with torch.no_grad():
            check_y = net(features[check_rows]).squeeze(-1).numpy()
        p, m = table["the fitted prior"], table["the network's margin"]
        fit = (
            f"{len(starts)} positions of {len(np.unique(game))} games, {len(spans)} held out (whole games): the "
            f"search's pick ranked first {p[0]:.1%}, in the top 10 {p[2]:.1%} (by the network's margin "
            f"{m[0]:.1%}, {m[2]:.1%})."
        ).replace("%", " %")
        command = " ".join(["python crates/ai/training/fit_prior.py", *sys.argv[1:]])
        source = weights_source(
            net, mean.astype(np.float64), std.astype(np.float64), check_x, check_y, command, fit,
            what="learned prior", module="prior",
        )
        with open(args.out, "w") as f:
            f.write(source)
        print(f"weights written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
