"""The sandbox around the worker: bubblewrap namespaces, a seccomp filter and resource limits.

Judge side only; the worker never imports this module. ``judge.run.runner`` asks ``resolve`` which
mode to use, ``bwrap_argv`` for the command line that starts the worker inside bubblewrap, and
``rlimits`` for the resource limits the worker applies to itself before it imports anything of
the submission's (see ``judge.worker.limits``).

Modes (``--sandbox``, else the environment variable ``JUDGE_SANDBOX``, else ``auto``):

* ``bwrap``: the worker runs under bubblewrap; if bwrap cannot start here, grading stops with a
  ``SandboxError`` naming the cause.
* ``auto``: ``bwrap`` when a probe (run once per process) shows that it works, otherwise the
  plain worker, with a one-line warning on stderr on every run saying what is not protected.
* ``none``: the plain worker (still with its resource limits and the judge's deadlines), with
  the same warning.

Inside the bwrap sandbox the worker has new user, PID (it is PID 1), network (only a loopback
of its own: the host's network and loopback are unreachable), IPC, UTS and cgroup namespaces,
its own session, and dies with the judge. It sees, read-only, only the Python installation
(prefixes and site-packages, wherever JAX is), the system libraries, and ``judge/__init__.py``
plus ``judge/worker/`` under ``LIBDIR``; a private, size-capped tmpfs at ``WORKDIR`` (its working
directory, holding a copy of the submission) and another at ``/tmp``; a fresh ``/proc`` and a
minimal, read-only ``/dev``. It runs as uid/gid 65534 with no capabilities, cannot create user
namespaces, and a seccomp filter refuses new processes (threads are allowed), mount and
namespace calls, ptrace and a few other kernel interfaces a submission has no use for. The
threat model is in ``SECURITY.md``.
"""

from __future__ import annotations

import atexit
import importlib.util
import math
import os
import platform
import shutil
import site
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.errors import JudgeError

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
#: Modules whose location must be visible inside the sandbox.
NEEDED_MODULES = ("jax", "jaxlib", "numpy", "ml_dtypes", "opt_einsum", "scipy")
#: System library locations bound read-only (a symlink, as in merged-/usr layouts, is recreated).
#: ``/usr/lib`` itself only where there are no multiarch folders (``/usr/lib/x86_64-linux-gnu``).
SYSTEM_PATHS = ("/usr/lib64", "/usr/lib32", "/usr/libx32", "/lib", "/lib64", "/lib32", "/libx32",
                "/etc/ld.so.cache")

PACKAGE_DIR = Path(__file__).resolve().parents[1]       # .../judge
PACKAGE_PARENT = PACKAGE_DIR.parent                     # the checkout, or site-packages

#: Environment variables passed through to the worker; everything else is dropped.
ENV_ALLOWLIST = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")

UNPROTECTED = ("the submission can read every file the judge can read (hidden cases and "
               "reference included), use the network, write outside its directory and see "
               "other processes; only resource limits and deadlines apply")


class SandboxError(JudgeError):
    """The requested sandbox cannot be used (exit status 2 from the CLI)."""


# --- choosing a mode -------------------------------------------------------------------------

def requested_mode(mode: str | None = None) -> str:
    """The mode asked for: the argument, else $JUDGE_SANDBOX, else ``auto``."""
    source = "--sandbox"
    if mode is None:
        mode, source = os.environ.get(ENV_VAR) or "auto", ENV_VAR
    mode = mode.strip().lower()
    if mode not in MODES:
        raise SandboxError(f"{source}: unknown sandbox mode {mode!r} "
                           f"(choose from {', '.join(MODES)})")
    return mode


def resolve(mode: str | None = None, python: str = sys.executable, *, quiet: bool = False) -> str:
    """``"bwrap"`` or ``"none"`` for one run. Warns on stderr whenever the run is unsandboxed
    (unless ``quiet``); raises SandboxError when bwrap was required and cannot start."""
    say = (lambda text: None) if quiet else warn
    mode = requested_mode(mode)
    if mode == "none":
        say(f"sandbox disabled (--sandbox none): {UNPROTECTED}")
        return "none"
    problem = probe(python)
    if problem is None:
        return "bwrap"
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
    once inside the full sandbox; the answer is cached for the life of this process."""
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
        argv = bwrap_argv(python, ["-I", "-B", "-c", "pass"], seccomp_fd=seccomp)
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
        # JAX starts in about 0.6 GiB instead of 1.5 GiB, which leaves RLIMIT_AS meaningful.
        "MALLOC_ARENA_MAX": "2",
    })
    env.update(cache_settings or {})
    if cache_dir:
        env["JAX_COMPILATION_CACHE_DIR"] = cache_dir
    return env


def rlimits(limits: dict) -> dict[str, list[int]]:
    """The resource limits the worker sets on itself, from a problem's ``limits``.

    RLIMIT_AS is the memory limit (cgroups are not used; see SECURITY.md). RLIMIT_CPU's soft
    limit raises SIGXCPU, its hard limit (2 s later) SIGKILL. RLIMIT_FSIZE caps every file the
    worker writes, the per-case capture of stdout/stderr included. No core files.
    """
    memory = int(limits["memory_mb"]) * 1024 * 1024
    cpu = max(1, math.ceil(float(limits["cpu_s"])))
    output = int(limits["output_kb"]) * 1024
    return {"RLIMIT_AS": [memory, memory], "RLIMIT_CPU": [cpu, cpu + 2],
            "RLIMIT_FSIZE": [output, output], "RLIMIT_CORE": [0, 0]}


# --- the task bound: a pids cgroup per run ---------------------------------------------------

#: Exit status of the first process of a fresh worker that could not join its task group.
JOIN_FAILED = 71


class TaskGroup:
    """A pids cgroup of one run: the kernel refuses a new task (process or thread) of the
    worker beyond ``limit``, and ``exceeded`` tells whether it had to.

    The worker's first process joins it before anything else runs (a fresh worker through
    ``join_argv``; a warm one by writing ``0`` to ``procs_fd``, passed to the fork server, whose
    opener's credentials the kernel checks), and every task it starts inherits it. ``close``
    kills whatever is still in the group and removes it.
    """

    def __init__(self, path: Path, limit: int):
        self.path, self.limit = path, limit
        (path / "pids.max").write_text(str(limit))
        self.procs_fd = os.open(path / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)

    def join_argv(self, argv: list[str]) -> list[str]:
        """``argv`` started by a shell that first moves itself into this group."""
        return ["/bin/sh", "-c", f'echo 0 > "$0" || exit {JOIN_FAILED}; exec "$@"',
                str(self.path / "cgroup.procs"), *argv]

    def exceeded(self) -> bool:
        """Has the kernel refused a task of this group (``pids.events``)?"""
        try:
            events = (self.path / "pids.events").read_text()
        except OSError:
            return False
        return any(line.split()[:1] == ["max"] and line.split()[1:2] != ["0"]
                   for line in events.splitlines())

    def close(self) -> None:
        try:
            os.close(self.procs_fd)
        except OSError:
            pass
        for attempt in range(50):
            try:
                pids = (self.path / "cgroup.procs").read_text().split()
            except OSError:
                pids = []
            for pid in pids:
                try:
                    os.kill(int(pid), 9)
                except (ProcessLookupError, PermissionError, ValueError):
                    pass
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02 * (attempt + 1) if attempt < 10 else 0.2)


_groups_lock = threading.Lock()
_groups: dict = {"parent": None, "why": None, "count": 0}


def _pids_hierarchy() -> Path | None:
    """This process's own cgroup in a hierarchy with the pids controller (v1, or v2 with pids
    enabled for its children), or None."""
    try:
        own = {}
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            own[controllers] = path
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    for line in mounts:
        fields = line.split()
        if " - " not in line:
            continue
        after = line.split(" - ", 1)[1].split()
        fstype, options = after[0], after[2].split(",") if len(after) > 2 else []
        point = Path(fields[4])
        if fstype == "cgroup" and "pids" in options:
            key = next((k for k in own if "pids" in k.split(",")), None)
            if key is not None:
                return point / own[key].lstrip("/")
    for line in mounts:
        after = line.split(" - ", 1)[1].split() if " - " in line else []
        if after and after[0] == "cgroup2" and "" in own:
            base = Path(line.split()[4]) / own[""].lstrip("/")
            try:
                if "pids" in (base / "cgroup.subtree_control").read_text().split():
                    return base
            except OSError:
                return None
    return None


def _task_parent() -> Path | None:
    """This process's folder of task groups (made once, removed at exit), or None where no pids
    cgroup can be made here."""
    with _groups_lock:
        if _groups["parent"] is None and _groups["why"] is None:
            base = _pids_hierarchy()
            if base is None:
                _groups["why"] = "no pids cgroup hierarchy"
            else:
                _remove_stale(base)
                parent = base / f"jax-judge-{os.getpid()}"
                try:
                    parent.mkdir(exist_ok=True)
                    control = parent / "cgroup.subtree_control"
                    if control.exists() and "pids" not in control.read_text().split():
                        control.write_text("+pids")  # cgroup v2: enable pids for the runs
                    _groups["parent"] = parent
                    atexit.register(_remove_parent, parent)
                except OSError as exc:
                    _groups["why"] = f"cannot make a pids cgroup under {base}: {exc.strerror}"
        return _groups["parent"]


def _remove_parent(parent: Path) -> None:
    try:
        parent.rmdir()
    except OSError:
        pass


def _remove_stale(base: Path) -> None:
    """Remove the empty task groups of judge processes that died without cleaning up."""
    for parent in base.glob("jax-judge-*"):
        pid = parent.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or Path(f"/proc/{pid}").exists():
            continue
        for group in parent.glob("run-*"):
            try:
                group.rmdir()
            except OSError:
                pass
        _remove_parent(parent)


def bound_tasks(limit: int, mode: str) -> tuple[TaskGroup | None, dict[str, list[int]]]:
    """How one run's tasks are bounded: a pids cgroup of its own where one can be made (this
    needs write access to a pids hierarchy, as root on most hosts); else, in the bwrap sandbox
    of a judge that is not root, ``RLIMIT_NPROC`` (returned as a resource limit for the
    worker), which the kernel counts in the sandbox's own user namespace; else nothing (root
    ignores RLIMIT_NPROC, and without bwrap it would count all of the judge's processes). See
    SECURITY.md."""
    parent = _task_parent() if sys.platform.startswith("linux") else None
    if parent is not None:
        with _groups_lock:
            _groups["count"] += 1
            path = parent / f"run-{_groups['count']}"
        try:
            path.mkdir()
            try:
                return TaskGroup(path, limit), {}
            except OSError:
                path.rmdir()
                raise
        except OSError:
            pass
    if mode == "bwrap" and os.geteuid() != 0:
        return None, {"RLIMIT_NPROC": [limit, limit]}
    return None, {}


# --- the bubblewrap command line -------------------------------------------------------------

def _is_within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _python_roots(python: str) -> list[Path]:
    """Folders holding the interpreter, its standard library and the packages the worker needs."""
    found: list[Path] = []
    for p in (sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix,
              *site.getsitepackages(), os.path.dirname(os.path.realpath(python))):
        found.append(Path(p))
    for name in NEEDED_MODULES:
        try:
            spec = importlib.util.find_spec(name)  # locates without importing
        except (ImportError, ValueError):
            continue
        if spec is not None and spec.origin and spec.origin not in ("built-in", "frozen"):
            origin = Path(spec.origin)
            found.append(origin.parent.parent if origin.name == "__init__.py" else origin.parent)
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


# --- the seccomp filter ----------------------------------------------------------------------

# Syscall numbers from the kernel's uapi headers (asm/unistd_64.h; asm-generic/unistd.h for arm64).
_X86_64 = {
    "prctl": 157, "fork": 57, "vfork": 58, "clone": 56, "clone3": 435, "unshare": 272,
    "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "ptrace": 101,
    "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
    "request_key": 249, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "open_by_handle_at": 304, "name_to_handle_at": 303, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
    "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
    "delete_module": 176, "acct": 163, "swapon": 167, "swapoff": 168, "reboot": 169,
    "quotactl": 179, "syslog": 103,
}
_AARCH64 = {
    "prctl": 167, "clone": 220, "clone3": 435, "unshare": 97, "setns": 268, "mount": 40,
    "umount2": 39, "pivot_root": 41, "chroot": 51, "ptrace": 117, "process_vm_readv": 270,
    "process_vm_writev": 271, "keyctl": 219, "add_key": 217, "request_key": 218, "bpf": 280,
    "perf_event_open": 241, "userfaultfd": 282, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "open_by_handle_at": 265, "name_to_handle_at": 264,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "mount_setattr": 442, "kexec_load": 104, "kexec_file_load": 294,
    "init_module": 105, "finit_module": 273, "delete_module": 106, "acct": 89, "swapon": 224,
    "swapoff": 225, "reboot": 142, "quotactl": 60, "syslog": 116,
}
#: machine -> (AUDIT_ARCH_*, syscall numbers, x32 ABI bit to refuse or None)
_ARCHES = {"x86_64": (0xC000003E, _X86_64, 0x40000000), "aarch64": (0xC00000B7, _AARCH64, None)}

_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL_PROCESS, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_EPERM, _ENOSYS = 1, 38
_CLONE_THREAD = 0x00010000
_PR_SET_PDEATHSIG = 1


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def seccomp_program(machine: str | None = None) -> bytes:
    """A classic-BPF seccomp filter (the format ``bwrap --seccomp`` reads).

    Allows everything except: a foreign syscall ABI (the process is killed); new processes
    (fork, vfork, clone without CLONE_THREAD: EPERM; clone3: ENOSYS, so that threads fall back
    to clone, whose flags the filter can read); changing the signal sent at the parent's death
    (a warm worker must die with its keeper, ``judge.worker.forkserver``); namespace and mount
    calls; ptrace and process_vm_*; keyrings, bpf, perf events, userfaultfd, io_uring, file
    handles; module, kexec, swap, reboot, accounting, quota and syslog calls (EPERM).
    """
    machine = machine or platform.machine()
    if machine not in _ARCHES or sys.byteorder != "little":
        raise SandboxError(f"no seccomp filter for the {machine} architecture")
    arch, nrs, x32_bit = _ARCHES[machine]
    prog = [_insn(_LD_W_ABS, 4),                      # A = seccomp_data.arch
            _insn(_JEQ, arch, 1, 0),
            _insn(_RET, _KILL_PROCESS),
            _insn(_LD_W_ABS, 0)]                      # A = seccomp_data.nr
    if x32_bit is not None:
        prog += [_insn(_JGE, x32_bit, 0, 1), _insn(_RET, _ERRNO | _ENOSYS)]
    prog += [_insn(_JEQ, nrs["clone"], 0, 4),
             _insn(_LD_W_ABS, 16),                    # low 32 bits of args[0]: clone's flags
             _insn(_JSET, _CLONE_THREAD, 0, 1),
             _insn(_RET, _ALLOW),
             _insn(_RET, _ERRNO | _EPERM),
             _insn(_JEQ, nrs["clone3"], 0, 1),
             _insn(_RET, _ERRNO | _ENOSYS),
             _insn(_JEQ, nrs["prctl"], 0, 4),
             _insn(_LD_W_ABS, 16),                    # low 32 bits of args[0]: the option
             _insn(_JEQ, _PR_SET_PDEATHSIG, 0, 1),
             _insn(_RET, _ERRNO | _EPERM),
             _insn(_LD_W_ABS, 0)]                     # A = seccomp_data.nr again
    for name, nr in sorted(nrs.items()):
        if name not in ("clone", "clone3", "prctl"):
            prog += [_insn(_JEQ, nr, 0, 1), _insn(_RET, _ERRNO | _EPERM)]
    prog.append(_insn(_RET, _ALLOW))
    return b"".join(prog)


def seccomp_fd() -> int:
    """A readable descriptor holding the seccomp program (the caller closes it)."""
    program = seccomp_program()
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, program)  # far below the pipe's buffer size
    finally:
        os.close(write_fd)
    return read_fd
