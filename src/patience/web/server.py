"""Run the web app with uvicorn on a local port (``patience serve``).

One data folder has one server: the server holds an exclusive lock on a file in the
folder for its whole life and writes its address there; a second ``patience`` on the
same folder opens that address instead of serving the folder a second time (two
servers would each write their copy of a game over the other's).
"""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import TextIO

import uvicorn
from starlette.types import ASGIApp

from ..store import default_data_dir
from .app import create_app

LOCK_NAME = "patience.lock"
"""The lock file in the data folder; it holds the running server's address."""
LOCK_WAIT = 5.0
"""Seconds to wait for a starting server to write its address."""


class FolderInUse(Exception):
    """Another server holds the data folder and its address cannot be told."""


def _try_lock(fh: TextIO) -> bool:
    """Take an exclusive lock on ``fh`` without waiting; False when another process has it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def claim_folder(folder: Path) -> TextIO | None:
    """The locked lock file of ``folder`` (keep it open while serving), or None when
    another server holds it. The lock ends with the process, however it ends."""
    folder.mkdir(parents=True, exist_ok=True)
    fh = (folder / LOCK_NAME).open("a+", encoding="utf-8")
    if _try_lock(fh):
        return fh
    fh.close()
    return None


def running_url(folder: Path, wait: float) -> str | None:
    """The address that the server holding ``folder`` wrote, waiting while it starts."""
    deadline = time.monotonic() + wait
    while True:
        try:
            text = (folder / LOCK_NAME).read_text(encoding="utf-8").strip()
        except OSError:
            text = ""
        if text.startswith("http://"):
            return text
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


def record_url(lock: TextIO, url: str) -> None:
    """Write the server's address into its lock file, for a second ``patience`` to find."""
    lock.seek(0)
    lock.truncate()
    lock.write(url + "\n")
    lock.flush()


def open_running(folder: Path, open_browser: bool) -> None:
    """Point at the server that already serves ``folder`` (FolderInUse when unknown)."""
    url = running_url(folder, LOCK_WAIT)
    if url is None:
        raise FolderInUse(
            f"another patience server is using the data folder {folder} and did not say"
            " where it runs: stop it, or choose another folder with --data-dir"
        )
    if open_browser:
        print(f"patience is already running at {url} for {folder}; opening it.", flush=True)
        webbrowser.open(url)
    else:
        print(f"patience is already running at {url} for {folder}.", flush=True)


def bind(host: str, port: int) -> tuple[socket.socket, bool]:
    """A listening socket on ``host:port``, or on a free port if that one is taken.

    Returns the socket and whether the port asked for was replaced. Binding here,
    before uvicorn starts, lets the app know its real port for the Host check.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    for candidate in (port, 0):
        sock = socket.socket(family, socket.SOCK_STREAM)
        if os.name != "nt":
            # Allow a quick restart over connections in TIME_WAIT (not a shared port).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, candidate))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE and candidate != 0:
                continue
            raise
        # Accepted sockets inherit this: without it the reply's headers and body leave
        # in two segments and Nagle plus delayed ACK add 40 ms to every request.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.listen(128)
        sock.set_inheritable(True)
        return sock, candidate != port
    raise OSError(errno.EADDRINUSE, f"no free port on {host}")  # pragma: no cover


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to bind) is only reachable from this computer."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This computer's address on its network (None when it has none): the address it
    would send from (a UDP socket sends nothing when it connects)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address: str = s.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def url_for(host: str, port: int) -> str:
    """The address to open in a browser: for a server on every address, this computer's
    own (the server accepts the address a connection comes in at, not 0.0.0.0 or ::)."""
    name = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return f"http://{name}:{port}/"


def run(
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = True,
    data_dir: str | os.PathLike[str] | None = None,
) -> None:
    """Serve the game on ``host:port`` until interrupted; open the browser if asked.

    A ``host`` other than a loopback address (0.0.0.0 for one) opens the game to the
    other devices of the network, a phone for one: the server then accepts its own
    network addresses, and says where to point the phone.

    When another server already serves the data folder, open it instead (say so, and
    return); FolderInUse when its address cannot be told."""
    folder = Path(data_dir).expanduser() if data_dir else default_data_dir()
    lock = claim_folder(folder)
    if lock is None:
        open_running(folder, open_browser)
        return
    try:
        serve(lock, host, port, open_browser, folder)
    finally:
        lock.close()


def uvicorn_config(app: ASGIApp) -> uvicorn.Config:
    """How uvicorn runs ``app``: httptools' HTTP parser (C, a dependency), and uvloop's
    event loop where it exists (not on Windows), each a fraction of the CPU of the pure
    Python h11 and asyncio loop per request; no access log."""
    return uvicorn.Config(
        app, http="httptools", loop="auto", log_level="warning", access_log=False, lifespan="on"
    )


def serve(lock: TextIO, host: str, port: int, open_browser: bool, folder: Path) -> None:
    """Serve ``folder`` (whose lock file is ``lock``) until interrupted."""
    sock, moved = bind(host, port)
    actual = sock.getsockname()[1]
    if moved:
        print(f"Port {port} is in use; using port {actual} instead.", flush=True)
    lan = not is_loopback(host)
    url = url_for(host, actual)
    record_url(lock, url)
    try:
        app = create_app(folder, port=actual, lan=lan)
    except BaseException:
        sock.close()
        raise
    print(f"patience is running at {url}  (Ctrl+C to stop)", flush=True)
    if lan:
        there = network_address() if host in ("0.0.0.0", "", "::") else host
        if there:
            print(f"On a phone or another computer of your network: {url_for(there, actual)}")
        print("Anyone on your network can open it.", flush=True)
    print(f"Saved games and statistics: {app.state.store.path}", flush=True)
    app.state.solvers.start()  # loaded before the first hint is asked for
    server = uvicorn.Server(uvicorn_config(app))
    if open_browser:
        # Open the page once the server is accepting connections.
        def opener() -> None:
            for _ in range(100):
                if server.started:
                    webbrowser.open(url)
                    return
                threading.Event().wait(0.05)

        threading.Thread(target=opener, daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
