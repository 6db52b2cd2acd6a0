"""Plays correctly while a thread floods stderr without pause."""
import sys
import threading
import botlib


def spam():
    line = "spam " * 200 + "\n"
    while True:
        sys.stderr.write(line)


threading.Thread(target=spam, daemon=True).start()
botlib.run("stderr_spam")
