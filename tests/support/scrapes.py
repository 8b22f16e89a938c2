"""Reading a role's metrics listener as Prometheus would (docs/METRICS.md): the text format
scraped over HTTP and parsed into samples keyed by name and labels."""

from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text: str = response.read().decode()
        return text


def parse(text: str) -> Samples:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def scraped(port: int, name: str, **labels: str) -> float:
    """One sample's value from the listener on ``port`` (0 when it has none yet, or when the
    listener does not answer yet: a worker still starting)."""
    try:
        return value(parse(scrape(port)), name, **labels)
    except OSError:
        return 0.0
