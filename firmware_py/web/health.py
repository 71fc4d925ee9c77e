"""The table's health for a museum's monitoring, read-only and without the token: `/api/health`, the verdict
`roseking status --json` gives (`firmware_py.table.health`), made from the live status; `/metrics`, the same
in Prometheus' text format (`prometheus_client` writes it): up, healthy, games today, the parts at fault,
the watchdog's last ping, free space, whether the time of day is known.

It reads the `StatusCollector` only; it changes nothing, and says nothing the status page does not.
"""
import time
from collections.abc import Iterator
from typing import Any

from aiohttp import web
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector, CollectorRegistry

from firmware_py.table.faults import PARTS
from firmware_py.table.health import HEALTHY, verdict
from firmware_py.table.status import StatusCollector


def live(collector: StatusCollector) -> dict[str, Any]:
    """The status as the status file would say it now: running, written now."""
    return {**collector.status().to_dict(), "running": True, "written": time.time()}


def health(collector: StatusCollector) -> dict[str, Any]:
    """What `roseking status --json` prints, for the table as it is now."""
    status = live(collector)
    code, said = verdict(status, time.time(), PARTS)
    return {"healthy": code == HEALTHY, "verdict": said, "status": status}


class Metrics(Collector):
    """The live status as Prometheus gauges, made at each scrape."""

    def __init__(self, collector: StatusCollector) -> None:
        self.collector = collector

    def collect(self) -> Iterator[Metric]:
        now = time.time()
        status = live(self.collector)
        code, _ = verdict(status, now, PARTS)

        def gauge(name: str, text: str, value: float) -> GaugeMetricFamily:
            return GaugeMetricFamily(f"roseking_{name}", text, value=value)
        yield gauge("up", "1 while the table service runs (its loop answers this page)", 1)
        yield gauge("healthy", "1 when nothing is at fault (roseking status would exit 0)", code == HEALTHY)
        yield gauge("uptime_seconds", "seconds since the service started", status["uptime_seconds"])
        yield gauge("games_started_today", "games started today in this run", status["games_started"])
        yield gauge("games_finished_today", "games finished today, before a restart too", status["games_finished"])
        faults = GaugeMetricFamily("roseking_fault", "1 for a part at fault now", labels=["part"])
        for part in PARTS:
            faults.add_metric([part], part in status["faults"])
        yield faults
        yield gauge("watchdog_armed", "1 when systemd's watchdog is armed", status["watchdog_armed"])
        if status["last_ping"] is not None:
            yield gauge("watchdog_age_seconds", "seconds since the loop last pinged the watchdog",
                        max(0.0, now - status["last_ping"]))
        if status["free_bytes"] is not None:
            yield gauge("free_bytes", "free space in the data directory", status["free_bytes"])
        yield gauge("time_known", "1 once the time of day is known (the opening hours act)",
                    status["clock"] is not None)
        yield gauge("frames_per_second", "frames shown a second, of late", status["frames_per_second"])
        yield gauge("brightness", "the brightness chosen, 0 to 1 of the configured", status["brightness"])


def add_routes(app: web.Application, collector: StatusCollector) -> None:
    """`/api/health` and `/metrics` on `app`, read from `collector`."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(Metrics(collector))

    async def get_health(request: web.Request) -> web.Response:
        return web.json_response(health(collector))

    async def get_metrics(request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/api/health", get_health)
    app.router.add_get("/metrics", get_metrics)
