#!/usr/bin/env python3
"""Runs a test command and turns a hang into a quick, named failure.

Usage: scripts/watch-tests.py [--stall SECONDS] -- COMMAND [ARG...]

The command's output is passed through line by line. The watchdog follows swift-testing's
progress lines ("◇ Test ... started.", "✔ Test ... passed ...", "✘ Test ... failed ...").
When no test has started or ended for --stall seconds (default 600, or
COMMONS_TEST_STALL_SECONDS), it prints the tests still running, a backtrace of every
thread of every test process (through gdb, when it is installed), then stops
the command and exits 124. Otherwise it exits with the command's own status.

When the run fails, its failures (every "✘" line and the lines that explain it) are
printed again at the end, so that the tail of a long log, which is often all a CI report
keeps, says what failed.

A test that waits forever would otherwise hold CI until its time limit, and the run would
end with nothing but "interrupted": this names the test and shows where it waits.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r'^◇ Test (".*?"|\S+\(.*?\)) started\.')
FAILURE = re.compile(r'^✘ ')
FAILURE_DETAIL = re.compile(r'^(\s|↳)')
ENDED = re.compile(r'^[✔✘] Test (".*?"|\S+\(.*?\)) (?:with \d+ test cases? )?(?:passed|failed)')


def main() -> int:
    args = sys.argv[1:]
    stall = float(os.environ.get("COMMONS_TEST_STALL_SECONDS", "600"))
    if args[:1] == ["--stall"]:
        stall = float(args[1])
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        print("watch-tests: no command given", file=sys.stderr)
        return 2

    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    running: dict[str, float] = {}
    last_progress = [time.monotonic()]
    failures: list[str] = []
    lock = threading.Lock()

    def forward_terminate(signum, _frame):
        os.killpg(child.pid, signal.SIGTERM)
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, forward_terminate)
    signal.signal(signal.SIGINT, forward_terminate)

    def pump():
        assert child.stdout is not None
        for raw in child.stdout:
            line = raw.decode("utf-8", "replace")
            sys.stdout.write(line)
            sys.stdout.flush()
            with lock:
                if FAILURE.match(line) or (failures and failures[-1] is not None and FAILURE_DETAIL.match(line)):
                    failures.append(line.rstrip("\n"))
                elif failures and failures[-1] is not None:
                    failures.append(None)
                if m := STARTED.match(line):
                    running[m.group(1)] = time.monotonic()
                    last_progress[0] = time.monotonic()
                elif m := ENDED.match(line):
                    running.pop(m.group(1), None)
                    last_progress[0] = time.monotonic()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    while child.poll() is None:
        time.sleep(5)
        with lock:
            idle = time.monotonic() - last_progress[0]
            stuck = sorted(running.items(), key=lambda item: item[1])
        if idle < stall:
            continue
        now = time.monotonic()
        print(f"\nwatch-tests: no test started or ended for {int(idle)}s; still running:", file=sys.stderr)
        for name, since in stuck:
            print(f"watch-tests:   {name} (for {int(now - since)}s)", file=sys.stderr)
        dump_backtraces(child.pid)
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        reader.join(timeout=5)
        print("watch-tests: stopped the test run", file=sys.stderr)
        return 124
    reader.join(timeout=30)
    if child.returncode != 0:
        print_failures(failures)
    return child.returncode


def print_failures(failures: list) -> None:
    """Repeats what failed, in the order it was reported, at the very end of the output."""
    lines = [line for line in failures if line is not None]
    if not lines:
        return
    print("\nwatch-tests: what failed in this run:")
    for line in lines[-200:]:
        print(line)
    sys.stdout.flush()


def dump_backtraces(session: int) -> None:
    """Prints every thread's backtrace of each test process in the command's session."""
    result = subprocess.run(["ps", "-eo", "pid=,sid=,args="], capture_output=True, text=True)
    for row in result.stdout.splitlines():
        pid, sid, command = row.strip().split(None, 2)
        if int(sid) != session or "PackageTests" not in command:
            continue
        print(f"watch-tests: backtraces of {pid} {command[:120]}")
        if shutil.which("gdb"):
            debugger = ["gdb", "-p", pid, "-batch", "-ex", "thread apply all bt 30"]
        else:
            print("watch-tests: gdb is not installed; no backtraces")
            return
        try:
            subprocess.run(debugger, stdout=sys.stderr, stderr=sys.stderr, timeout=180)
        except subprocess.TimeoutExpired:
            print("watch-tests: the debugger did not finish within 180s")


if __name__ == "__main__":
    sys.exit(main())
