"""Uses CPU before it answers hello, as a JVM or a bot loading a model does
(milliseconds of CPU time from argv[1], default 250); then plays first legal."""
import sys
import time
import botlib

cpu_ms = float(sys.argv[1]) if len(sys.argv) > 1 else 250.0


def hello(msg):
    until = time.process_time() + cpu_ms / 1000.0
    while time.process_time() < until:
        pass


botlib.run("heavy_start", on_hello=hello)
