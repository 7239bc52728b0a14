#!/usr/bin/env python3
"""Writes the Grafana dashboard of each Commons service, one JSON file each.

    deploy/observability/make-dashboards.py [DIR]     (default: grafana/dashboards beside it)

The output is committed; scripts/check-deploy.sh regenerates it and fails on any difference,
so change this script, run it, and commit both.
"""
import json
import os
import sys

SERVICES = ["accounts", "listings", "geo-search", "donations", "shopping-lists"]
# A stream's recorded duration is its life, not a response time (docs/operations.md, "Metrics to watch").
STREAM_ROUTES = {"geo-search": ["/v1/alerts/stream"], "shopping-lists": ["/v1/lists/{id}/events"]}
DATASOURCE = {"type": "prometheus", "uid": "prometheus"}
WINDOW = "[$__rate_interval]"


def timeseries(title, unit, expr, legend, description, threshold=None):
    defaults = {"unit": unit, "min": 0}
    if threshold is not None:
        # The alert's threshold (alerts.yml), drawn as a line.
        defaults["thresholds"] = {"mode": "absolute", "steps": [
            {"color": "green", "value": None}, {"color": "red", "value": threshold}]}
        defaults["custom"] = {"thresholdsStyle": {"mode": "line"}}
    return {
        "type": "timeseries",
        "title": title,
        "description": description,
        "datasource": DATASOURCE,
        "fieldConfig": {"defaults": defaults, "overrides": []},
        "targets": [{"refId": "A", "datasource": DATASOURCE, "expr": expr, "legendFormat": legend}],
    }


def dashboard(service):
    http = f'service="{service}"'
    timed = ", ".join([http] + [f'route!="{route}"' for route in STREAM_ROUTES.get(service, [])])

    def latency(quantile):
        return (f"histogram_quantile({quantile}, sum by (route, le) "
                f"(rate(commons_http_request_duration_seconds_bucket{{{timed}}}{WINDOW})))")

    panels = [
        timeseries("Requests per second", "reqps",
                   f"sum by (route) (rate(commons_http_request_duration_seconds_count{{{http}}}{WINDOW}))",
                   "{{route}}", "Every replica, by route."),
        timeseries("Server errors (5xx) per second", "reqps",
                   f'sum by (route, status) (rate(commons_http_request_duration_seconds_count{{{http}, status=~"5.."}}{WINDOW}))',
                   "{{route}} {{status}}",
                   "Alert above 1 % of requests. 503: read-your-writes waits timing out or a replica not ready; see projection lag."),
        timeseries("Latency p50 by route", "s", latency(0.5), "{{route}}", "Stream routes left out."),
        timeseries("Latency p99 by route", "s", latency(0.99), "{{route}}",
                   "Alert over 1 s for 5 minutes. Sign-in and registration take 0.1-0.2 s (bcrypt).", threshold=1),
        timeseries("Projection lag (events)", "none",
                   f'commons_projection_lag_events{{job="{service}"}}', "{{projection}} {{instance}}",
                   "Per replica, behind the log's head. Alert above 1,000 for 5 minutes. A halted projection keeps its last value.",
                   threshold=1000),
        timeseries("Oldest open transaction on the log's database", "s",
                   f"max(commons_eventlog_oldest_transaction_age_seconds{{{http}}})", "oldest",
                   "Alert above 30 s: it holds back delivery to every reader (pg_stat_activity, xact_start).", threshold=30),
        timeseries("Log appends per second", "ops",
                   f"sum(rate(commons_event_append_duration_seconds_count{{{http}}}{WINDOW}))", "appends",
                   "Appends to the event log by this service's replicas."),
        timeseries("Log append latency p99", "s",
                   f"histogram_quantile(0.99, sum by (le) (rate(commons_event_append_duration_seconds_bucket{{{http}}}{WINDOW})))",
                   "p99", "Alert over 50 ms: PostgreSQL is slow to commit.", threshold=0.05),
    ]
    for number, panel in enumerate(panels):
        panel["id"] = number + 1
        panel["gridPos"] = {"h": 8, "w": 12, "x": 12 * (number % 2), "y": 8 * (number // 2)}
    return {
        "uid": f"commons-{service}",
        "title": f"Commons: {service}",
        "tags": ["commons"],
        "editable": False,
        "schemaVersion": 39,
        "time": {"from": "now-3h", "to": "now"},
        "refresh": "30s",
        "links": [{"type": "dashboards", "tags": ["commons"], "asDropdown": True, "title": "Services"}],
        "panels": panels,
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "grafana", "dashboards")
    os.makedirs(out, exist_ok=True)
    for service in SERVICES:
        with open(os.path.join(out, f"{service}.json"), "w") as file:
            json.dump(dashboard(service), file, indent=2)
            file.write("\n")


if __name__ == "__main__":
    main()
