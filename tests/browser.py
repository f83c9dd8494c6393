"""Debian's Chromium for the browser tests, and the flags that let it start offline as root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def require_chromium() -> None:
    """Skip the calling test module without Chromium; in CI, where they must run, fail."""
    if Path(CHROMIUM).exists():
        return
    message = f"no Chromium at {CHROMIUM} (apt-get install chromium): browser tests skipped"
    if os.environ.get("CI"):
        pytest.fail(message.replace("skipped", "cannot run in CI"), pytrace=False)
    pytest.skip(message, allow_module_level=True)
