"""What machine a benchmark ran on, and the CPU time it used (shared by the scripts in
``bench/``)."""

from __future__ import annotations

import os
import platform
import resource
from pathlib import Path

__all__ = ["cpu_seconds", "describe"]


def describe() -> str:
    """``Linux x86_64, AMD EPYC, 2 cores, Python 3.11.7``: system, CPU model, cores, Python."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.system()} {platform.machine()}, {cpu}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )


def cpu_seconds() -> float:
    """CPU seconds (user + system) this process has used so far: a press's CPU cost swings
    far less than its latency's tail with whatever else the machine runs, so two commits are
    compared by it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
