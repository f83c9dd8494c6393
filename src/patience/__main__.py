"""The ``patience`` command's entry point (pyproject's ``[project.scripts]``), also
``python -m patience``: it imports the command line, then runs ``cli.main``.

The imports run with Python's cyclic garbage collector paused, and what they made is
then frozen (``gc.freeze``): modules, classes and functions live as long as the process,
so collecting them finds nothing, yet a collection during the imports, and the ones at
exit, walked every one of them, about 20 ms of a 120 ms ``patience solve`` (issue 56).
The command itself runs with the collector on, as before.
"""

from __future__ import annotations

import gc


def main() -> None:
    """Run the ``patience`` command (exit status: 0, 2 bad input, 1 otherwise)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        from .cli import main as run
    finally:
        if collecting:
            gc.enable()
    gc.freeze()
    run()


if __name__ == "__main__":
    main()
