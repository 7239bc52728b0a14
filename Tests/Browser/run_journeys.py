"""Runs the journeys (every JourneyTest class of the test_*.py files, or the names given) in
a few unittest processes at once, one class (or module, see `journey_units`) to a process,
and exits non-zero if any failed.

A journey spends much of its time waiting on Chromium and the stack, not on the CPU, so
three at once take about half the time of one after another on this project's 2-core CI
machine. The few that must not share the stack with another journey run first, one at a
time (see `journey_units`). Each class's output is printed whole when it ends, so that the
lines of a failure stay together. Names given on the command line all run side by side.

    run_journeys.py [--workers N] [module or module.Class ...]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def journey_units() -> tuple:
    """What each process runs, in file order, as (alone, together): `module.Class` for each
    test class found under this directory, or the whole `module` where the module sets
    RUN_TOGETHER (its journeys share something, such as the moderation queue, that one must
    not change under the other). A class that sets RUN_ALONE is in `alone`: it compares what
    the page shows with what the API answers for everyone's data, and another journey's post
    between the two reads would change one of them."""
    alone, together = [], []
    loader = unittest.TestLoader()
    pending = [loader.discover(HERE, pattern="test_*.py")]
    if loader.errors:
        raise ImportError("\n".join(loader.errors))
    while pending:
        suite = pending.pop(0)
        for item in suite:
            if isinstance(item, unittest.TestSuite):
                pending.append(item)
                continue
            module = type(item).__module__
            if getattr(type(item), "RUN_ALONE", False):
                units, name = alone, f"{module}.{type(item).__name__}"
            elif getattr(sys.modules[module], "RUN_TOGETHER", False):
                units, name = together, module
            else:
                units, name = together, f"{module}.{type(item).__name__}"
            if name not in units:
                units.append(name)
    return alone, together


def run(name: str):
    """Runs one module or class in a process of its own: (name, passed, seconds, output)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "unittest", "-v", name], cwd=HERE,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return name, done.returncode == 0, time.monotonic() - started, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("COMMONS_WEB_WORKERS", "3")),
                        help="journeys at once (default 3, or COMMONS_WEB_WORKERS)")
    parser.add_argument("names", nargs="*", help="modules or module.Class names (default: every journey)")
    arguments = parser.parse_args()
    try:
        alone, together = ([], arguments.names) if arguments.names else journey_units()
    except ImportError as error:
        print(f"run_journeys: a test module did not load:\n{error}", file=sys.stderr)
        return 1
    if not alone and not together:
        print("run_journeys: no journeys found", file=sys.stderr)
        return 1
    started = time.monotonic()
    failed = []

    def report(name, passed, seconds, output):
        print(output.rstrip(), flush=True)
        print(f"run_journeys: {name} {'passed' if passed else 'FAILED'} in {seconds:.0f} s", flush=True)
        if not passed:
            failed.append(name)

    for name in alone:
        report(*run(name))
    # A whole module first: it holds more than one journey, so it is the longest to wait for.
    together = sorted(together, key=lambda name: "." in name)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.workers)) as pool:
        for future in concurrent.futures.as_completed([pool.submit(run, name) for name in together]):
            report(*future.result())
    count = len(alone) + len(together)
    print(f"run_journeys: {count - len(failed)} of {count} passed in {time.monotonic() - started:.0f} s"
          f" ({len(alone)} alone first, then {arguments.workers} at once)", flush=True)
    if failed:
        print("run_journeys: failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
