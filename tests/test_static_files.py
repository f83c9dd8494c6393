"""The page's files come from memory, with ETags; the game list is made once. What the
page loads at every visit costs the server no trip to a thread and no engine work."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest
from starlette.testclient import TestClient

from patience import i18n
from patience.web.app import STATIC_DIR, create_app
from patience.web.routes import catalog

FILES = sorted(p.name for p in STATIC_DIR.iterdir() if p.is_file())


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, Any]]:
    """A client, and the list of the app's trips to worker threads since the last clear."""
    trips: list[Any] = []
    real = anyio.to_thread.run_sync

    async def run_sync(func: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(func)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", run_sync)
    with TestClient(create_app(tmp_path), base_url="http://localhost") as c:
        yield c, trips


def test_every_file_is_served_as_on_disk_with_an_etag(client: TestClient) -> None:
    assert "index.html" in FILES and "app.js" in FILES
    etags = set()
    for name in FILES:
        r = client.get("/" + name)
        assert r.status_code == 200, name
        assert r.content == (STATIC_DIR / name).read_bytes()
        assert r.headers["cache-control"] == "no-cache"
        etags.add(r.headers["etag"])
    assert len(etags) == len(FILES)
    assert client.get("/").content == (STATIC_DIR / "index.html").read_bytes()
    assert client.get("/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/style.css").headers["content-type"].startswith("text/css")


def test_an_unchanged_file_is_not_sent_again(client: TestClient) -> None:
    first = client.get("/app.js")
    again = client.get("/app.js", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"]
    other = client.get("/app.js", headers={"if-none-match": '"an-older-version"'})
    assert other.status_code == 200 and other.content == first.content


def test_head_unknown_files_and_other_methods(client: TestClient) -> None:
    head = client.head("/app.js")
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == (STATIC_DIR / "app.js").stat().st_size
    missing = client.get("/nothing.js")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get("/../pyproject.toml").status_code == 404
    refused = client.post("/app.js")
    assert refused.status_code == 405 and "GET" in refused.headers["allow"]


def test_the_page_files_and_the_game_list_take_no_thread(
    counted: tuple[TestClient, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    c, trips = counted
    made: list[int] = []
    real = catalog.game_list
    monkeypatch.setattr(catalog, "game_list", lambda: made.append(1) or real())
    first = c.get("/api/games").json()
    trips.clear()
    for name in FILES:
        assert c.get("/" + name).status_code == 200
    assert c.get("/api/games").json() == first
    assert trips == []
    assert made == [1]


def test_each_messages_catalog_is_made_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    real = i18n.catalog_json
    monkeypatch.setattr(i18n, "catalog_json", lambda lang: made.append(lang) or real(lang))
    first = client.get("/api/messages/fr").json()
    assert client.get("/api/messages/fr").json() == first == real("fr")
    assert client.get("/api/messages/es").json()["lang"] == "es"
    assert made == ["fr", "es"]
