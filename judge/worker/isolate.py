"""Worker side of the warm-worker sandbox: the kernel calls that wall one forked child off from
the fork server and from its siblings.

The fork server (``forkserver``) runs inside one bubblewrap sandbox and forks a child per
submission. Every child shares that sandbox's filesystem, uid, network and PID namespaces with
the server and with the other children unless it leaves them; these calls make it leave them
before any code of the submission runs:

* ``new_namespaces``: new user, mount, PID, network, IPC and UTS namespaces, with the caller's
  own uid and gid mapped to themselves (no other id exists inside);
* ``private_tmpfs``: fresh, size-capped tmpfs mounts over the working directory and ``/tmp``, so
  nothing a previous child wrote is visible and nothing this one writes outlives it;
* ``private_devpts`` and ``read_only_proc``: terminals of its own, and a ``/proc`` in which it
  can change nothing (it is the server's, so other processes are listed there);
* ``lock_down``: no capabilities, not dumpable (its ``/proc`` files and memory are closed to
  siblings that share the same uid), no new privileges, and the judge's seccomp filter (no new
  processes, mounts or namespaces, no ptrace, ...). None of these needs a privilege, so a child
  the server cannot isolate (``--sandbox none``, or a machine that refuses namespaces) takes
  them all the same, those that work here (``try_lock_down``).

Linux only, through libc (ctypes): Python 3.11 has no ``os.unshare``. Every call raises
``OSError`` naming what failed; the caller turns that into an exit status the judge reports.
"""

from __future__ import annotations

import ctypes
import os
import re

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_GET_DUMPABLE, PR_SET_DUMPABLE = 1, 3, 4
PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS = 22, 38
SECCOMP_MODE_FILTER = 2
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")


def not_dumpable() -> None:
    """Close this process's ``/proc/PID`` files and memory to other processes of the same uid."""
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "prctl(PR_SET_DUMPABLE)")


def new_namespaces() -> None:
    """Move into new user, mount, PID, network, IPC and UTS namespaces. The PID namespace holds
    the caller's next child (as PID 1), not the caller."""
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    _check(_libc.unshare(flags), "unshare")
    # The maps are files of the caller's own /proc/self. While it is not dumpable (every child
    # of the server is) those belong to the root of the namespace its memory was made in, or to
    # nobody where that namespace maps no root (bubblewrap started by an ordinary user): such a
    # caller could not write them. Dumpable for these three writes only, and only once it is in
    # its new user namespace: no submission holds a capability over it (each runs in a user
    # namespace of its own, a sibling of this one), so none can trace it meanwhile.
    was = _libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)
    _check(_libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "prctl(PR_SET_DUMPABLE)")
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
        _write("/proc/self/gid_map", f"{gid} {gid} 1\n")
    finally:
        if was == 0:
            not_dumpable()
    # mounts made from now on stay in this namespace
    _check(_libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")


def _mount_points_below(path: str) -> list[str]:
    """Mount points strictly below ``path``, outermost first (``/proc/self/mountinfo`` order)."""
    prefix = path.rstrip("/") + "/"
    found: list[str] = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[4])
            if point.startswith(prefix) and not any(point.startswith(p + "/") for p in found):
                found.append(point)
    return found


def private_tmpfs(path: str, size_bytes: int, stage: str | None = None) -> None:
    """Mount an empty tmpfs of at most ``size_bytes`` at ``path``, readable only by this uid.

    What is mounted below ``path`` stays visible on top of it (bubblewrap binds a Python
    installation that lives under ``/tmp`` there, read-only): it is bound to ``stage``, an
    unused name on another private mount, first and moved back onto the new tmpfs."""
    inner = _mount_points_below(path)
    if inner:
        if stage is None:
            raise OSError(22, f"mounts below {path} and no staging folder for them")
        os.mkdir(stage, 0o700)
        _check(_libc.mount(path.encode(), stage.encode(), None, MS_BIND | MS_REC, None),
               f"bind {path} to {stage}")
    options = f"size={size_bytes},mode=0700".encode()
    _check(_libc.mount(b"tmpfs", path.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, options),
           f"mount tmpfs on {path}")
    for point in inner:
        source = os.path.join(stage, os.path.relpath(point, path))
        if os.path.isdir(source):
            os.makedirs(point, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(point), exist_ok=True)
            open(point, "a").close()
        _check(_libc.mount(source.encode(), point.encode(), None, MS_BIND | MS_REC, None),
               f"bind {point} again")
    if inner:
        _check(_libc.umount2(stage.encode(), MNT_DETACH), f"unmount {stage}")
        os.rmdir(stage)


def read_only_proc() -> None:
    """Make ``/proc`` read-only in this mount namespace. It is the server's (a fresh one cannot be
    mounted under bubblewrap's), and the judge's uid may own the other processes' files in it
    (``oom_score_adj``, ``autogroup``, ...) when the judge runs as root."""
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    _check(_libc.mount(None, b"/proc", None, flags, None), "remount /proc read-only")


def private_devpts() -> None:
    """A pseudo-terminal instance of this namespace's own at ``/dev/pts`` (``/dev/ptmx`` points
    into it), so that two workers cannot meet through a terminal."""
    _check(_libc.mount(b"devpts", b"/dev/pts", b"devpts", MS_NOSUID | MS_NOEXEC,
                       b"newinstance,ptmxmode=0666,mode=0620"), "mount devpts on /dev/pts")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def drop_capabilities() -> None:
    """Drop every capability (permitted, effective and inheritable): allowed to any process."""
    header, data = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), data), "capset")


def no_new_privs() -> None:
    """No privilege gained through ``execve`` from now on (set-uid files, file capabilities)."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")


def install_filter(seccomp_program: bytes | None) -> None:
    """Install the seccomp filter (classic BPF, as ``judge.run.seccomp.seccomp_program`` builds
    it) on the calling thread; threads it starts later inherit it."""
    if seccomp_program is None:
        raise OSError(22, "seccomp: the judge has no filter for this machine")
    if len(seccomp_program) % 8 or not seccomp_program:
        raise OSError(22, "seccomp: the filter is not a list of 8-byte instructions")
    buffer = ctypes.create_string_buffer(seccomp_program, len(seccomp_program))
    program = _SockFprog(len(seccomp_program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0),
           "prctl(PR_SET_SECCOMP)")


#: The steps of ``lock_down``, in their order.
STEPS = ("capabilities", "dumpable", "no_new_privs", "seccomp")


def _steps(seccomp_program: bytes | None) -> list:
    return list(zip(STEPS, (drop_capabilities, not_dumpable, no_new_privs,
                            lambda: install_filter(seccomp_program))))


def lock_down(seccomp_program: bytes | None, skip=()) -> None:
    """Drop every capability, become not dumpable, forbid new privileges and install the
    seccomp filter, in that order; none of these needs a privilege. ``skip``: the names of
    steps (``capabilities``, ``dumpable``, ``no_new_privs``, ``seccomp``) left out, those
    ``try_lock_down`` found to fail on this machine."""
    for name, step in _steps(seccomp_program):
        if name not in skip:
            step()


def try_lock_down(seccomp_program: bytes | None) -> dict[str, str]:
    """Take every step of ``lock_down`` that works here, in its order; why each other one
    failed, by name (empty: all held)."""
    failed = {}
    for name, step in _steps(seccomp_program):
        try:
            step()
        except (OSError, AttributeError) as exc:  # AttributeError: no such call in this libc
            failed[name] = str(exc)
    return failed
