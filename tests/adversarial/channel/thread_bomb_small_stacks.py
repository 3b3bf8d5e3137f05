"""Starts sleeping threads with the smallest stacks Python allows (32 KiB), up to 2000 of them
(the issue's ctypes variant, 16 KiB stacks, fits 82,000 under the memory limit, more than the
host's pid_max), then returns honest values.

Expected: RTE task_limit where the judge can bound tasks (a pids cgroup; before: AC).
"""
import threading
import time

import jax


@jax.custom_vjp
def double(v):
    return 2 * v


def _fwd(v):
    return 2 * v, None


def _bwd(_, g):
    return (2 * g,)


double.defvjp(_fwd, _bwd)


def honest(x, cotangent):
    values, pullback = jax.vjp(double, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}


def twice(x, k, cotangent):
    threading.stack_size(32 * 1024)
    while threading.active_count() < 2000:
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
    return honest(x, cotangent)
