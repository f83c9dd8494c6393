"""A live patience server for the tests and the benchmarks: ``patience serve`` in a
subprocess (stopped as Ctrl+C does, or killed as a crash would, and started again), or
uvicorn in a thread of this process (it sees what the test registered or patched)."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import httpx

SERVE = [sys.executable, "-c", "from patience.cli import main; main()", "serve", "--no-browser"]
STARTUP = 30.0
"""Seconds a server has to say where it listens (the machine may be busy)."""

HTTP = httpx.Client(timeout=30, limits=httpx.Limits(max_keepalive_connections=0))
"""One client for every call here, each on a fresh connection as ``httpx.get`` makes: a
client of its own per call loaded the certificate store each time (20 to 35 ms of CPU,
for plain http), 1.5 of the screenshot tool's 7 CPU seconds."""


class StartFailed(RuntimeError):
    """The server did not start; the message holds what it printed."""


class LiveServer:
    """A patience server on ``data_dir``; ``url`` has no trailing slash.

    ``in_process``: uvicorn over ``create_app`` in a thread of this process instead of a
    ``patience serve`` subprocess. ``port`` 0 is a free one; ``host`` only for the subprocess.
    """

    def __init__(
        self,
        data_dir: Path,
        port: int = 0,
        host: str | None = None,
        *,
        in_process: bool = False,
        **app_options: Any,
    ) -> None:
        self.data_dir = data_dir
        self.port = port
        self.host = host
        self.in_process = in_process
        self.app_options = app_options
        self.url = ""
        self.lines: list[str] = []
        """What the subprocess printed so far."""
        self.proc: subprocess.Popen[str] | None = None
        self._queue: queue.Queue[str] = queue.Queue()
        self._pump: threading.Thread | None = None
        self._uvicorn: Any = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> LiveServer:
        """Start the server and wait until it answers."""
        if self.in_process:
            self._start_thread()
        else:
            self._start_process()
        for _ in range(200):  # the socket listens already; wait until uvicorn answers
            try:
                HTTP.get(self.url + "/api/games", timeout=1.0)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        return self

    def _start_process(self) -> None:
        args = ["--port", str(self.port), "--data-dir", str(self.data_dir)]
        self.proc = subprocess.Popen(
            [*SERVE, *args, *(["--host", self.host] if self.host else [])],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        stdout = self.proc.stdout
        assert stdout is not None
        self._queue = queue.Queue()

        def pump() -> None:
            for line in stdout:
                self._queue.put(line)

        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()
        self.lines = []
        m = self.wait_for(r"running at (http://\S+)")
        self.url = m.group(1).rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])

    def wait_for(self, pattern: str, timeout: float = STARTUP) -> re.Match[str]:
        """The first printed line that matches ``pattern``, waiting for it if need be."""
        for line in self.lines:
            if m := re.search(pattern, line):
                return m
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise StartFailed(f"no {pattern!r} in: {''.join(self.lines)}") from None
            self.lines.append(line)
            if m := re.search(pattern, line):
                return m

    def _start_thread(self) -> None:
        import socket

        import uvicorn

        from patience.web.app import create_app

        if not self.port:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.port = int(s.getsockname()[1])
        app = create_app(self.data_dir, port=self.port, **self.app_options)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self._uvicorn = uvicorn.Server(config)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # uvicorn's websockets shim
            self._thread = threading.Thread(target=self._uvicorn.run, daemon=True)
            self._thread.start()
            deadline = time.monotonic() + STARTUP
            while not self._uvicorn.started:
                if time.monotonic() > deadline or not self._thread.is_alive():
                    raise StartFailed("the in-process server did not start")
                time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop the server cleanly (Ctrl+C for the subprocess)."""
        if self._uvicorn is not None:
            self._uvicorn.should_exit = True
            assert self._thread is not None
            self._thread.join(10)
            self._uvicorn = None
            return
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """Stop the subprocess at once, as a crash would (no clean shutdown)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        if self._pump is not None:
            self._pump.join(timeout=10)  # it ends at the end of the output
        if self.proc.stdout:
            self.proc.stdout.close()
        self.proc = None

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the JSON API directly (to set up a position): the decoded reply."""
        reply = HTTP.request(method, self.url + "/api" + path, json=body)
        reply.raise_for_status()
        return reply.json()


def start_game(url: str, body: dict[str, Any]) -> None:
    """Start a game on the server at ``url`` through the API: the page resumes it."""
    reply = HTTP.post(url + "/api/games", json={"options": {}, "deal": None, **body})
    assert reply.status_code == 201, reply.text
