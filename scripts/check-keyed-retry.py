#!/usr/bin/env python3
"""The gateway sends a POST again only when its Idempotency-Key makes that safe.

    scripts/check-keyed-retry.py NGINX WORKDIR

Runs deploy/nginx.conf (as scripts/gateway-conf.sh rewrites it, two replicas a service on
127.0.0.3) in front of two stand-ins for listings: one reads each request and resets the
connection, as a replica does whose listening socket closes the moment a request reaches
it; the other answers 201. Round robin sends requests to both. Then:
  - every POST with an Idempotency-Key answers 201, the ones the first replica reset
    included, and the second replica saw the same key and body;
  - a POST without a key that the first replica reset answers the 502 problem document.
Exits non-zero with what differed. Called by scripts/check-deploy.sh.
"""
import http.client
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time

HOST = "127.0.0.3"
LISTINGS = 8082  # Tools/StackKit/ServiceTable.swift; the second replica is at +100


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listen(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((HOST, port))
    s.listen(64)
    return s


def read_request(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    headers = dict(
        line.split(": ", 1) for line in head.decode("latin-1").split("\r\n")[1:] if ": " in line
    )
    length = int(headers.get("Content-Length", headers.get("content-length", "0")))
    while len(body) < length:
        body += connection.recv(65536)
    return {k.lower(): v for k, v in headers.items()}, body


def resetting(server, seen):
    while True:
        connection, _ = server.accept()
        headers, _ = read_request(connection)
        if headers is not None:
            seen.append(headers.get("idempotency-key"))
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.close()


def answering(server, seen):
    while True:
        connection, _ = server.accept()
        headers, body = read_request(connection)
        if headers is not None:
            seen.append((headers.get("idempotency-key"), body))
            answer = b'{"answeredBy":"second"}'
            connection.sendall(
                b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + b"Content-Length: %d\r\n\r\n" % len(answer)
                + answer
            )
        connection.close()


def post(port, key, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    connection.request("POST", "/v1/listings", body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.getheader("Content-Type"), response.read()


def main():
    nginx, work = sys.argv[1:3]
    reset_seen, answered = [], []
    threading.Thread(target=resetting, args=(listen(LISTINGS), reset_seen), daemon=True).start()
    threading.Thread(target=answering, args=(listen(LISTINGS + 100), answered), daemon=True).start()
    port = free_port()
    conf = subprocess.run(
        ["scripts/gateway-conf.sh", "--port", str(port), "--upstream-host", HOST, "--replicas", "2",
         "--run-dir", work, "deploy/nginx.conf"],
        check=True, capture_output=True, text=True).stdout
    path = os.path.join(work, "retry.conf")
    with open(path, "w") as f:
        f.write(conf)
    gateway = subprocess.Popen(
        [nginx, "-p", work + "/", "-e", "stderr", "-c", path, "-g", f"pid {work}/retry.pid; daemon off;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Generous: a slow machine may take a while to start nginx.
        deadline = time.time() + 60
        while True:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                probe.request("GET", "/health")
                probe.getresponse().read()
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("nginx did not start")
                time.sleep(0.05)
        problems = []
        # A replica that failed is left out for 2 s; wait that out so the next may meet it.
        sent = 0
        while sent < 4 or not reset_seen and sent < 12:
            key, body = f"check-keyed-retry-{sent}", json.dumps({"title": f"item {sent}"}).encode()
            before = len(reset_seen)
            status, _, _ = post(port, key, body)
            if status != 201:
                problems.append(f"keyed POST {sent} answered {status}, not 201")
            if (key, body) not in answered:
                problems.append(f"keyed POST {sent} never reached the answering replica intact")
            sent += 1
            if len(reset_seen) > before:
                time.sleep(2.1)
        keyed_resets = len(reset_seen)
        if not keyed_resets:
            problems.append("round robin never sent a keyed POST to the resetting replica")
        unkeyed = None
        for _ in range(12):
            before = len(reset_seen)
            status, kind, document = post(port, None, b'{"title":"no key"}')
            if len(reset_seen) > before:
                unkeyed = (status, kind, json.loads(document or b"{}"))
                break
            time.sleep(0.5)
        if unkeyed is None:
            problems.append("round robin never sent an unkeyed POST to the resetting replica")
        elif unkeyed[0] != 502 or unkeyed[1] != "application/problem+json" or unkeyed[2].get("status") != 502:
            problems.append(f"an unkeyed POST that was reset answered {unkeyed}, not the 502 problem")
        if problems:
            sys.exit("; ".join(problems))
        print(f"check-deploy: a POST reset by a stopping replica is sent again with its Idempotency-Key "
              f"({keyed_resets} of {sent} reset, all answered 201), and is a 502 problem without one")
    finally:
        gateway.terminate()
        gateway.wait()


if __name__ == "__main__":
    main()
