"""Build hook: compile the solver's native searches: Klondike, Lady Jane and Baker's
Dozen (``_tableau.c``), Hopscotch (``_hopscotch.c``), FreeCell (``_freecell.c``). Each
module is one translation unit: its ``.c`` file includes the ``_*.h`` files beside it
(named for what they hold), so only the ``.c`` files are compiled.

Each is optional: without a C compiler and Python's headers the package still installs,
and the solver runs the same search in pure Python (slower); one that fails to compile
leaves the others. CI checks that each was built (tests/test_solver_native.py,
tests/test_solver_hopscotch_native.py, tests/test_freecell_native.py)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCES = ("_tableau", "_hopscotch", "_freecell")
"""The native modules, each ``src/patience/solver/<name>.c``."""


class NativeSolverHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile every native module; the wheel is platform-specific if any was built."""
        if self.target_name != "wheel":
            return
        built = False
        for name in SOURCES:
            out = self.compile(name)
            if out is None:
                continue
            built = True
            if version != "editable":
                build_data["force_include"][str(out)] = f"patience/solver/{out.name}"
        if built:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def compile(self, name: str) -> Path | None:
        """Compile one module next to its source; None (with a warning) when it fails.

        The module is written to a temporary file and moved into place, so a process
        that has the old one loaded keeps a whole file."""
        src = Path(self.root, "src", "patience", "solver", f"{name}.c")
        out = src.with_name(name + sysconfig.get_config_var("EXT_SUFFIX"))
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
        include = sysconfig.get_paths()["include"]
        cmd = [*shlex.split(cc), "-O2", "-shared", "-fPIC", f"-I{include}", str(src)]
        cmd += ["-o", str(tmp)]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True)
            os.replace(tmp, out)
        except (OSError, subprocess.CalledProcessError) as err:
            tmp.unlink(missing_ok=True)
            detail = getattr(err, "stderr", "") or str(err)
            self.app.display_warning(f"{name} not built, pure Python it is: {detail}")
            return None
        return out
