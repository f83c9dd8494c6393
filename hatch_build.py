"""Build hook: compile the solver's native search of Klondike, Lady Jane and Baker's
Dozen (``_alternating.c``).

It is optional: without a C compiler and Python's headers the package still installs,
and the solver runs the same search in pure Python (slower). CI checks that the native
module was built (tests/test_solver_native.py)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class NativeSolverHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        src = Path(self.root, "src", "patience", "solver", "_alternating.c")
        out = src.with_name("_alternating" + sysconfig.get_config_var("EXT_SUFFIX"))
        cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
        include = sysconfig.get_paths()["include"]
        cmd = [
            *shlex.split(cc),
            "-O2",
            "-shared",
            "-fPIC",
            f"-I{include}",
            str(src),
            "-o",
            str(out),
        ]
        try:
            subprocess.run(cmd, check=True, capture_output=True, text=True)
        except (OSError, subprocess.CalledProcessError) as err:
            detail = getattr(err, "stderr", "") or str(err)
            self.app.display_warning(f"native solver not built, pure Python it is: {detail}")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if version != "editable":
            build_data["force_include"][str(out)] = f"patience/solver/{out.name}"
