"""What machine a benchmark ran on (shared by the scripts in ``bench/``)."""

from __future__ import annotations

import os
import platform
from pathlib import Path

__all__ = ["describe"]


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
