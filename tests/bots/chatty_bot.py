"""Well-behaved, and logs a line to stderr before each of its moves."""
import botlib


def think(turn):
    botlib.log(f"thinking about ply {turn['ply']}")
    return botlib.first_legal(turn)


botlib.run("chatty_bot", on_turn=think)
