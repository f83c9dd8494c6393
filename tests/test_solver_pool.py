"""The web app's solver work runs in worker processes: away from the server's interpreter,
at a lower priority, cancelled from the server, replaced when one dies, ended with the
server. The work is the tests' stand-ins (``solver_stubs``), never the solver's speed."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from starlette.requests import Request
from starlette.testclient import TestClient

import solver_stubs
from live import LiveServer
from patience.web import solver_pool, solver_worker
from patience.web.app import create_app
from patience.web.service import ApiError
from patience.web.solver_pool import SolverPool


def connected() -> Request:
    """A request whose client stays."""

    async def receive() -> dict[str, Any]:
        await anyio.sleep_forever()
        raise AssertionError  # pragma: no cover

    return Request({"type": "http", "method": "GET", "headers": []}, receive)


@pytest.fixture
def pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SolverPool]:
    """A pool of one worker; the stand-ins' folder is the test's."""
    monkeypatch.setenv(solver_stubs.GATE, str(tmp_path))
    solvers = SolverPool(1)
    yield solvers
    solvers.close()


def run(solvers: SolverPool, work: Any, cancel: threading.Event | None = None) -> Any:
    """``solvers.run`` of ``work`` (budget 30 s), from a test."""
    return anyio.run(solvers.run, connected(), cancel or threading.Event(), 30.0, work)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def gone(pids: list[int]) -> bool:
    """Whether every process of ``pids`` has ended (waiting for them, with a wide bound)."""
    for _ in range(600):
        if not any(alive(p) for p in pids):
            return True
        threading.Event().wait(0.1)
    return False


def test_work_runs_in_another_process_at_a_lower_priority(pool: SolverPool) -> None:
    facts = run(pool, solver_stubs.worker_facts)
    assert facts["pid"] != os.getpid()
    if hasattr(os, "nice"):
        # NICENESS lower than this process, down to the lowest priority there is (19):
        # a test run at nice 19 already has it, and so has its worker.
        ours = os.nice(0)
        assert facts["nice"] >= min(ours + solver_worker.NICENESS, 19)
        assert facts["nice"] > ours or ours >= 19
    # The worker stays for the next search.
    assert run(pool, solver_stubs.worker_facts)["pid"] == facts["pid"]


def test_the_search_gets_the_budget_left_since_the_request_arrived(pool: SolverPool) -> None:
    # The budget is the whole round trip: what the request spent before (here 10 s) is
    # not the search's, nor is ANSWER, kept for the answer's way back to the page.
    arrived = time.monotonic() - 10.0
    given = anyio.run(
        pool.run, connected(), threading.Event(), 30.0, solver_stubs.seconds_given, arrived
    )
    assert given <= 30.0 - 10.0 - solver_pool.ANSWER
    assert run(pool, solver_stubs.seconds_given) <= 30.0 - solver_pool.ANSWER
    # A request whose budget was spent before it reached the pool is refused as busy.
    with pytest.raises(ApiError, match="busy"):
        anyio.run(
            pool.run, connected(), threading.Event(), 30.0, solver_stubs.seconds_given, arrived - 25
        )


def test_the_servers_cancel_reaches_the_worker(pool: SolverPool, tmp_path: Path) -> None:
    cancel = threading.Event()
    results: list[Any] = []

    async def main() -> None:
        async with anyio.create_task_group() as tg:

            async def search() -> None:
                results.append(await pool.run(connected(), cancel, 30.0, solver_stubs.held))

            tg.start_soon(search)
            await anyio.to_thread.run_sync(solver_stubs.wait_for, tmp_path / "searching-0")
            cancel.set()

    anyio.run(main)
    assert results == ["cancelled"]
    assert (tmp_path / "cancelled-0").exists()
    # The next search starts with the worker's cancel cleared.
    solver_stubs.release(tmp_path)
    assert run(pool, solver_stubs.held) == "released"


def test_what_the_work_raises_is_raised_in_the_server(pool: SolverPool) -> None:
    with pytest.raises(ValueError, match="a solver bug"):
        run(pool, solver_stubs.fails)
    assert run(pool, solver_stubs.worker_facts)["pid"] != os.getpid()


def test_a_killed_worker_is_replaced_and_its_request_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solver_stubs.hold_hints(monkeypatch, tmp_path)
    app = create_app(tmp_path, hint_timeout=30.0)
    with TestClient(app, base_url="http://localhost") as c:
        gid = c.post("/api/games", json={"game": "klondike", "deal": 1}).json()["id"]
        replies: list[Any] = []
        hint = f"/api/games/{gid}/hint?peek=true"  # the proven hint: compute_hint
        asking = threading.Thread(target=lambda: replies.append(c.get(hint)))
        asking.start()
        solver_stubs.wait_for(tmp_path / "searching-0")
        worker = int((tmp_path / "pid-0").read_text())
        os.kill(worker, signal.SIGKILL)
        asking.join(60)
        assert not asking.is_alive()
        r = replies[0]
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "solver_failed"
        assert r.json()["error"]["message"] == "The solver stopped unexpectedly; try again"
        assert r.headers["retry-after"]
        # A new worker answers the next request.
        solver_stubs.release(tmp_path)
        assert c.get(hint).status_code == 200
        assert int((tmp_path / "pid-1").read_text()) != worker


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("ending", ["stopped", "killed"])
def test_no_worker_outlives_the_server(tmp_path: Path, ending: str) -> None:
    server = LiveServer(tmp_path).start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        # The server starts its workers with itself.
        r = httpx.get(server.url + "/api/games", timeout=30)
        assert r.status_code == 200
        workers = children(pid)
        assert workers, "the server started no worker process"
        if ending == "stopped":
            server.stop()  # Ctrl+C
        else:
            server.kill()  # as a crash would: the workers see their pipe close
    finally:
        server.kill()
    assert gone(workers), [p for p in workers if alive(p)]
