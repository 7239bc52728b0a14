#!/usr/bin/env python3
"""Writes the app shell into deploy/web/sw.js: the list of files the service worker stores
at install (the page, its style, every module, the manifest and the icons) and a version
made from their contents. A change to any of them makes a new sw.js, which is how browsers
learn that a new version of the app is served (they compare sw.js byte for byte) and offer
it to the person (see docs/web-app.md).

Only the lines between `// shell:begin` and `// shell:end` are written. Deterministic:
running it again on the same files gives the same sw.js.

    python3 scripts/make-web-shell.py          # rewrite deploy/web/sw.js
    python3 scripts/make-web-shell.py --check  # exit 1, saying so, when sw.js is not up to date
"""
import argparse
import hashlib
import json
import os
import re
import sys

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy", "web")
WORKER = os.path.join(WEB, "sw.js")


def shell_files() -> list:
    """The shell's paths as the browser asks for them, in a fixed order ("/" is index.html)."""
    paths = ["/", "/app.css", "/manifest.webmanifest", "/img/icon.svg"]
    paths += sorted(f"/img/{name}" for name in os.listdir(os.path.join(WEB, "img")) if re.fullmatch(r"app-[a-z0-9-]+\.png", name))
    for folder, _, names in sorted(os.walk(os.path.join(WEB, "js"))):
        relative = os.path.relpath(folder, WEB).replace(os.sep, "/")
        paths += sorted(f"/{relative}/{name}" for name in names if name.endswith(".js"))
    return paths


def shell_block() -> str:
    """The lines between the markers: the version (a hash of every shell file's path and bytes) and the list."""
    digest = hashlib.sha256()
    paths = shell_files()
    for path in paths:
        with open(os.path.join(WEB, "index.html" if path == "/" else path.lstrip("/")), "rb") as file:
            digest.update(path.encode() + b"\0" + file.read() + b"\0")
    listed = ",\n".join(f"  {json.dumps(path).replace(chr(34), chr(39))}" for path in paths)
    return f"const version = '{digest.hexdigest()[:16]}';\nconst shell = [\n{listed},\n];\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--check", action="store_true", help="only say whether sw.js is up to date")
    arguments = parser.parse_args()
    with open(WORKER) as file:
        worker = file.read()
    pattern = re.compile(r"(// shell:begin\n).*?(// shell:end\n)", re.S)
    if not pattern.search(worker):
        print("make-web-shell: deploy/web/sw.js has no '// shell:begin' ... '// shell:end' lines", file=sys.stderr)
        return 1
    updated = pattern.sub(lambda match: match.group(1) + shell_block() + match.group(2), worker)
    if arguments.check:
        if updated != worker:
            print("make-web-shell: deploy/web/sw.js does not list the app's files as they are "
                  "(run python3 scripts/make-web-shell.py and commit the result)", file=sys.stderr)
            return 1
        return 0
    if updated != worker:
        with open(WORKER, "w") as file:
            file.write(updated)
        print("make-web-shell: wrote deploy/web/sw.js")
    return 0


if __name__ == "__main__":
    sys.exit(main())
