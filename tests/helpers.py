"""What many test files share: where the repository is, and running the ``judge`` command."""

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: The repository: problems/, submissions/, judge/ and tests/ are below it.
ROOT = Path(__file__).resolve().parent.parent


def judge(*args: str, cwd: str | Path = ROOT, env: Mapping[str, str] | None = None,
          timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m judge ARGS`` in ``cwd`` with ``env`` (None: this process's environment)
    and return what it did, stdout and stderr captured as text."""
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
