"""The seccomp filter a sandboxed worker runs under: classic BPF that refuses new processes
(threads are allowed), mount and namespace calls, ptrace and other kernel interfaces a
submission has no use for. Built here, on the judge side; installed by bubblewrap for a fresh
worker and by ``judge.worker.isolate.lock_down`` for a warm one.
"""

from __future__ import annotations

import base64
import os
import platform
import struct
import sys

from judge.errors import SandboxError


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


def encoded(required: bool = True) -> str | None:
    """The filter in base64, as the fork server's ``config`` carries it
    (``judge.worker.forkserver``); where there is none for this machine, None unless
    ``required`` (a server without isolation then says its workers go without it)."""
    try:
        return base64.b64encode(seccomp_program()).decode()
    except SandboxError:
        if required:
            raise
        return None
