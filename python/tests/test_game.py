"""The engine from Python: playing, refusing, records, views, course names."""

import json
import random

import pytest

import carcassonne
from carcassonne import Game, IllegalMoveError, Move, RecordError, RulesError


def random_game(rules="standard", players=2, seed=1):
    rng = random.Random(seed)
    game = Game(rules=rules, players=players, seed=seed)
    while not game.finished:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


@pytest.mark.parametrize(
    "rules,players",
    [("standard", 2), ("first-edition,river=true", 3), ("beginner", 4),
     ("standard,abbot=true,hand=3", 5), ("standard,farms=per-city,small_city=true", 6)],
)
def test_random_games_keep_the_invariants(rules, players):
    rng = random.Random(players)
    game = Game(rules=rules, players=players, seed=players)
    last = [0] * players
    while not game.finished:
        moves = game.legal_moves()
        assert moves, "a game that is not over has a legal move"
        game.play(moves[rng.randrange(len(moves))])
        scores = game.scores
        assert all(s >= l for s, l in zip(scores, last)), "scores never drop"
        last = scores
        on_board = [0] * players
        for f in game.followers:
            if f["role"] != "abbot":
                on_board[f["seat"]] += 1
        assert all(game.supply(p) + on_board[p] == 7 for p in range(players)), "followers are conserved"
    assert game.legal_moves() == []
    assert game.to_move is None
    assert max(game.scores) == game.scores[game.winners[0]]


def test_an_illegal_move_names_the_rule_and_changes_nothing():
    game = Game(seed=3)
    before = game.to_record()
    tile = game.tile
    with pytest.raises(IllegalMoveError) as e:
        game.play(Move(tile, (5, 5), 0))
    assert e.value.code == "not_adjacent"
    assert str(e.value) == "[5,5] shares no edge with a placed tile"
    with pytest.raises(IllegalMoveError) as e:
        game.play({"tile": "C" if tile != "C" else "D", "at": [1, 0], "rot": 0})
    assert e.value.code == "wrong_tile"
    with pytest.raises(IllegalMoveError) as e:
        game.play(Move(tile, (0, 0), 0))
    assert e.value.code == "cell_occupied"
    assert isinstance(e.value, carcassonne.CarcassonneError) and isinstance(e.value, ValueError)
    assert game.to_record() == before
    with pytest.raises(carcassonne.CarcassonneError) as e:
        Move("Z", (1, 0))
    assert e.value.code == "unknown_tile"
    with pytest.raises(carcassonne.CarcassonneError) as e:
        Move("D", (1, 0), rot=4)
    assert e.value.code == "bad_move"
    with pytest.raises(ValueError):
        game.play({"tile": "D", "at": [1]})


def test_records_round_trip_and_score_like_the_game():
    game = random_game("standard,abbot=true", 3, seed=11)
    text = game.to_record()
    back = Game.from_record(text)
    assert back.scores == game.scores and back.finished
    assert back.to_record() == text
    assert Game.from_record(json.loads(text)).scores == game.scores
    out = json.loads(carcassonne.score_record(text))
    assert out["scores"] == game.scores and out["finished"] is True
    assert out["events"] == game.events
    # An unfinished record is a save that plays on.
    doc = json.loads(text)
    doc["moves"] = doc["moves"][:10]
    save = Game.from_record(doc)
    assert save.moves_played == 10 and not save.finished
    save.play(save.legal_moves()[0])


def test_a_bad_record_names_the_move_and_the_reason(tmp_path):
    doc = {"format": 1, "players": ["A", "B"], "deck": ["E"],
           "moves": [{"tile": "E", "at": [3, 3], "rot": 0}]}
    with pytest.raises(RecordError) as e:
        Game.from_record(doc)
    assert e.value.move_no == 1 and e.value.code == "not_adjacent"
    with pytest.raises(RecordError) as e:
        carcassonne.score_record("{ not json")
    assert e.value.move_no is None and e.value.code == "bad_json"
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**doc, "moves": [{"tile": "E", "at": [0, -1], "rot": 2, "meeple": "S"}]}))
    assert Game.from_record(path).scores == [4, 0]


def test_rules_read_presets_options_and_codes():
    text, code = carcassonne.rules("first-edition,river=true")
    assert "river=true" in text
    assert carcassonne.rules(code) == (text, code)
    assert Game(rules=code, seed=1).rules == text
    assert any("river" in line.lower() for line in carcassonne.explain_rules(text))
    for bad in ["nonsense", "standard,hand=9", "standard,farms=maybe"]:
        with pytest.raises(RulesError) as e:
            Game(rules=bad)
        assert e.value.code == "bad_rules"
    with pytest.raises(carcassonne.CarcassonneError):
        Game(players=7)


def test_course_names_are_read_and_shown():
    d = carcassonne.tile("CRFR50")
    assert d.id == "D" and d.course == "CRFR50" and d.count == 4
    assert repr(d) == "Tile('D', course='CRFR50')" and str(d) == "D (CRFR50)"
    assert carcassonne.tile("FFRFL50").id == "A" and carcassonne.tile("CCCCS50").id == "C"
    assert carcassonne.tile("Eg").course == "CFFF50g" and carcassonne.tile("RV01").course is None
    assert sum(1 for t in carcassonne.tiles() if t.course and not t.garden) == 24
    assert sum(t.count for t in carcassonne.tiles() if not t.river) == 72
    m = Move("CRFR50", (1, 0), 1, meeple="N")
    assert m.tile == "D" and m.course == "CRFR50" and m == Move("D", (1, 0), 1, meeple="N")
    assert "CRFR50" in repr(m)
    # A record in course names scores as the same record in letters.
    game = random_game(seed=5)
    doc = json.loads(game.to_record())
    named = dict(doc)
    course = {t.id: t.course for t in carcassonne.tiles() if t.course and not t.garden}
    named["deck"] = [course.get(t, t) for t in doc["deck"]]
    named["moves"] = [{**m, "tile": course.get(m["tile"], m["tile"])} for m in doc["moves"]]
    assert named != doc
    assert carcassonne.score_record(named) == carcassonne.score_record(doc)
    assert Game.from_record(named).to_record() == game.to_record(), "the engine writes letters"


def test_views_show_only_what_the_seat_may_see():
    game = Game(rules="standard,hand=3", players=3, seed=4)
    view = game.view(1)
    assert view.hand(1) == game.hand(1) and len(view.hand(1)) == 3
    assert view.hand(0) is None and view.hand_len(0) == 3
    unseen = dict(view.unseen)
    assert sum(unseen.values()) == view.tiles_left + 6, "the bag and the two hidden hands"
    public = Game(rules="standard,hand=3,hand_visible=true", players=3, seed=4).view(1)
    assert public.hand(0) is not None
    # A sample keeps what seat 1 sees and redraws the rest.
    differs = False
    for seed in range(10):
        s = game.sample(1, seed)
        assert s.hand(1) == game.hand(1) and s.scores == game.scores and s.board == game.board
        differs |= s.hand(0) != game.hand(0)
    assert differs
    assert view.sample(random.Random(1)).hand(1) == game.hand(1)
    with pytest.raises(IndexError):
        game.view(3)


def test_copies_are_independent_and_playouts_finish():
    game = Game(seed=9)
    copy = game.copy()
    copy.play(copy.legal_moves()[0])
    assert game.moves_played == 0 and copy.moves_played == 1
    copy.playout(random.Random(2))
    assert copy.finished and copy.tiles_left == 0
    again = game.copy()
    again.play(again.legal_moves()[0])
    again.playout(random.Random(2))
    assert again.scores == copy.scores, "a playout is determined by its seed"
