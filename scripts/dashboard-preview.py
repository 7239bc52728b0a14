#!/usr/bin/env python3
"""A service's Grafana dashboard, drawn from a live run of the topology, as a PNG.

    scripts/with-postgres.sh scripts/run-topology.sh --bin-dir .build/debug -- \
        scripts/dashboard-preview.py [--dashboard listings] [--out docs/screenshots/dashboard-listings.png]

There is no Docker engine (and so no Grafana) on the machines Commons is built on, so this
does what Grafana would with the committed dashboard file: it runs Debian's Prometheus
against the topology's services (deploy/observability/prometheus.yml's jobs, their Docker
names replaced by 127.0.0.1, every 2 s instead of 15), puts load on the stack through
the gateway, asks Prometheus every panel's query over the run, and draws the panels on the
dashboard's grid in headless Chromium.

It fails (exit 1) when a query is refused by Prometheus, or when a panel other than the
error panel has no data: every dashboard query is then known to name real series of
the running services.
"""
import argparse
import html
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORTS = {"accounts": 8081, "listings": 8082, "geo-search": 8083, "donations": 8084, "shopping-lists": 8085}
COLOURS = ["#73bf69", "#f2cc0c", "#8ab8ff", "#ff780a", "#f2495c", "#5794f2", "#b877d9", "#fade2a", "#37872d", "#c4162a"]
# Panels that are empty when all is well.
MAY_BE_EMPTY = ("Server errors",)


def say(message: str):
    print(f"dashboard-preview: {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(method: str, url: str, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers), timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def start_prometheus(directory: str) -> tuple:
    config = os.path.join(directory, "prometheus.yml")
    jobs = "\n".join(
        f"  - job_name: {name}\n    static_configs:\n      - targets: ['127.0.0.1:{port}']" for name, port in PORTS.items())
    with open(config, "w") as file:
        file.write(f"global:\n  scrape_interval: 2s\n  evaluation_interval: 2s\nscrape_configs:\n{jobs}\n")
    port = free_port()
    process = subprocess.Popen(
        ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={directory}/data",
         f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "prometheus.log"), "w"))
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/-/ready", timeout=1)
            return process, url
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("dashboard-preview: Prometheus did not start (see its log)")


def load(gateway: str, seconds: float):
    """People signing up, posting, searching, donating and keeping lists, with some 4xx."""
    stop = time.monotonic() + seconds

    def person(index: int):
        email = f"preview-{index}-{random.randrange(1 << 30)}@example.com"
        status, body = request("POST", f"{gateway}/v1/accounts",
                               {"email": email, "password": "a long preview passphrase", "displayName": f"Preview {index}"})
        if status != 201:
            say(f"registering: {status}")
            return
        token = body["accessToken"]
        lat, lon = 52.3676 + random.uniform(-0.02, 0.02), 4.9041 + random.uniform(-0.03, 0.03)
        status, made = request("POST", f"{gateway}/v1/lists", {"name": "Weekend"}, token)
        list_id = made["id"] if status == 201 else None
        number = 0
        while time.monotonic() < stop:
            number += 1
            request("POST", f"{gateway}/v1/listings", {
                "title": f"Chair {number}", "category": "Furniture", "condition": "good",
                "pickupLocation": {"lat": lat + random.uniform(-0.01, 0.01), "lon": lon + random.uniform(-0.01, 0.01)}}, token)
            for _ in range(4):
                request("GET", f"{gateway}/v1/nearby/listings?lat={lat}&lon={lon}&radius=5&limit=20")
                request("GET", f"{gateway}/v1/listings?limit=20")
            request("GET", f"{gateway}/v1/organizations?limit=20")
            request("GET", f"{gateway}/v1/donations?limit=20", token=token)
            if list_id:
                request("POST", f"{gateway}/v1/lists/{list_id}/items", {"text": f"apples {number}", "quantity": 1}, token)
            request("GET", f"{gateway}/v1/me", token=token)
            request("GET", f"{gateway}/v1/listings/not-an-id")  # a 4xx now and then
            time.sleep(0.05)

    threads = [threading.Thread(target=person, args=(index,)) for index in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def query_range(prometheus: str, expression: str, start: float, end: float, step: float):
    query = urllib.parse.urlencode({"query": expression, "start": start, "end": end, "step": step})
    with urllib.request.urlopen(f"{prometheus}/api/v1/query_range?{query}", timeout=30) as answer:
        result = json.loads(answer.read())
    if result.get("status") != "success":
        raise ValueError(result)
    return result["data"]["result"]


def legend(template: str, labels: dict) -> str:
    text = template or ""
    for key, value in labels.items():
        text = text.replace("{{" + key + "}}", value)
    return text.strip() or "value"


def format_value(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"
    if unit in ("reqps", "ops"):
        return f"{value:.1f}/s"
    return f"{value:.1f}" if 0 < value < 10 else f"{value:.0f}"


def chart(panel: dict, series: list, start: float, end: float, width: int, height: int) -> str:
    """One time-series panel as SVG: lines, axes, threshold lines, a legend."""
    unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "none")
    steps = (panel.get("fieldConfig", {}).get("defaults", {}).get("thresholds") or {}).get("steps", [])
    thresholds = [step["value"] for step in steps if step.get("value") is not None]
    left, right, top, bottom = 64, 12, 8, 22
    plot_width, plot_height = width - left - right, height - top - bottom
    values = [float(v) for s in series for _, v in s["values"] if v not in ("NaN", "+Inf", "-Inf")]
    top_value = max(values + [0.0])
    if thresholds and top_value > 0:
        top_value = max(top_value, min(thresholds) * 1.1) if min(thresholds) < top_value * 3 else top_value
    top_value = top_value * 1.15 or 1.0
    x = lambda t: left + (t - start) / (end - start) * plot_width
    y = lambda v: top + plot_height - v / top_value * plot_height
    parts = [f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">']
    for fraction in (0, 0.25, 0.5, 0.75, 1):
        value = top_value * fraction
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" class="grid"/>')
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" class="axis" text-anchor="end">{format_value(value, unit)}</text>')
    for minute in range(int(start // 60) + 1, int(end // 60) + 1):
        t = minute * 60
        parts.append(f'<text x="{x(t):.1f}" y="{height - 6}" class="axis" text-anchor="middle">'
                     f'{time.strftime("%H:%M", time.localtime(t))}</text>')
    for threshold in thresholds:
        if threshold <= top_value:
            parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(threshold):.1f}" y2="{y(threshold):.1f}" class="threshold"/>')
    for index, item in enumerate(series):
        points = " ".join(f"{x(float(t)):.1f},{y(float(v)):.1f}" for t, v in item["values"] if v not in ("NaN", "+Inf", "-Inf"))
        if points:
            parts.append(f'<polyline points="{points}" fill="none" stroke="{COLOURS[index % len(COLOURS)]}" stroke-width="1.6"/>')
    if not series:
        parts.append(f'<text x="{width / 2}" y="{height / 2}" class="empty" text-anchor="middle">No data</text>')
    parts.append("</svg>")
    return "".join(parts)


def page(dashboard: dict, panels: list, start: float, end: float) -> str:
    column, row = 64, 34  # Grafana's grid: 24 columns, rows of 30 px and a margin
    cells = []
    for panel, series in panels:
        grid = panel["gridPos"]
        width, height = grid["w"] * column - 8, grid["h"] * row - 8
        target = panel["targets"][0]
        keys = [legend(target.get("legendFormat", ""), s["metric"]) for s in series]
        legend_html = "".join(
            f'<span><i style="background:{COLOURS[i % len(COLOURS)]}"></i>{html.escape(key)}</span>' for i, key in enumerate(keys[:8]))
        cells.append(
            f'<section style="left:{grid["x"] * column}px;top:{grid["y"] * row}px;width:{width}px;height:{height}px">'
            f'<h2>{html.escape(panel["title"])}</h2>{chart(panel, series, start, end, width - 16, height - 64)}'
            f'<div class="legend">{legend_html}</div></section>')
    height = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p, _ in panels) * row
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin: 0; background: #111217; color: #ccccdc; font: 13px Inter, "DejaVu Sans", sans-serif; }}
header {{ padding: 10px 16px; border-bottom: 1px solid #2c2f36; display: flex; gap: 16px; align-items: baseline; }}
header h1 {{ font-size: 17px; margin: 0; color: #fff; font-weight: 500; }}
header small {{ color: #8e8e9e; }}
main {{ position: relative; margin: 8px; height: {height}px; }}
section {{ position: absolute; background: #181b1f; border: 1px solid #2c2f36; border-radius: 4px; padding: 6px 8px; box-sizing: border-box; }}
h2 {{ font-size: 13px; font-weight: 500; margin: 0 0 4px; color: #d8d9da; }}
.grid {{ stroke: #2c2f36; }} .threshold {{ stroke: #f2495c; stroke-dasharray: 6 4; }}
.axis {{ fill: #8e8e9e; font-size: 11px; }} .empty {{ fill: #8e8e9e; font-size: 15px; }}
.legend {{ display: flex; flex-wrap: wrap; gap: 2px 12px; font-size: 11px; overflow: hidden; max-height: 30px; }}
.legend i {{ display: inline-block; width: 12px; height: 3px; margin: 0 5px 3px 0; vertical-align: middle; }}
</style></head><body><header><h1>{html.escape(dashboard["title"])}</h1>
<small>{time.strftime("%Y-%m-%d %H:%M", time.localtime(start))} to {time.strftime("%H:%M", time.localtime(end))}, Prometheus every 2 s, from deploy/observability/grafana/dashboards</small></header>
<main>{"".join(cells)}</main></body></html>"""


def screenshot(document: str, out: str, width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as file:
            file.write(document)
        # The whole page, not the window less the browser's own frame.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        driver.get("file://" + file.name)
        driver.save_screenshot(out)
    finally:
        driver.quit()
        os.unlink(file.name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gateway", default=os.environ.get("COMMONS_GATEWAY_URL", "http://127.0.0.1:8080"))
    parser.add_argument("--dashboard", default="listings", choices=list(PORTS))
    parser.add_argument("--out", help="the PNG to write (default docs/screenshots/dashboard-<service>.png)")
    parser.add_argument("--load-seconds", type=float, default=100)
    arguments = parser.parse_args()
    if not shutil.which("prometheus"):
        raise SystemExit("dashboard-preview: prometheus not found (apt-get install -y prometheus)")
    out = arguments.out or os.path.join(ROOT, "docs", "screenshots", f"dashboard-{arguments.dashboard}.png")
    with open(os.path.join(ROOT, "deploy", "observability", "grafana", "dashboards", f"{arguments.dashboard}.json")) as file:
        dashboard = json.load(file)

    directory = tempfile.mkdtemp(prefix="dashboard-preview-")
    prometheus, prometheus_url = start_prometheus(directory)
    try:
        start = time.time()
        say(f"Prometheus on {prometheus_url}; load through {arguments.gateway} for {arguments.load_seconds:.0f} s")
        load(arguments.gateway, arguments.load_seconds)
        time.sleep(6)  # the last scrapes
        end = time.time()
        panels, empty = [], []
        for panel in dashboard["panels"]:
            expression = panel["targets"][0]["expr"].replace("$__rate_interval", "20s")
            series = query_range(prometheus_url, expression, start, end, 2)
            panels.append((panel, series))
            if not series and not panel["title"].startswith(MAY_BE_EMPTY):
                empty.append(panel["title"])
        width = 24 * 64 + 16
        height = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p, _ in panels) * 34 + 60
        screenshot(page(dashboard, panels, start, end), out, width, height)
        say(f"wrote {os.path.relpath(out, ROOT)} ({len(panels)} panels)")
        if empty:
            say("no data for: " + ", ".join(empty))
            sys.exit(1)
    finally:
        prometheus.terminate()
        prometheus.wait(timeout=10)
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
