"""Warm workers: tries to outlive its keeper by resetting its parent-death signal.

A forked warm worker gets SIGKILL when its keeper process ends (prctl PR_SET_PDEATHSIG); the
seccomp filter refuses to change that. At import this calls prctl(PR_SET_PDEATHSIG, 0) through
ctypes, both through libc's prctl() and the raw syscall, and raises if either returned 0
(success). Then it solves the problem correctly.

Expected: AC (both calls fail with EPERM).
"""
import ctypes
import errno
import platform

import jax
import jax.numpy as jnp

PR_SET_PDEATHSIG, PR_GET_PDEATHSIG = 1, 2
SYS_PRCTL = {"x86_64": 157, "aarch64": 167}.get(platform.machine())

libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) == 0:
    raise RuntimeError("prctl(PR_SET_PDEATHSIG, 0) succeeded: this worker would outlive its keeper")
refused = ctypes.get_errno()
if SYS_PRCTL is not None and libc.syscall(SYS_PRCTL, PR_SET_PDEATHSIG, 0, 0, 0, 0) == 0:
    raise RuntimeError("syscall(prctl, PR_SET_PDEATHSIG, 0) succeeded")
signal_now = ctypes.c_int(-1)
if libc.prctl(PR_GET_PDEATHSIG, ctypes.byref(signal_now), 0, 0, 0) == 0 and signal_now.value != 9:
    raise RuntimeError(f"the parent-death signal is {signal_now.value}, not SIGKILL")
print(f"prctl(PR_SET_PDEATHSIG, 0) refused: {errno.errorcode.get(refused, refused)}")


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        mask = (u >= qmin) & (u <= qmax)
        return scale * jnp.clip(jnp.round(u), qmin, qmax), mask

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
