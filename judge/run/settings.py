"""How a judge command runs its workers, decided once: the sandbox mode and the Python.

``Settings.resolve(option)`` turns ``--sandbox auto|bwrap|none`` (``None``: $JUDGE_SANDBOX, else
the command's default, ``auto`` unless it says ``default="bwrap"``; see ``judge.run.sandbox``) into the mode every run of the command uses. It probes
bubblewrap (once per process) and prints the warning about an unsandboxed judge once. The CLI
builds one per command; the library entries (``grading.grade``, ``grading.reference_outputs``,
``batch.run_batch``, ``check.check_problem``, ``mutants_run.run``, ``serve.serve``) also take the
plain option and resolve it once themselves (``of``), then pass the ``Settings`` down.

A requested sandbox that cannot be used (``--sandbox bwrap`` where bwrap cannot start, an unknown
mode in $JUDGE_SANDBOX) is not raised here: the reason is kept, and ``check`` raises it as
``SandboxError`` where it has always been raised, when a worker is about to run
(``supervisor.run_worker``) or a server to start (``serve.serve``). So a submission the source gate
refuses still gets its verdict; ``judge batch`` checks it before its first submission, so a class
is not recorded as ungraded one student at a time.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from judge.run import imports, sandbox as sandboxing


@dataclass(frozen=True)
class Settings:
    sandbox: str | None = "none"   # "bwrap" or "none" (None when ``error`` is set)
    python: str = sys.executable   # the interpreter that runs the workers
    error: str | None = None       # why the requested sandbox cannot be used (``check``)

    @classmethod
    def resolve(cls, option: str | None = None, python: str = sys.executable, *,
                quiet: bool = False, default: str = "auto", ask: bool = True) -> "Settings":
        """The settings for ``--sandbox option``; warns on stderr, once, when the runs will be
        unsandboxed (unless ``quiet``). With ``ask`` (the default), the workers' Python is asked
        meanwhile where it imports JAX from (``imports.check_soon``); a command whose one run
        will be forked from a warm server leaves that to the server (``imports.agrees``)."""
        imports.check_soon(python, ask)
        try:
            return cls(sandboxing.resolve(option, python, quiet=quiet, default=default), python)
        except sandboxing.SandboxError as exc:
            return cls(None, python, str(exc))

    def check(self) -> "Settings":
        """These settings, if a worker can run with them; else raise ``SandboxError``."""
        if self.error is not None:
            raise sandboxing.SandboxError(self.error)
        return self


def of(value: "Settings | str | None", *, quiet: bool = False) -> Settings:
    """``value`` itself when it is already resolved, else ``Settings.resolve(value)``."""
    return value if isinstance(value, Settings) else Settings.resolve(value, quiet=quiet)
