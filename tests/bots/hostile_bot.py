"""Plays legal moves, but first attacks its opponent, the referee, the output
files, the network or the machine's CPU. Used by tests/sandbox.rs.

Usage: hostile_bot.py ATTACK [ARG] TAG
  kill_opponent VICTIM_TAG   SIGKILL every process whose argv holds VICTIM_TAG
  forge_opponent VICTIM_TAG  write a forged line into the victim's stdout pipe
                             (through /proc/PID/fd/1)
  kill_referee               SIGKILL its parent and the arena whose argv
                             holds its command line
  steal DIR                  read every file under DIR, report any line with
                             SECRET ("STOLEN PATH: LINE"), append FORGED to
                             every file it can, create DIR/FORGED
  connect PORT               open a TCP connection to 127.0.0.1:PORT
  setsid_daemon              leave a setsid grandchild that sleeps 60 s
  cpu_workers                fork 4 workers that spin forever, then answer
                             each turn after 500 ms
Each attack runs once, on the first turn (so the opponent is running); what
it achieved goes to stderr as "ATTACK: ...". TAG marks every process of it.
"""
import os
import signal
import socket
import sys
import time
import botlib

attack = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 3 else None
done = False


def processes():
    """(pid, argv) of every process this bot can see, except itself."""
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                yield int(name), f.read().decode(errors="replace").split("\0")
        except OSError:
            continue


def pids_with_arg(word):
    """Processes with `word` in their argv, other than this bot's own (in
    the sandbox, its namespace's init carries the same argv)."""
    own = sys.argv[-1]
    return [pid for pid, argv in processes() if word in argv and own not in argv]


def report(text):
    botlib.log(f"ATTACK: {text}")


def kill_each(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            report(f"killed {pid}")
        except OSError as e:
            report(f"kill {pid} failed: {e}")
    report("done")


def kill_opponent():
    kill_each(pids_with_arg(arg))


def forge_opponent():
    for pid in pids_with_arg(arg):
        try:
            with open(f"/proc/{pid}/fd/1", "w") as pipe:
                pipe.write('{"type": "move", "move": "forged"}\n')
            report(f"forged a line into {pid}")
        except OSError as e:
            report(f"forging into {pid} failed: {e}")
    report("done")


def kill_referee():
    """Its parent, and any process whose argv holds this bot's command line
    inside a longer argument (`arena play ... "python3 hostile_bot.py ..."`):
    only the referee that started it, never another arena on the machine."""
    own = sys.argv[-1]
    targets = {os.getppid()}
    for pid, argv in processes():
        if any(own in a and a != own for a in argv):
            targets.add(pid)
    kill_each(targets)


def steal():
    for root, _dirs, files in os.walk(arg):
        for name in files:
            path = os.path.join(root, name)
            try:
                with open(path, errors="replace") as f:
                    for line in f:
                        if "SECRET" in line and "STOLEN" not in line:
                            report(f"STOLEN {path}: {line.strip()}")
            except OSError as e:
                report(f"read {path} failed: {e}")
            try:
                with open(path, "a") as f:
                    f.write("FORGED\n")
                report(f"FORGED {path}")
            except OSError as e:
                report(f"write {path} failed: {e}")
    try:
        with open(os.path.join(arg, "FORGED"), "w") as f:
            f.write("FORGED\n")
        report("FORGED new file")
    except OSError as e:
        report(f"new file failed: {e}")
    report("done")


def connect():
    try:
        with socket.create_connection(("127.0.0.1", int(arg)), timeout=2) as s:
            s.sendall(b"LEAKED\n")
        report("CONNECTED")
    except OSError as e:
        report(f"connect failed: {e}")


def setsid_daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(60)
        os._exit(0)
    os.wait()
    report("daemon left")


def spin():
    while True:
        pass


def cpu_workers():
    for _ in range(4):
        if os.fork() == 0:
            spin()
    report("4 workers")


ATTACKS = {
    "kill_opponent": kill_opponent,
    "forge_opponent": forge_opponent,
    "kill_referee": kill_referee,
    "steal": steal,
    "connect": connect,
    "setsid_daemon": setsid_daemon,
    "cpu_workers": cpu_workers,
}


def turn(msg):
    global done
    if not done:
        done = True
        ATTACKS[attack]()
    if attack == "cpu_workers":
        time.sleep(0.5)
    return botlib.first_legal(msg)


botlib.run("hostile_" + attack, on_turn=turn)
