"""PPO on the batched environment, CleanRL-style in one file, with a small
spatial policy: learns to beat the random bot from the raw observations.

The flat action of the environment is a tile slot, a cell of the window, a
rotation and a decision (python/README.md, "Actions"):
`((slot · W² + y · W + x) · 4 + rot) · 18 + decision`. So the policy's
logits can come from the board itself: three 3×3 convolutions over the board
planes (the tile in hand, the scores and supplies added to every cell), then
a 1×1 convolution that gives each cell 4 rotations × 18 decisions per slot:
`(slots·72, W, W)` logits, laid out in the action's order. About 40,000
parameters, whatever the window's size. Only the legal actions'
logits are read (`info["legal_actions"]`), so the distribution is exact
and no 69,192-wide mask is built.

    pip install torch "carcassonne[env]"   # any CPU build of PyTorch
    python python/examples/ppo_vector.py --minutes 25 --eval 200

It trains against `random` for `--minutes` (or `--steps` learner moves),
then plays `--eval` new deals against `random` with the policy's most
likely action and prints the win rate, before and after training
(python/README.md, "Deep RL", has a measured run). The reward is +1 for a
win and -1 for a loss at the end, plus the change of the score margin over
the opponent divided by 40 at every step (shaping: a point scored counts at
once).
"""

import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from carcassonne import DECISIONS, TILE_KINDS, EnvCore, tiles
from carcassonne.env import PLANE_HIGH
from carcassonne.vector import CarcassonneVectorEnv

ROTATIONS = 4
# What a decision puts on the tile: nothing, a knight, a thief, a farmer, a
# monk, anything else (the abbot, a recall).
ROLES = ("pass", "knight", "thief", "farmer", "monk", "other")


def role_table():
    """ROLES index of each (tile kind, rotation, decision), from the tiles'
    edges: decisions 1-4 are the N, E, S, W spots (a city or a road edge of
    the turned tile), 5-12 the field corners, 13 the cloister."""
    table = np.full((TILE_KINDS, ROTATIONS, DECISIONS), ROLES.index("other"), dtype=np.int64)
    table[:, :, 0] = ROLES.index("pass")
    table[:, :, 5:13] = ROLES.index("farmer")
    table[:, :, 13] = ROLES.index("monk")
    for t in tiles()[:TILE_KINDS]:  # the environments' kinds: the expansions' follow
        for rot in range(ROTATIONS):
            for d in range(4):  # the edge facing direction d came from edge d - rot
                edge = t.edges[(d - rot) % 4]
                table[t.index, rot, 1 + d] = ROLES.index({"city": "knight", "road": "thief"}.get(edge, "other"))
    return table


class SpatialPolicy(nn.Module):
    """Logits for every flat action, and a value, from a dict observation batch.

    A cell's logits are a 1×1 convolution of its features, plus a second
    one's value of the role each (rotation, decision) gives the follower
    with the tile in hand (`role_table`): that a knight or a monk is worth
    more than a farmer is then learned once for all tiles."""

    def __init__(self, plane_names, width, players, slots, hidden=32):
        super().__init__()
        self.width, self.slots = width, slots
        scale = [1.0 / PLANE_HIGH.get(name, 1) for name in plane_names]
        self.register_buffer("scale", torch.tensor(scale).view(1, -1, 1, 1))
        glob = players * slots * TILE_KINDS + players + TILE_KINDS + 5 * players
        self.glob = nn.Linear(glob, hidden)
        self.conv1 = nn.Conv2d(len(plane_names), hidden, 3, padding=1)
        self.conv2 = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.conv3 = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.head = nn.Conv2d(hidden, slots * ROTATIONS * DECISIONS, 1)
        self.roles = nn.Conv2d(hidden, len(ROLES), 1)
        self.register_buffer("role_of", torch.from_numpy(role_table()))
        self.value = nn.Sequential(nn.Linear(3 * hidden, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs):
        board = obs["board"].float() * self.scale
        scores = obs["scores"].float()
        glob = torch.cat([
            obs["hands"].flatten(1).float(), obs["hand_sizes"].float() / 3, obs["unseen"].float() / 10,
            scores / 100, (scores - scores[:, :1]) / 30, obs["supply"].float() / 7, obs["abbot"].float(),
            obs["to_move"].float(),
        ], 1)
        g = torch.relu(self.glob(glob))
        h = torch.relu(self.conv1(board) + g[:, :, None, None])
        h = torch.relu(self.conv2(h))
        h = torch.relu(self.conv3(h) + h)
        b, w = board.shape[0], self.width
        # (slot, rot, decision, y, x) channels to the action's order (slot, y, x, rot, decision).
        logits = self.head(h).view(b, self.slots, ROTATIONS, DECISIONS, w, w).permute(0, 1, 4, 5, 2, 3)
        # The role of each (rotation, decision) with the tile of each slot; an empty slot reads tile 0.
        role = self.role_of[obs["hands"][:, 0].argmax(2)]  # (b, slots, 4, 18)
        per_cell = self.roles(h).permute(0, 2, 3, 1).reshape(b, 1, w * w, len(ROLES)).expand(b, self.slots, -1, -1)
        index = role.view(b, self.slots, 1, ROTATIONS * DECISIONS).expand(-1, -1, w * w, -1)
        logits = logits + per_cell.gather(3, index).view(b, self.slots, w, w, ROTATIONS, DECISIONS)
        value = self.value(torch.cat([h.mean((2, 3)), h.amax((2, 3)), g], 1)).squeeze(1)
        return logits.reshape(b, -1), value


def legal_distribution(logits, legal):
    """The policy over each game's legal actions (`legal`: their flat
    actions, padded with -1), reading only their logits."""
    picked = logits.gather(1, legal.clamp(min=0))
    return Categorical(logits=picked.masked_fill(legal < 0, -1e9))


def as_tensors(obs):
    return {k: torch.from_numpy(np.asarray(v)) for k, v in obs.items()}


def evaluate(policy, games, seed, radius):
    """Wins of the policy (its most likely legal action) in `games` new deals against random."""
    envs = CarcassonneVectorEnv(num_envs=games, opponents="random", radius=radius, threads=1, max_legal=1024)
    obs, info = envs.reset(seed=seed)
    result = np.zeros(games)
    done = np.zeros(games, dtype=bool)
    with torch.no_grad():
        while not done.all():
            legal = torch.from_numpy(info["legal_actions"].astype(np.int64))
            logits, _ = policy(as_tensors(obs))
            pick = legal_distribution(logits, legal).probs.argmax(1)
            actions = legal.gather(1, pick[:, None]).squeeze(1).clamp(min=0).numpy()
            obs, reward, term, trunc, info = envs.step(actions)
            ended = (term | trunc) & ~done
            result[ended] = reward[ended]
            done |= term | trunc
    return float((result > 0).mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=25.0, help="training time")
    ap.add_argument("--steps", type=int, default=None, help="training steps (learner moves), instead of --minutes")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--rollout", type=int, default=32, help="steps per game between updates")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--radius", type=int, default=8, help="the window (17 × 17 cells)")
    ap.add_argument("--eval", type=int, default=200, help="evaluation games against random, before and after")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch's threads")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    n, t_len = args.envs, args.rollout
    envs = CarcassonneVectorEnv(num_envs=n, opponents="random", radius=args.radius, threads=1, max_legal=1024)
    core = envs.core
    policy = SpatialPolicy(EnvCore("standard", 2, args.radius, 0).plane_names, 2 * args.radius + 1, players=2, slots=1)
    params = sum(p.numel() for p in policy.parameters())
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr, eps=1e-5)
    eval_seed = 1_000_000_000  # evaluation deals, never trained on
    start = time.perf_counter()
    before = evaluate(policy, args.eval, eval_seed, args.radius)
    print(f"policy: {params:,} parameters; actions: {core.action_size:,} (radius {args.radius})")
    print(f"before training: wins {before:.1%} of {args.eval} games against random")

    obs, info = envs.reset(seed=args.seed)
    margin = (info["scores"][:, 0] - info["scores"][:, 1]).astype(np.float64)
    ended = np.zeros(n, dtype=bool)  # the game ended at the last step: this step restarts it
    buf = {k: np.zeros((t_len, *v.shape), v.dtype) for k, v in obs.items()}
    legal_buf = np.zeros((t_len, n, 1024), np.int32)
    act_buf = np.zeros((t_len, n), np.int64)
    logp_buf, val_buf, rew_buf = (np.zeros((t_len, n), np.float32) for _ in range(3))
    end_buf, valid_buf = np.zeros((t_len, n), bool), np.zeros((t_len, n), bool)
    steps, updates, train_start = 0, 0, time.perf_counter()
    deadline = train_start + 60 * args.minutes
    recent = []
    while (steps < args.steps) if args.steps is not None else (time.perf_counter() < deadline):
        for t in range(t_len):
            for k, v in obs.items():
                buf[k][t] = v
            legal_np = info["legal_actions"]
            legal_buf[t] = legal_np
            with torch.no_grad():
                logits, value = policy(as_tensors(obs))
                legal = torch.from_numpy(legal_np.astype(np.int64))
                dist = legal_distribution(logits, legal)
                pick = dist.sample()
            actions = legal.gather(1, pick[:, None]).squeeze(1).clamp(min=0).numpy()
            act_buf[t], logp_buf[t], val_buf[t] = pick.numpy(), dist.log_prob(pick).numpy(), value.numpy()
            valid_buf[t] = ~ended
            obs, reward, term, trunc, info = envs.step(actions)
            new_margin = (info["scores"][:, 0] - info["scores"][:, 1]).astype(np.float64)
            shaped = np.where(ended, 0.0, reward + (new_margin - margin) / 40)
            margin = new_margin
            rew_buf[t] = shaped
            end_buf[t] = term | trunc
            for r in reward[term & ~ended]:
                recent.append(r > 0)
            ended = term | trunc
            steps += int(valid_buf[t].sum())
        with torch.no_grad():
            _, next_value = policy(as_tensors(obs))
        # GAE; a step that restarted a game (invalid) is left out of the loss,
        # and an ended game's last step bootstraps from nothing.
        adv = np.zeros((t_len, n), np.float32)
        last = np.zeros(n, np.float32)
        nxt = next_value.numpy()
        for t in reversed(range(t_len)):
            keep = ~end_buf[t]
            delta = rew_buf[t] + 0.99 * nxt * keep - val_buf[t]
            last = delta + 0.99 * 0.95 * keep * last
            adv[t] = last
            nxt = val_buf[t]
        ret = adv + val_buf
        valid = valid_buf.reshape(-1)
        flat = {k: torch.from_numpy(v.reshape(t_len * n, *v.shape[2:])[valid]) for k, v in buf.items()}
        width = int((legal_buf >= 0).sum(2).max())
        b_legal = torch.from_numpy(legal_buf.reshape(t_len * n, -1)[valid, :width].astype(np.int64))
        b_act, b_logp = torch.from_numpy(act_buf.reshape(-1)[valid]), torch.from_numpy(logp_buf.reshape(-1)[valid])
        b_adv, b_ret = torch.from_numpy(adv.reshape(-1)[valid]), torch.from_numpy(ret.reshape(-1)[valid])
        size = len(b_act)
        for _ in range(args.epochs):
            for idx in torch.randperm(size).split(args.minibatch):
                logits, value = policy({k: v[idx] for k, v in flat.items()})
                dist = legal_distribution(logits, b_legal[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(0.8, 1.2)).mean()
                loss = pg + 0.5 * ((value - b_ret[idx]) ** 2).mean() - 0.01 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        updates += 1
        if updates % 10 == 0:
            rate = np.mean(recent[-500:]) if recent else float("nan")
            print(f"  {steps:,} steps, {len(recent):,} games, recent win rate {rate:.1%}, "
                  f"{steps / (time.perf_counter() - train_start):.0f} steps/s", flush=True)
    train_time = time.perf_counter() - train_start
    after = evaluate(policy, args.eval, eval_seed, args.radius)
    print(f"after {steps:,} steps ({len(recent):,} games) in {train_time / 60:.1f} min: "
          f"wins {after:.1%} of the same {args.eval} games against random")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
