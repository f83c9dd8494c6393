"""tools/screenshots.py: one game's pictures, every theme and size, as compact PNGs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PIL import Image

from browser import playwright_api

playwright_api()
pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOOL = Path(__file__).resolve().parent.parent / "tools" / "screenshots.py"


def test_one_game_in_every_theme_and_size(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("screenshots", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    tool.main(["--game", "hopscotch", "--out", str(tmp_path)])
    sizes = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}
    for size, box in sizes.items():
        for suffix in ("", "-dark"):
            with Image.open(tmp_path / f"hopscotch-{size}{suffix}.png") as image:
                assert image.size == box
                assert image.mode == "P"  # 256 colours
    assert len(list(tmp_path.iterdir())) == 6
