"""arena.Game against the rules as `arena judge` applies them: random games
of every variant, illegal moves, the action numbering, observations and
native playouts."""

import copy
import json
import pickle
import random

import numpy as np
import pytest

import arena

GAMES_PER_VARIANT = 10_000
VARIANTS = arena.variants()


def random_game(variant, rng):
    """A game of uniformly random legal moves, played through Game (by
    action index, the faster path; the texts are checked against the
    actions in test_actions_round_trip_and_the_mask_is_the_legal_moves)."""
    game = arena.Game(variant)
    while not game.is_over:
        game.play_action(rng.choice(game.legal_actions()))
    return game


def test_variants_are_the_ones_arena_games_lists():
    assert VARIANTS == [
        "qango6", "qango6-castle", "qango6-tournament",
        "qango7", "qango7-castle", "qango7-pro1", "qango7-pro2",
        "qango7plus", "qango7plus-edge", "qango7plus-tournament",
        "quinque",
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_end_as_arena_judge_says(variant, judge):
    rng = random.Random(f"judge {variant}")
    games = [random_game(variant, rng) for _ in range(GAMES_PER_VARIANT)]
    verdicts = judge([{"game": variant, "moves": g.moves} for g in games])
    for game, verdict in zip(games, verdicts):
        assert verdict["status"] == game.status != "ongoing", (game.moves, verdict)
        assert (verdict["winner"], verdict["reason"]) == (game.winner, game.reason), game.moves
        assert verdict["plies"] == game.ply == len(game.moves)
        assert verdict["cells"] == game.cells
        assert game.reasons == [game.reason]
        assert game.legal_moves() == []
    # Random play reaches every ending the variant has (a hand list).
    endings = {g.reason for g in games}
    expected = {"line", "no_moves"} if variant == "quinque" else {"group", "square", "line"}
    assert expected <= endings, endings


def positions(variant, count, seed):
    """`count` games of `variant` cut after a random number of random moves."""
    rng = random.Random(f"{seed} {variant}")
    out = []
    for _ in range(count):
        game = arena.Game(variant)
        for _ in range(rng.randrange(0, 40)):
            if game.status != "ongoing":
                break
            game.play(rng.choice(game.legal_moves()))
        out.append(game)
    return out


def snapshot(game):
    return (game.moves, game.to_move, game.status, game.winner, game.legal_moves(), game.ply)


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_illegal_move_raises_and_leaves_the_game_unchanged(variant):
    for game in positions(variant, 30, "illegal"):
        before = snapshot(game)
        legal = set(game.legal_moves())
        occupied = [m for m in game.moves if m not in legal][:1]
        other_family = "c3" if variant == "quinque" else "place c3"
        for bad in occupied + ["z9", "", "C3", " c3", other_family, "place a1 b2", "capture a1"]:
            if bad in legal:
                continue
            with pytest.raises(ValueError) as err:
                game.play(bad)
            assert json.dumps(bad) in str(err.value) and variant in str(err.value), str(err.value)
            assert snapshot(game) == before


def test_an_illegal_move_says_why():
    game = arena.Game("qango6", ["c3"])
    with pytest.raises(ValueError, match=r'illegal move "c3" in qango6 at ply 1 \(black to move\): c3 is occupied'):
        game.play("c3")
    with pytest.raises(ValueError, match="first disc must be on the edge"):
        arena.Game("qango6-tournament").play("c3")
    won = arena.Game("qango6", ["a1", "c3", "b1", "d4", "a2"])
    assert (won.status, won.winner, won.reason, won.cells) == ("win", "white", "group", ["a1", "b1", "a2"])
    with pytest.raises(ValueError, match="already over"):
        won.play("f6")
    with pytest.raises(ValueError, match="unknown variant"):
        arena.Game("chess")


def test_copies_are_independent():
    game = arena.Game("quinque", ["place a1"])
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        other.play("place b1")
        assert game.moves == ["place a1"] and other.moves == ["place a1", "place b1"]
        assert game.to_move == "black" and other.to_move == "white"


def test_action_numbers_by_hand():
    q6 = arena.Game("qango6")
    assert q6.action_size == 36
    assert [q6.action_to_move(a) for a in (0, 5, 7, 35)] == ["a1", "f1", "b2", "f6"]
    assert arena.Game("qango7plus").action_size == 49
    q = arena.Game("quinque")
    assert q.action_size == 7600
    hand = {
        0: "place a1", 24: "place e5", 25: "double a1", 50: "triple a1",
        75: "enclose a1", 99: "enclose e5", 100: "capture a1 b1",
        123: "capture a1 e5", 124: "capture b1 a1", 699: "capture e5 d5",
        700: "capture a1 b1 c1", 975: "capture a1 d5 e5", 976: "capture b1 a1 c1",
        7599: "capture e5 c5 d5",
    }
    assert {a: q.action_to_move(a) for a in hand} == hand
    with pytest.raises(IndexError):
        q.action_to_move(7600)
    with pytest.raises(ValueError):
        q.move_to_action("capture a1 c1 b1")  # not board order: no such move text


@pytest.mark.parametrize("variant", VARIANTS)
def test_actions_round_trip_and_the_mask_is_the_legal_moves(variant):
    game = arena.Game(variant)
    texts = [game.action_to_move(a) for a in range(game.action_size)]
    assert len(set(texts)) == game.action_size
    assert [game.move_to_action(t) for t in texts] == list(range(game.action_size))
    for pos in positions(variant, 40, "mask"):
        legal = pos.legal_moves()
        mask = pos.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (pos.action_size,)
        assert sorted(np.flatnonzero(mask)) == sorted(pos.move_to_action(m) for m in legal)
        assert pos.legal_actions() == [pos.move_to_action(m) for m in legal]
        if legal:
            a = pos.legal_actions()[len(legal) // 2]
            after = pos.copy()
            after.play_action(a)
            assert after.moves[-1] == pos.action_to_move(a) == legal[len(legal) // 2]


@pytest.mark.parametrize(
    "variant, shape",
    [("qango6", (15, 6, 6)), ("qango7", (19, 7, 7)), ("qango7plus", (15, 7, 7)), ("quinque", (9, 5, 5))],
)
def test_observation_planes(variant, shape):
    game = arena.Game(variant)
    obs = game.observation()
    assert obs.shape == shape and obs.dtype == np.float32
    if variant == "quinque":
        game.play("place a1")  # white's stone; black to move
        obs = game.observation()
        assert obs[3, 0, 0] == 1 and obs[:3].sum() == 0  # the opponent's single on a1
        assert obs[7, 2, 2] == 1.0 and obs[8, 2, 2] == pytest.approx(19 / 20)
        assert game.observation("white")[0, 0, 0] == 1
        return
    info = arena.variant_info(variant)
    assert obs[3:].sum() == 3 * len(info["groups"])  # every group's three cells
    assert obs[2].sum() == len(info["cells"])  # playable cells
    game.play("c3")
    assert game.observation()[1, 2, 2] == 1 and game.observation()[0].sum() == 0
    assert game.observation("white")[0, 2, 2] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_are_legal_games(variant, judge):
    start = arena.Game(variant)
    games, winners = [], []
    for seed in range(300):
        winners.append(start.random_playout(seed=seed))
        game = start.copy()
        assert game.play_random(seed=seed) == winners[-1]
        games.append(game)
    assert start.moves == [] and start.status == "ongoing"
    verdicts = judge([{"game": variant, "moves": g.moves} for g in games])
    for game, winner, verdict in zip(games, winners, verdicts):
        assert (verdict["status"], verdict["winner"], verdict["reason"]) == (game.status, winner, game.reason)
    # From a position part-way, the moves before stay.
    mid = arena.Game(variant, games[0].moves[:4])
    mid.play_random(seed=7)
    assert mid.moves[:4] == games[0].moves[:4] and mid.status != "ongoing"


def test_many_playouts_in_one_call():
    game = arena.Game("qango6", ["c3"])
    counts = game.random_playouts(2000, seed=5)
    assert sorted(counts) == ["black", "draw", "white"] and sum(counts.values()) == 2000
    assert counts == game.random_playouts(2000, seed=5)
    assert counts["white"] > 0 and counts["black"] > 0
    assert game.moves == ["c3"]


def test_playouts_run_in_threads():
    import concurrent.futures

    game = arena.Game("qango7")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        winners = list(pool.map(lambda s: game.random_playout(seed=s), range(200)))
    assert winners == [game.random_playout(seed=s) for s in range(200)]


def test_render_and_repr_draw_the_board():
    game = arena.Game("qango6", ["c3", "d4"])
    text = game.render()
    assert text.splitlines()[0].split() == ["a", "b", "c", "d", "e", "f"]
    assert text.splitlines()[3].split()[:5] == ["3", "y", "u", "W", "g"]
    assert repr(game).startswith("<arena.Game qango6 after 2 moves, white to move>")
    assert "supply: white 19, black 20" in arena.Game("quinque", ["place a1"]).render()
    assert game.state()["board"][2][2] == "w"
