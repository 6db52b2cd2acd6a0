"""Answers hello, then writes unasked lines to stdout without end."""
import botlib


def hello(msg):
    botlib.send({"type": "ready", "name": "stdout_flood", "protocol": 1})
    n = 0
    while True:
        botlib.send({"type": "info", "n": n})
        n += 1


botlib.run("stdout_flood", on_hello=hello)
