"""A bot's move latency with N reviews asked for (issue 26), against a running server.

python3 review_latency.py URL N: makes N finished games (two random bots), asks for
their reviews, then times a bot's (level easy) reply to a person's move, three times.
"""
import json, sys, time, urllib.request, statistics

URL = sys.argv[1]
N = int(sys.argv[2])

def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + path, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")

def new(seats):
    s, v = call("POST", "/api/games", {"seats": seats})
    assert s == 201, v
    return v

finished = []
for _ in range(N):
    g = new([{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}])
    finished.append(g["id"])
for gid in finished:
    while call("GET", f"/api/games/{gid}")[1]["status"] != "finished":
        time.sleep(0.05)
codes = {}
for gid in finished:
    s, v = call("GET", f"/api/games/{gid}/review")
    codes[s] = codes.get(s, 0) + 1
print("reviews asked:", N, "answers:", codes, flush=True)

lat = []
for _ in range(10):
    if len(lat) >= 3:
        break
    g = new([{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "easy"}])
    gid, tok, st = g["id"], g["tokens"][0]["token"], g["state"]
    if st["version"] != 0 or "legal" not in st or not st["legal"]:
        continue
    p = st["legal"][0]
    mv = {"version": 0, "tile": p["tile"], "at": p["at"], "rot": p["rot"]}
    t0 = time.time()
    s, v = call("POST", f"/api/games/{gid}/moves?token={tok}", mv)
    assert s == 200, v
    while call("GET", f"/api/games/{gid}")[1]["version"] < 2:
        time.sleep(0.02)
    lat.append(time.time() - t0)
    print("bot move latency: %.2f s" % lat[-1], flush=True)
print("median: %.2f s" % statistics.median(lat))
