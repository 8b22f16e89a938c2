"""The engine's command line run as a real subprocess, exactly as FORMATS.md F7 writes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> tuple[int, Any, str]:
    """``python -m engine ARGS``: exit status, the JSON printed (or None) and standard error."""
    proc = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, out, proc.stderr
