"""The engine's command line run as a real subprocess, exactly as FORMATS.md F7 writes it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_text(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``python -m engine ARGS``: exit status, standard output and standard error as text."""
    proc = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return proc.returncode, proc.stdout, proc.stderr


def run(*args: str, stdin: str = "") -> tuple[int, Any, str]:
    """``python -m engine ARGS``: exit status, the JSON printed (or None) and standard error."""
    code, out, err = run_text(*args, stdin=stdin)
    return code, json.loads(out) if out.strip() else None, err
