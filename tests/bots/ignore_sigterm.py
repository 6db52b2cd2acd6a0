"""Plays correctly but ignores SIGTERM, quit and end of input: only SIGKILL
ends it."""
import signal
import time
import botlib

signal.signal(signal.SIGTERM, signal.SIG_IGN)
botlib.run("ignore_sigterm", on_quit=lambda msg: None)
while True:
    time.sleep(3600)
