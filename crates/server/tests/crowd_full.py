#!/usr/bin/env python3
"""The full form of tests/crowd.rs, against a running server (loopback only,
bounded in count and time). Not run by CI: it needs a server of its own
started under a file limit, e.g.

    (ulimit -n 1024; exec target/debug/carcassonne serve --addr 127.0.0.1:18080 --db /tmp/crowd.db) &
    python3 crates/server/tests/crowd_full.py --port 18080 half   # 1,100 half-sent requests, 1,100 addresses
    python3 crates/server/tests/crowd_full.py --port 18080 ws     # 4,000 idle spectators, 130 addresses
    python3 crates/server/tests/crowd_full.py --port 18080 abandoned  # 100 games left to the bots, 5 addresses

While the crowd holds (and, for `half`, reopens whatever the server closes),
it asks for health 5 times and plays a move from 127.0.0.1, and prints each
answer's status and time. `abandoned` times a player's bot replies instead
(their page open, against a `--level` bot): alone, then while 100 games made
from 5 addresses, each a person and three `hard` bots on a 1+0 clock whose
person moved once and left, are played on by the bots (the person's seat by
a stand-in once their clock ran out) for `--minutes`. Every address is in 127.0.0.0/8 (all loopback on
Linux).
"""

import argparse
import asyncio
import json
import os
import resource
import time

HOST = "127.0.0.1"


def crowd_ip(i, base=3):
    return f"127.{base}.{i // 250}.{i % 250 + 1}"


async def request(port, method, path, body=None, ip="127.0.0.1", timeout=30):
    """One request on a fresh connection: (status, body, seconds); status 0 when closed unanswered."""
    start = time.monotonic()
    try:
        r, w = await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(ip, 0)), timeout)
        data = (body or "").encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n"
        w.write(head.encode() + data)
        await w.drain()
        raw = await asyncio.wait_for(r.read(), timeout)
        w.close()
    except (OSError, asyncio.TimeoutError) as e:
        return 0, str(e), time.monotonic() - start
    text = raw.decode("utf-8", "replace")
    parts = text.split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    return status, text.split("\r\n\r\n", 1)[-1], time.monotonic() - start


async def new_game(port, ip):
    seats = {"seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}]}
    status, body, _ = await request(port, "POST", "/api/games", json.dumps(seats), ip=ip)
    assert status == 201, (status, body)
    v = json.loads(body)
    token = next(t["token"] for t in v["tokens"] if t["seat"] == 0)
    return v["id"], token


async def checks(port, game, token, label):
    results = []
    for _ in range(5):
        status, _, took = await request(port, "GET", "/api/health")
        results.append(("health", status, took))
    status, body, took = await request(port, "GET", f"/api/games/{game}?token={token}")
    results.append(("state", status, took))
    if status == 200:
        s = json.loads(body)
        p = s["legal"][0]
        mv = {"version": s["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"]}
        status, body, took = await request(port, "POST", f"/api/games/{game}/moves?token={token}", json.dumps(mv))
        results.append(("move", status, took))
    for what, status, took in results:
        print(f"{label}: {what} {status} in {took * 1000:.0f} ms")
    return results


async def half(port, n):
    game, token = await new_game(port, "127.0.0.1")
    held = {}
    reopened = 0
    stop = asyncio.Event()

    async def hold(i):
        nonlocal reopened
        first = True
        while not stop.is_set():
            try:
                r, w = await asyncio.open_connection(HOST, port, local_addr=(crowd_ip(i), 0))
                w.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
                await w.drain()
                held[i] = w
                if not first:
                    reopened += 1
                first = False
                await r.read()  # returns when the server closes it
            except OSError:
                await asyncio.sleep(0.05)
            held.pop(i, None)
            await asyncio.sleep(0.01)

    tasks = [asyncio.create_task(hold(i)) for i in range(n)]
    await asyncio.sleep(8)
    print(f"crowd: {len(held)} of {n} half-sent requests open, {reopened} reopened after the server closed them")
    results = await checks(port, game, token, "during the crowd")
    print(f"crowd: {len(held)} open, {reopened} reopened so far")
    stop.set()
    for w in list(held.values()):
        w.close()
    for t in tasks:
        t.cancel()
    return results


async def spectator(port, ip, game, sockets, closed, token=None):
    """A websocket on `game` that says nothing (a seat's page with `token`)."""
    query = f"?token={token}" if token else ""
    try:
        r, w = await asyncio.open_connection(HOST, port, local_addr=(ip, 0))
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        w.write(
            f"GET /api/games/{game}/ws{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await w.drain()
        head = await asyncio.wait_for(r.readuntil(b"\r\n\r\n"), 30)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            closed[0] += 1
            w.close()
            return
        sockets.append(w)
        # Idle: answer pings (so as not to be let go as dead), say nothing else.
        while True:
            h = await r.readexactly(2)
            op, n = h[0] & 0x0F, h[1] & 0x7F
            if n == 126:
                n = int.from_bytes(await r.readexactly(2), "big")
            elif n == 127:
                n = int.from_bytes(await r.readexactly(8), "big")
            payload = await r.readexactly(n)
            if op == 9:
                mask = os.urandom(4)
                body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                w.write(bytes([0x8A, 0x80 | len(payload)]) + mask + body)
            elif op == 8:
                break
    except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
        pass
    closed[0] += 1
    if w in sockets:
        sockets.remove(w)


async def ws(port, n, addresses, games):
    ids = [(await new_game(port, crowd_ip(g, base=4)))[0] for g in range(games)]
    game, token = await new_game(port, "127.0.0.1")
    sockets, closed = [], [0]
    tasks = []
    for i in range(n):
        ip = crowd_ip(i % addresses, base=5)
        tasks.append(asyncio.create_task(spectator(port, ip, ids[i % games], sockets, closed)))
        if i % 200 == 199:
            await asyncio.sleep(0.2)
    await asyncio.sleep(10)
    print(f"spectators: {len(sockets)} of {n} open, {closed[0]} closed or refused")
    results = await checks(port, game, token, "during the spectators")
    # The player's own websocket.
    status, _, took = await request(port, "GET", "/api/health")
    sockets_before = len(sockets)
    seat = []
    await spectator_probe(port, game, token, seat)
    print(f"player's websocket: {seat[0] if seat else 'no answer'}; spectators open {sockets_before}, closed {closed[0]}")
    for w in list(sockets):
        w.close()
    for t in tasks:
        t.cancel()
    return results


async def spectator_probe(port, game, token, out):
    start = time.monotonic()
    try:
        r, w = await asyncio.open_connection(HOST, port)
        w.write(
            f"GET /api/games/{game}/ws?token={token} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await w.drain()
        head = await asyncio.wait_for(r.readuntil(b"\r\n\r\n"), 30)
        out.append(f"{head.split(b' ')[1].decode()} in {(time.monotonic() - start) * 1000:.0f} ms")
        w.close()
    except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as e:
        out.append(f"failed: {e}")


async def play_first(port, game, token, ip="127.0.0.1"):
    """Plays the first legal move of the seat `token` holds once it is its
    turn; the state's version after it."""
    while True:
        status, body, _ = await request(port, "GET", f"/api/games/{game}?token={token}", ip=ip)
        assert status == 200, (status, body)
        s = json.loads(body)
        if s["legal"]:
            break
        await asyncio.sleep(0.02)
    p = s["legal"][0]
    mv = {"version": s["version"], "tile": p["tile"], "at": p["at"], "rot": p["rot"]}
    status, body, _ = await request(port, "POST", f"/api/games/{game}/moves?token={token}", json.dumps(mv), ip=ip)
    assert status == 200, (status, body)
    return s["version"] + 1


async def replies(port, game, token, n, label):
    """Plays `n` moves and times each bot reply: from the move's answer to
    the state that gives the turn back."""
    took = []
    for _ in range(n):
        version = await play_first(port, game, token)
        start = time.monotonic()
        while True:
            status, body, _ = await request(port, "GET", f"/api/games/{game}?token={token}")
            s = json.loads(body)
            if s["turn"] is None or (s["version"] > version and s["legal"]):
                break
            await asyncio.sleep(0.02)
        took.append(time.monotonic() - start)
        if s["turn"] is None:
            break
    took.sort()
    print(f"{label}: {len(took)} bot replies, median {took[len(took) // 2]:.2f} s, max {took[-1]:.2f} s")
    return took


async def abandoned(port, level, minutes, idle_replies):
    seats = {"seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": level}]}
    status, body, _ = await request(port, "POST", "/api/games", json.dumps(seats))
    assert status == 201, (status, body)
    v = json.loads(body)
    game, token = v["id"], next(t["token"] for t in v["tokens"] if t["seat"] == 0)
    page = asyncio.create_task(spectator(port, "127.0.0.1", game, [], [0], token=token))
    idle = await replies(port, game, token, idle_replies, f"alone, against {level}")
    if minutes <= 0:
        page.cancel()
        return [("reply", 200, idle[-1])]
    crowd = {"seats": [{"kind": "human", "name": "Eve"}] + [{"kind": "bot", "level": "hard"}] * 3,
             "clock": {"kind": "realtime", "minutes": 1, "increment": 0}}
    made = 0
    for i in range(100):
        ip = crowd_ip(i % 5, base=6)
        status, body, _ = await request(port, "POST", "/api/games", json.dumps(crowd), ip=ip)
        if status != 201:
            print(f"crowd game {i}: {status} {body[:120]}")
            continue
        c = json.loads(body)
        await play_first(port, c["id"], next(t["token"] for t in c["tokens"] if t["seat"] == 0), ip=ip)
        made += 1
    print(f"crowd: {made} games made from 5 addresses, a move played in each, left")
    during, end = [], time.monotonic() + minutes * 60
    while time.monotonic() < end:
        status, body, _ = await request(port, "POST", "/api/games", json.dumps(seats))
        v = json.loads(body)
        game, token = v["id"], next(t["token"] for t in v["tokens"] if t["seat"] == 0)
        page.cancel()
        page = asyncio.create_task(spectator(port, "127.0.0.1", game, [], [0], token=token))
        during += await replies(port, game, token, 30, f"with the crowd, {len(during)} replies so far")
    page.cancel()
    during.sort()
    median_idle = idle[len(idle) // 2]
    print(f"alone: median {median_idle:.2f} s; with the crowd: median {during[len(during) // 2]:.2f} s, "
          f"max {during[-1]:.2f} s ({during[-1] / median_idle:.1f}x the idle median) over {len(during)} replies")
    return [("reply", 200 if during[-1] <= 2 * median_idle else 0, during[-1])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("mode", choices=["half", "ws", "abandoned"])
    ap.add_argument("-n", type=int, default=None)
    ap.add_argument("--level", default="normal", help="abandoned: the player's bot")
    ap.add_argument("--minutes", type=float, default=6, help="abandoned: how long the crowd's games are timed (0: none)")
    ap.add_argument("--idle", type=int, default=30, help="abandoned: bot replies timed before the crowd (a game's worth)")
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if a.mode == "half":
        results = asyncio.run(asyncio.wait_for(half(a.port, a.n or 1100), 120))
    elif a.mode == "ws":
        results = asyncio.run(asyncio.wait_for(ws(a.port, a.n or 4000, 130, 20), 180))
    else:
        results = asyncio.run(asyncio.wait_for(abandoned(a.port, a.level, a.minutes, a.idle), a.minutes * 60 + 600))
    ok = all(s == 200 for _, s, _ in results)
    print("all answered" if ok else "NOT all answered")


if __name__ == "__main__":
    main()
