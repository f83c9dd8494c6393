"""The real server in a subprocess: killed mid-game it resumes exactly; a busy port moves."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from live import SERVE, LiveServer
from patience import Move, new_game
from patience.fair import player_view
from patience.session import Session
from patience.web.app import create_app
from patience.web.server import uvicorn_config


def test_killed_server_resumes_the_game_exactly(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as first:
        with httpx.Client(base_url=first.url) as c:
            view = c.post("/api/games", json={"game": "klondike", "deal": 5}).json()
            gid = view["id"]
            for move in ["deal", "t3>t5", "deal", "deal"]:
                assert c.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 200
            before = c.post(f"/api/games/{gid}/undo").json()
        first.kill()  # no shutdown, no chance to flush anything more
    with LiveServer(tmp_path) as second, httpx.Client(base_url=second.url) as c:
        resumed = c.get("/api/current").json()
        assert resumed["id"] == gid
        assert resumed["position"] == before["position"]
        assert (resumed["moves_made"], resumed["redo_count"]) == (3, 1)
        for _ in range(3):
            last = c.post(f"/api/games/{gid}/undo").json()
    # The first position again, with every card seen on the way remembered.
    model = Session(new_game("klondike", deal=5))
    for move in ["deal", "t3>t5", "deal", "deal"]:
        model.play(Move.parse(move))
    while model.can_undo:
        model.undo()
    assert last["position"] == player_view(model.position, model.knowledge)
    assert last["position"] != view["position"]


def test_busy_port_moves_to_a_free_one(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with LiveServer(tmp_path, port) as live:
            url = live.url
            text = "".join(live.lines)
            assert f"Port {port} is in use" in text
            assert not url.endswith(f":{port}")
            assert httpx.get(url + "/api/games").status_code == 200
            # The Host check knows the real port.
            other = httpx.get(url + "/api/games", headers={"host": f"127.0.0.1:{port}"})
            assert other.status_code == 403


def test_the_server_parses_http_with_httptools_and_loops_with_uvloop(tmp_path: Path) -> None:
    # The pure Python h11 parser and asyncio loop cost the server two to three times
    # the CPU per request (issue #14: the page during a flood of hint requests).
    config = uvicorn_config(create_app(tmp_path))
    config.load()
    assert config.http_protocol_class is HttpToolsProtocol
    factory = config.get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        if sys.platform != "win32":
            import uvloop

            assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_bind_reports_a_moved_port() -> None:
    from patience.web.server import bind, url_for

    sock, moved = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    assert not moved
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    other, moved_again = bind("127.0.0.1", port)
    assert moved_again and other.getsockname()[1] != port
    other.close()
    sock.close()
    assert url_for("127.0.0.1", 8765) == "http://127.0.0.1:8765/"
    assert url_for("::1", 8765) == "http://[::1]:8765/"


def test_client_disconnect_cancels_the_search() -> None:
    import threading

    import anyio
    from starlette.requests import Request

    from patience.web.solver_pool import run_cancellable

    async def gone() -> dict[str, str]:
        return {"type": "http.disconnect"}

    request = Request({"type": "http", "method": "GET", "headers": []}, gone)
    cancel = threading.Event()

    def search() -> bool:
        return cancel.wait(timeout=10)  # a solver that stops when told to

    start = time.monotonic()
    assert anyio.run(run_cancellable, request, cancel, search) is True
    assert time.monotonic() - start < 5


def test_a_server_open_to_the_network_says_so_and_answers_the_phone(tmp_path: Path) -> None:
    with LiveServer(tmp_path, host="0.0.0.0") as live:
        url, lines = live.url, live.lines
        live.wait_for(r"^Anyone on your network")
        assert len(lines) < 10, lines
        port = url.rsplit(":", 1)[1]
        phone = re.search(r"of your network: (http://\S+)", "".join(lines))
        # The phone connects to the network address and names it (without one, this
        # computer stands in for the phone).
        address = phone.group(1).rstrip("/") if phone else url
        host = address.split("/")[2]
        r = httpx.get(address + "/api/games", headers={"origin": f"http://{host}"})
        assert r.status_code == 200
        r = httpx.get(url + "/api/games", headers={"host": f"evil.example:{port}"})
        assert r.status_code == 403


def test_a_second_server_on_the_same_folder_points_at_the_first(tmp_path: Path) -> None:
    with LiveServer(tmp_path) as first:
        url = first.url
        second = subprocess.run(
            [*SERVE, "--port", "0", "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 0, second.stderr
        assert f"already running at {url}/" in second.stdout
        # The first one still serves the folder, alone.
        assert httpx.get(url + "/api/games").status_code == 200


def test_a_folder_held_by_a_server_that_gives_no_address_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patience.web import server as server_module

    monkeypatch.setattr(server_module, "LOCK_WAIT", 0.1)
    held = server_module.claim_folder(tmp_path)
    assert held is not None
    try:
        with pytest.raises(server_module.FolderInUse, match=str(tmp_path)):
            server_module.run(port=0, open_browser=False, data_dir=tmp_path)
    finally:
        held.close()
