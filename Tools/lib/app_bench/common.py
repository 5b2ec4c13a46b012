"""What every part of the bench shares: exit codes, the error, the log, number formats and the
Markdown table both tables are printed as."""

import statistics
import sys

EXIT_MISSED, EXIT_USAGE, EXIT_MISSING, EXIT_FAILED = 1, 64, 69, 70


class BenchError(Exception):
    """The run could not go on; one sentence."""


def log(message):
    print(f"app-bench: {message}", file=sys.stderr, flush=True)


def fmt_ms(ms):
    return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def fmt_bytes(n):
    if n >= 1024 * 1024:
        return f"{n / 1048576:.2f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} B"


def median(values):
    return statistics.median(values) if values else float("nan")


def p95(values):
    """The nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)] if ordered else float("nan")


def loadavg():
    """The 1, 5 and 15 minute load averages (the machine may be shared: they say how busy it was)."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def ok(met):
    """A row's verdict on its target."""
    return "met" if met else "**missed**"


def table(rows):
    """The lines of a Markdown table of rows (#, figure, target, result, verdict, what limits it)."""
    lines = ["| # | figure | target | result | | what limits it |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    return lines
