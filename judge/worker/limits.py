"""Worker side of the resource limits: applied to the worker itself before JAX or the submission
is imported, and used to recognise a submission that ran into one of them.

The judge chooses the values (``judge.run.sandbox.rlimits``) and sends them in the request. Inside the
bwrap sandbox the worker has no capabilities, so limits lowered here cannot be raised again by
the submission; without the sandbox a root worker could raise them (see SECURITY.md).
"""

from __future__ import annotations

import resource
import signal

#: The only limits a request may set.
ALLOWED = ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_CORE", "RLIMIT_NOFILE",
           "RLIMIT_NPROC")

#: Causes a worker may report when it stops early (protocol ``halt`` message).
MEMORY, OUTPUT = "memory_limit", "output_limit"


def apply(rlimits: dict | None) -> None:
    """Lower each named limit to (soft, hard); never raise a limit above its current hard value."""
    for name, value in (rlimits or {}).items():
        if name not in ALLOWED:
            raise ValueError(f"unknown resource limit {name!r}")
        which = getattr(resource, name, None)
        if which is None:  # not on this platform
            continue
        soft, hard = (int(v) for v in value)
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY:
            hard = min(hard, current_hard)
        resource.setrlimit(which, (min(soft, hard), hard))
    # Python ignores SIGXFSZ, which turns an over-long write into an exception the submission
    # could catch; restored, passing RLIMIT_FSIZE ends the worker (the judge reports OLE).
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def classify(error) -> str | None:
    """MEMORY or OUTPUT if an error reported for the submission is a limit being hit, else None.

    Under RLIMIT_AS an allocation fails cleanly: NumPy and Python raise MemoryError, XLA raises
    an error whose message starts with RESOURCE_EXHAUSTED. A write past RLIMIT_FSIZE whose
    SIGXFSZ was ignored fails with EFBIG (errno 27).
    """
    if not isinstance(error, dict) or error.get("kind") not in ("exception", "import_error"):
        return None
    kind, message = str(error.get("type") or ""), str(error.get("message") or "")
    if kind.endswith("MemoryError") or "RESOURCE_EXHAUSTED" in message \
            or "Out of memory" in message or "bad_alloc" in message:
        return MEMORY
    if "[Errno 27]" in message:
        return OUTPUT
    return None
