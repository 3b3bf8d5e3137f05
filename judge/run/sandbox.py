"""The sandbox around the worker: bubblewrap namespaces, a seccomp filter and resource limits.

Judge side only; the worker never imports this module. ``judge.run.settings`` asks ``resolve``
which mode a command uses; ``judge.run.supervisor`` asks ``bwrap_argv`` for the command line that
starts the worker inside bubblewrap, and ``rlimits`` for the resource limits the worker applies
to itself before it imports anything of the submission's (see ``judge.worker.limits``).

Modes (``--sandbox``, else the environment variable ``JUDGE_SANDBOX``, else the command's
default: ``bwrap`` for the commands that grade others' code, ``judge grade``, ``judge batch`` and
``judge service``, which so never grade unsandboxed unless told; ``auto`` for the author's
commands on their own files, ``judge check``, ``generate``, ``fill``, and for the library):

* ``bwrap``: the worker runs under bubblewrap; if bwrap cannot start here, grading stops with a
  ``SandboxError`` naming the cause.
* ``auto``: ``bwrap`` when a probe (run once per process) shows that it works, otherwise the
  plain worker, with a one-line warning on stderr saying what is not protected.
* ``none``: the plain worker (still with its resource limits and the judge's deadlines), with
  the same warning.

Inside the bwrap sandbox the worker has new user, PID (it is PID 1), network (only a loopback
of its own: the host's network and loopback are unreachable), IPC, UTS and cgroup namespaces,
its own session, and dies with the judge. It sees, read-only, only the Python installation
(prefixes and site-packages) and the folders the judge found JAX and NumPy in (PYTHONPATH's
included; ``judge.run.imports``), the system libraries, and ``judge/__init__.py``
plus ``judge/worker/`` under ``LIBDIR``; a private, size-capped tmpfs at ``WORKDIR`` (its working
directory, holding a copy of the submission) and another at ``/tmp``; a fresh ``/proc`` and a
minimal, read-only ``/dev``. It runs as uid/gid 65534 with no capabilities, cannot create user
namespaces, and a seccomp filter refuses new processes (threads are allowed), mount and
namespace calls, ptrace and a few other kernel interfaces a submission has no use for. The
threat model is in ``SECURITY.md``.
"""

from __future__ import annotations

import math
import os
import shutil
import site
import subprocess
import sys
import threading
from pathlib import Path

from judge.errors import SandboxError
from judge.run import imports
from judge.run.seccomp import seccomp_fd

MODES = ("auto", "bwrap", "none")
ENV_VAR = "JUDGE_SANDBOX"
#: The bubblewrap executable (looked up on PATH).
BWRAP = "bwrap"
#: The submission's private working directory inside the sandbox (a tmpfs).
WORKDIR = "/sandbox"
#: Where the judge's compilation cache appears, read-only (``judge.run.cache``).
CACHE_MOUNT = "/xla-cache"
#: Where ``judge/__init__.py`` and ``judge/worker/`` are mounted read-only inside the sandbox.
LIBDIR = "/opt/judge-worker"
#: uid and gid of the worker inside the sandbox ("nobody").
SANDBOX_ID = 65534
#: Size of each of the two private tmpfs mounts (WORKDIR and /tmp).
TMPFS_BYTES = 64 * 1024 * 1024
#: System library locations bound read-only (a symlink, as in merged-/usr layouts, is recreated).
#: ``/usr/lib`` itself only where there are no multiarch folders (``/usr/lib/x86_64-linux-gnu``).
SYSTEM_PATHS = ("/usr/lib64", "/usr/lib32", "/usr/libx32", "/lib", "/lib64", "/lib32", "/libx32",
                "/etc/ld.so.cache")

PACKAGE_DIR = Path(__file__).resolve().parents[1]       # .../judge
PACKAGE_PARENT = PACKAGE_DIR.parent                     # the checkout, or site-packages

#: Environment variables passed through to the worker; everything else is dropped.
ENV_ALLOWLIST = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")

#: A worker's compute pools, one thread each. JAX's CPU client sizes its intra-op pool (Eigen's,
#: which runs products and other library calls) by ``PJRT_NPROC`` (else the cores it may use),
#: and OpenBLAS and OpenMP, under NumPy and SciPy, by theirs: each as wide as the machine
#: otherwise. A worker evaluates a submission's small operations one after another, and a batch
#: runs one worker per core, so wider pools only start threads that wait for work (thread
#: creation and wake-ups are system calls, slow under gVisor) and contend with the other
#: workers. One thread also keeps a worker's values from depending on the machine's core count:
#: Eigen may split a large product's sum over its pool's threads, and so round it differently.
#: (On a 13-core machine five problems' values and gradients, and a class's verdicts and
#: scores, came out the same with either; docs/install.md.)
SINGLE_THREADED = {"PJRT_NPROC": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                   "MKL_NUM_THREADS": "1"}

UNPROTECTED = ("the submission can read every file the judge can read (hidden cases and "
               "reference included), use the network, write outside its directory and see "
               "other processes; only resource limits and deadlines apply")


# --- choosing a mode -------------------------------------------------------------------------

def requested_mode(mode: str | None = None, default: str = "auto") -> str:
    """The mode asked for: the argument, else $JUDGE_SANDBOX, else ``default``."""
    source = "--sandbox"
    if mode is None:
        mode, source = os.environ.get(ENV_VAR) or default, ENV_VAR
    mode = mode.strip().lower()
    if mode not in MODES:
        raise SandboxError(f"{source}: unknown sandbox mode {mode!r} "
                           f"(choose from {', '.join(MODES)})")
    return mode


def resolve(mode: str | None = None, python: str = sys.executable, *, quiet: bool = False,
            default: str = "auto") -> str:
    """``"bwrap"`` or ``"none"`` for a command's runs (``judge.run.settings``). Warns on stderr
    when unsandboxed (unless ``quiet``); raises SandboxError when bwrap is required but fails
    (``default``: the mode when neither ``mode`` nor $JUDGE_SANDBOX says one)."""
    say = (lambda text: None) if quiet else warn
    asked = mode if mode is not None else os.environ.get(ENV_VAR) or None
    mode = requested_mode(mode, default)
    if mode == "none":
        say(f"sandbox disabled (--sandbox none): {UNPROTECTED}")
        return "none"
    problem = probe(python)
    if problem is None:
        return "bwrap"
    if mode == "bwrap" and asked is None:
        raise SandboxError(f"the bwrap sandbox cannot start ({problem}), and this command grades "
                           f"nothing without it unless told to: install bubblewrap, or pass "
                           f"--sandbox none to run the code unsandboxed ({UNPROTECTED})")
    if mode == "bwrap":
        raise SandboxError(f"--sandbox bwrap: the sandbox cannot start: {problem}")
    say(f"bwrap sandbox unavailable ({problem}); grading without it: {UNPROTECTED}")
    return "none"


def warn(text: str) -> None:
    print(f"judge: warning: {' '.join(text.split())}", file=sys.stderr, flush=True)


_probe_lock = threading.Lock()
_probe_cache: dict[str, str | None] = {}


def probe(python: str = sys.executable) -> str | None:
    """None if the bwrap sandbox works here for ``python``, else why not. Runs the interpreter
    once inside the full sandbox, without ``site`` (``-S``: what the installation's ``.pth``
    files import is no question about the sandbox, and took most of the probe's CPU time where
    they import much); the answer is cached for the life of this process."""
    with _probe_lock:
        if python not in _probe_cache:
            _probe_cache[python] = _probe(python)
        return _probe_cache[python]


def _probe(python: str) -> str | None:
    if not sys.platform.startswith("linux"):
        return "bubblewrap needs Linux"
    if shutil.which(BWRAP) is None:
        return f"{BWRAP} not found on PATH (install the bubblewrap package)"
    try:
        seccomp = seccomp_fd()
    except SandboxError as exc:
        return str(exc)
    try:
        argv = bwrap_argv(python, ["-I", "-S", "-B", "-c", "pass"], seccomp_fd=seccomp)
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, pass_fds=(seccomp,), timeout=60,
                              env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    except SandboxError as exc:
        return str(exc)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{BWRAP} could not be run: {exc}"
    finally:
        os.close(seccomp)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"{BWRAP} exited with status {done.returncode}" + (f": {lines[-1]}" if lines else "")
    return None


# --- environment and resource limits --------------------------------------------------------

def worker_env(workdir: str, cache_dir: str | None = None, cache_settings: dict | None = None) -> dict:
    """A worker's whole environment: a few variables of the judge's, the rest fixed here.
    ``cache_dir`` and ``cache_settings`` point JAX at the judge's compilation cache."""
    env = {k: os.environ[k] for k in ENV_ALLOWLIST if k in os.environ}
    env.update({
        "HOME": workdir, "TMPDIR": workdir, "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0", "JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "2",
        # One malloc arena per thread reserves 64 MiB of address space each; with two arenas
        # a thread that JAX starts during a case adds no arena to what the submission is
        # charged (the address space beyond the runtime's; see ``memory_bytes``).
        "MALLOC_ARENA_MAX": "2",
    })
    env.update(SINGLE_THREADED)
    env.update(cache_settings or {})
    if cache_dir:
        env["JAX_COMPILATION_CACHE_DIR"] = cache_dir
    return env


def rlimits(limits: dict) -> dict[str, list[int]]:
    """The resource limits the worker sets on itself before JAX is imported, from a problem's
    ``limits``.

    RLIMIT_CPU's soft limit raises SIGXCPU, its hard limit (2 s later) SIGKILL. RLIMIT_FSIZE caps
    every file the worker writes, the per-case capture of stdout/stderr included. No core files.
    The memory limit is ``memory_bytes``: the worker sets it itself once JAX is up.
    """
    cpu = max(1, math.ceil(float(limits["cpu_s"])))
    output = int(limits["output_kb"]) * 1024
    return {"RLIMIT_CPU": [cpu, cpu + 2], "RLIMIT_FSIZE": [output, output], "RLIMIT_CORE": [0, 0]}


def memory_bytes(limits: dict) -> int:
    """The address space a submission may add to its worker's, from ``limits.memory_mb``.

    The worker caps its address space (RLIMIT_AS) at what JAX has mapped once its CPU backend is
    up plus this allowance (``judge.worker.limits.limit_memory``), so the runtime's own
    reservations, which grow with the machine's cores and installed plugins, are not counted
    and the submission's allowance is the same on every machine (see SECURITY.md).
    """
    return int(limits["memory_mb"]) * 1024 * 1024


# --- the bubblewrap command line -------------------------------------------------------------

def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _python_roots(python: str) -> list[Path]:
    """Folders holding the interpreter, its standard library and the packages the worker needs
    (wherever the judge found them: ``judge.run.imports``)."""
    found: list[Path] = []
    for p in (sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix,
              *site.getsitepackages(), os.path.dirname(os.path.realpath(python)), *imports.roots()):
        found.append(Path(p))
    roots: list[Path] = []
    for p in found:
        for candidate in (Path(os.path.abspath(p)), Path(os.path.realpath(p))):
            if candidate.is_dir() and candidate not in roots:
                roots.append(candidate)
    return roots


def _protected(hide) -> list[Path]:
    """Folders no mount may contain: the home directory, the judge's checkout (when it is one)
    and whatever the caller names (the submission's folder)."""
    out = [Path(os.path.realpath(h)) for h in hide]
    home = Path(os.path.realpath(os.path.expanduser("~")))
    if home != Path("/"):
        out.append(home)
    if any((PACKAGE_PARENT / marker).exists() for marker in ("problems", ".git", "pyproject.toml")):
        out.append(PACKAGE_PARENT)
    return out


def bwrap_argv(python: str, worker_args: list[str], *, seccomp_fd: int | None,
               submission_fd: int | None = None, hide=(), read_only=(),
               allow_userns: bool = False) -> list[str]:
    """The bwrap command line that runs ``python worker_args...`` in the sandbox.

    ``submission_fd`` (readable) is copied to ``WORKDIR/submission.py``; ``seccomp_fd`` holds the
    filter from ``seccomp_program``; ``read_only`` holds extra (source, target) folders to mount
    read-only (the judge's compilation cache). Raises SandboxError if a needed mount would
    expose one of the protected folders.

    The warm-worker fork server (``judge.run.warm``) runs with ``allow_userns`` and no seccomp
    filter: its children make their own namespaces, then install the filter themselves before
    a submission runs (``judge.worker.isolate``).
    """
    binds: list[Path] = []
    for root in _python_roots(python):
        binds.append(root)
    links: list[tuple[str, str]] = []
    multiarch = sorted(str(p) for p in Path("/usr/lib").glob("*-linux-gnu*") if p.is_dir())
    for name in (*(multiarch or ["/usr/lib"]), *SYSTEM_PATHS):
        if os.path.islink(name):
            links.append((os.readlink(name), name))
        elif os.path.exists(name):
            binds.append(Path(name))
    protected = _protected(hide)
    chosen: list[Path] = []
    for path in sorted(set(binds), key=lambda p: (len(p.parts), str(p))):
        if any(_is_within(path, c) for c in chosen):
            continue  # already visible through a parent
        for secret in protected:
            if _is_within(secret, path):
                raise SandboxError(f"mounting {path} into the sandbox would expose {secret}; "
                                   f"install Python and JAX outside it")
        chosen.append(path)

    argv = [shutil.which(BWRAP) or BWRAP,
            "--unshare-all", "--unshare-user", *([] if allow_userns else ["--disable-userns"]),
            "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--uid", str(SANDBOX_ID), "--gid", str(SANDBOX_ID), "--hostname", "judge"]
    # The private /tmp comes first, so that a Python installation under /tmp (a virtual
    # environment in a checkout there) is mounted on top of it rather than hidden by it.
    argv += ["--size", str(TMPFS_BYTES), "--tmpfs", "/tmp"]
    for path in chosen:
        argv += ["--ro-bind", str(path), str(path)]
    for target, name in links:
        argv += ["--symlink", target, name]
    argv += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "0700", "--size", str(TMPFS_BYTES), "--tmpfs", WORKDIR,
             "--ro-bind", str(PACKAGE_DIR / "__init__.py"), f"{LIBDIR}/judge/__init__.py",
             "--ro-bind", str(PACKAGE_DIR / "worker"), f"{LIBDIR}/judge/worker"]
    for source, target in read_only:
        for secret in protected:
            if _is_within(secret, Path(source)):
                raise SandboxError(f"mounting {source} into the sandbox would expose {secret}")
        argv += ["--ro-bind", str(source), str(target)]
    if submission_fd is not None:
        argv += ["--perms", "0644", "--file", str(submission_fd), f"{WORKDIR}/submission.py"]
    # The root and /dev (whose tmpfs, /dev/shm included, has no size cap) become read-only;
    # WORKDIR and /tmp are separate, capped mounts and stay writable.
    argv += ["--remount-ro", "/", "--remount-ro", "/dev", "--chdir", WORKDIR]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--", python, *worker_args]
    return argv
