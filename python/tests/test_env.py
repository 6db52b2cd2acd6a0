"""The environments: arena.env (PettingZoo AEC) passes PettingZoo's own API
test on a Qango variant and on Quinque and ends games as the engine does;
arena.GameEnv (Gymnasium) plays whole episodes against a Python policy and
against arena bots run by arena's referee (`arena play`)."""

import warnings

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")
gymnasium = pytest.importorskip("gymnasium")

import arena  # noqa: E402
from arena import GameEnv, RefereeOpponent, random_policy  # noqa: E402
from arena_cli import TEST_BOTS, arena_env, python, random_bot  # noqa: E402


@pytest.mark.parametrize("variant", ["qango6", "qango7", "quinque"])
def test_pettingzoo_api_test(variant):
    env = arena.env(variant)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env, num_cycles=200)
    # Its only advice is about the observation being a dict, which is the
    # action-mask form PettingZoo asks for (it exempts its own classic games
    # by name): nothing about the arrays, spaces, masks or agent names.
    dict_advice = {
        "Observation is not a NumPy array",
        "Observation space for each agent probably should be gymnasium.spaces.box or "
        "gymnasium.spaces.discrete",
    }
    advice = {str(w.message) for w in caught} - dict_advice
    assert advice == set(), advice


def play_out(env, rng):
    """Plays random legal actions to the end; the last rewards, per agent."""
    env.reset(seed=1)
    finals = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            finals[agent] = (reward, info)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return finals


@pytest.mark.parametrize("variant", ["qango6", "quinque"])
def test_aec_games_end_with_the_engines_winner_and_zero_sum_rewards(variant):
    env = arena.env(variant, render_mode="ansi")
    rng = np.random.default_rng(5)
    for _ in range(5):
        finals = play_out(env, rng)
        game = env.unwrapped.game
        assert game.status in ("win", "draw")
        assert set(finals) == {"player_0", "player_1"}
        white, black = finals["player_0"][0], finals["player_1"][0]
        expected = {"white": (1, -1), "black": (-1, 1), None: (0, 0)}[game.winner]
        assert (white, black) == expected
        assert finals["player_0"][1]["reasons"] == list(game.reasons)
        assert env.render() == game.render()


def test_aec_observation_is_each_agents_view_and_the_mask_only_the_movers():
    env = arena.env("qango6")
    env.reset()
    env.step(env.unwrapped.game.move_to_action("c3"))  # white c3; black to move
    assert env.agent_selection == "player_1"
    white, black = env.observe("player_0"), env.observe("player_1")
    game = env.unwrapped.game
    assert np.array_equal(white["observation"], game.observation("white"))
    assert np.array_equal(black["observation"], game.observation("black"))
    assert not white["action_mask"].any()
    assert np.array_equal(black["action_mask"], game.legal_action_mask().astype(np.int8))
    assert black["action_mask"].sum() == 35


def test_aec_illegal_action_raises_and_leaves_the_game_unchanged():
    env = arena.env("qango6")
    env.reset()
    c3 = env.unwrapped.game.move_to_action("c3")
    env.step(c3)
    with pytest.raises(ValueError):
        env.step(c3)
    assert env.unwrapped.game.moves == ["c3"]
    assert env.agent_selection == "player_1"


@pytest.mark.parametrize("color", ["white", "black"])
@pytest.mark.parametrize("variant", ["qango6", "quinque"])
def test_gym_plays_full_episodes_against_a_callable(variant, color):
    env = GameEnv(variant, random_policy(seed=3), color=color, render_mode="ansi")
    rng = np.random.default_rng(9)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert env.observation_space.contains(obs)
        steps, terminated, reward = 0, False, 0.0
        while not terminated:
            assert env.game.to_move == color
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated and env.observation_space.contains(obs)
            steps += 1
        game = env.game
        assert game.status in ("win", "draw")
        assert info["winner"] == game.winner
        assert reward == {None: 0.0, color: 1.0}.get(game.winner, -1.0)
        # The agent made every other move.
        assert steps == (len(game.moves) + (color == "white")) // 2
    assert "W" in env.render() or "B" in env.render()


def test_gym_illegal_action_raises_with_the_game_unchanged():
    env = GameEnv("qango6", random_policy(seed=1))
    env.reset()
    c3 = env.game.move_to_action("c3")
    env.step(c3)
    before = env.game.moves
    with pytest.raises(ValueError):
        env.step(c3)
    assert env.game.moves == before


def test_gym_policy_may_answer_with_an_action_index():
    env = GameEnv("qango6", lambda game: int(np.flatnonzero(game.legal_action_mask())[0]),
                  color="black")
    obs, _ = env.reset()
    assert len(env.game.moves) == 1  # the policy opened


@pytest.mark.parametrize("variant,color", [("qango6", "white"), ("qango6", "black"),
                                           ("quinque", "white")])
def test_gym_against_the_bundled_random_bot_through_the_referee(variant, color, arena_env):
    env = GameEnv(variant, RefereeOpponent(random_bot(4), time_control="per-move=2000"),
                  color=color)
    rng = np.random.default_rng(2)
    try:
        for _ in range(2):
            obs, info = env.reset()
            terminated = False
            while not terminated:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                obs, reward, terminated, truncated, info = env.step(action)
            # The referee's result is the rules' result, move for move.
            game = env.game
            assert game.status in ("win", "draw"), info
            assert info["reason"] in game.reasons
            assert info["result"] == {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[game.winner]
            assert reward == {None: 0.0, color: 1.0}.get(game.winner, -1.0)
    finally:
        env.close()


def test_gym_a_bot_that_plays_an_illegal_move_loses_by_the_referee(arena_env):
    bot = [python(), str(TEST_BOTS / "illegal.py")]
    env = GameEnv("qango6", bot, color="white")
    try:
        obs, _ = env.reset()
        obs, reward, terminated, _, info = env.step(env.game.move_to_action("c3"))
        assert terminated and reward == 1.0
        assert info["result"] == "1-0" and info["reason"] == "illegal_move", info
        assert info["winner"] == "white"
        assert env.game.moves == ["c3"] and env.game.status == "ongoing"
        assert not obs["action_mask"].any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)
    finally:
        env.close()


def processes_with_arg(arg: str) -> list:
    """Live processes whose command line has `arg` (read from /proc)."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                words = f.read().split(b"\0")
        except OSError:
            continue
        if arg.encode() in words:
            found.append(int(pid))
    return found


def test_gym_reset_and_close_mid_game_stop_arena_and_the_bot(arena_env):
    seed = 900000 + __import__("os").getpid() % 100000  # this test's bots alone
    env = GameEnv("quinque", random_bot(seed), color="black")
    obs, _ = env.reset()
    assert len(env.game.moves) == 1  # the bot opened, through the referee
    assert processes_with_arg(str(seed)), "the bot runs during the game"
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset()  # a new game: the old one's arena and bot are stopped
    assert len(env.game.moves) == 1
    env.close()
    import time

    deadline = time.monotonic() + 30
    while processes_with_arg(str(seed)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with_arg(str(seed)) == []


@pytest.mark.parametrize("color", ["white", "black"])
@pytest.mark.parametrize("variant", ["qango6", "quinque"])
def test_gym_passes_gymnasiums_check_env_when_illegal_actions_lose(variant, color):
    from gymnasium.utils.env_checker import check_env

    env = GameEnv(variant, random_policy(seed=1), color=color, illegal="lose", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    # Its one remaining note: alternative render modes are tested only for
    # environments made by gymnasium.make.
    advice = {str(w.message) for w in caught if "gymnasium.make" not in str(w.message)}
    assert advice == set(), advice


def test_gym_an_illegal_action_loses_with_illegal_lose_and_seeds_repeat_episodes():
    env = GameEnv("qango6", random_policy(), color="black", illegal="lose")
    first, _ = env.reset(seed=11)
    opening = env.game.moves
    taken = env.game.move_to_action(opening[0])
    obs, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["reason"] == "illegal_move" and info["winner"] == "white"
    assert env.game.moves == opening
    again, _ = env.reset(seed=11)  # the policy is reseeded: the same opening
    assert env.game.moves == opening and np.array_equal(again["observation"], first["observation"])


def test_gym_a_bot_that_cannot_start_is_arenas_error(tmp_path, arena_env):
    env = GameEnv("qango6", [str(tmp_path / "no-such-bot")])
    error = r"arena play ended without a result \(exit status 2\): .*no-such-bot"
    with pytest.raises(RuntimeError, match=error):
        env.reset()
    env.close()
