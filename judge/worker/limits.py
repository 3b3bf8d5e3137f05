"""Worker side of the resource limits: applied to the worker itself before the submission is
imported, and used to recognise a submission that ran into one of them.

The judge chooses the values (``judge.run.sandbox.rlimits`` and ``memory_bytes``) and sends them in
the request. ``apply`` sets the CPU, file, core and task limits before JAX is imported. The
memory limit is set later, by ``limit_memory``, once JAX and its CPU backend are up: it caps the
address space at what the runtime has mapped by then plus the problem's allowance, so what JAX
and its plugins reserve and never touch (a CUDA plugin's libraries and reservations, gigabytes
of address space on a machine with ``jax[cuda]`` installed) does not count against the
submission, and everything the submission maps afterwards does, whatever the machine.

Inside the bwrap sandbox the worker has no capabilities, so limits lowered here cannot be raised
again by the submission; without the sandbox a root worker could raise them (see SECURITY.md).
"""

from __future__ import annotations

import os
import resource
import signal

#: The only limits a request's ``rlimits`` may set (the address space is ``limit_memory``'s).
ALLOWED = ("RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_CORE", "RLIMIT_NOFILE", "RLIMIT_NPROC")

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
        _lower(which, *(int(v) for v in value))
    # Python ignores SIGXFSZ, which turns an over-long write into an exception the submission
    # could catch; restored, passing RLIMIT_FSIZE ends the worker (the judge reports OLE).
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def _lower(which: int, soft: int, hard: int) -> None:
    """Set (soft, hard), never raising the current hard limit."""
    _, current_hard = resource.getrlimit(which)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
    resource.setrlimit(which, (min(soft, hard), hard))


def address_space() -> int:
    """The bytes of address space this process has mapped now (``VmSize``)."""
    with open("/proc/self/statm", "rb") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def start_runtime(jax) -> None:
    """Bring JAX to the state it reaches at a submission's first operation, without computing:
    its backend plugins searched for and imported, its CPU client created with its thread pools
    (whose stacks grow with the machine's cores)."""
    jax.devices()


def limit_memory(allowance: int | None, jax) -> int:
    """Start the runtime, then cap the address space (``RLIMIT_AS``) at what is mapped now plus
    ``allowance`` bytes; return the runtime's bytes. Nothing is capped when ``allowance`` is None.

    An allocation past the cap fails at once (NumPy and Python raise MemoryError, XLA reports
    RESOURCE_EXHAUSTED), whatever kind of mapping it asks for: heap, anonymous or shared
    mappings, files mapped into memory, thread stacks.
    """
    start_runtime(jax)
    runtime = address_space()
    if allowance is not None:
        total = runtime + int(allowance)
        _lower(resource.RLIMIT_AS, total, total)
    return runtime


def classify(error) -> str | None:
    """MEMORY or OUTPUT if an error reported for the submission is a limit being hit, else None.

    Under the address-space cap an allocation fails cleanly: NumPy and Python raise MemoryError,
    XLA raises an error whose message starts with RESOURCE_EXHAUSTED, ``mmap`` an OSError with
    ENOMEM (errno 12). A write past RLIMIT_FSIZE whose
    SIGXFSZ was ignored fails with EFBIG (errno 27).
    """
    if not isinstance(error, dict) or error.get("kind") not in ("exception", "import_error"):
        return None
    kind, message = str(error.get("type") or ""), str(error.get("message") or "")
    if kind.endswith("MemoryError") or "RESOURCE_EXHAUSTED" in message \
            or "Out of memory" in message or "bad_alloc" in message or "[Errno 12]" in message:
        return MEMORY
    if "[Errno 27]" in message:
        return OUTPUT
    return None
