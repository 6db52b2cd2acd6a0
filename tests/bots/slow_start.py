"""Sleeps before it answers hello (seconds from argv[1], default 10)."""
import sys
import time
import botlib

delay = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0


def hello(msg):
    time.sleep(delay)


botlib.run("slow_start", on_hello=hello)
