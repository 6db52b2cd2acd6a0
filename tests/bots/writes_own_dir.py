"""Writes state.txt into its working directory before answering hello:
fine on its own, fails in the sandbox (read-only directory) unless the
directory is listed as writable."""
import botlib

with open("state.txt", "w") as f:
    f.write("cache\n")

botlib.run("writes_own_dir")
