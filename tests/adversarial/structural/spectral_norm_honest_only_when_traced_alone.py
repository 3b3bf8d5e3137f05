"""spectral_norm: Python state across calls. The rules' own traces come first in the worker that
makes them, at the rule's own values of K and the first example's concrete shapes, then the
traces at the values of K drawn for the grade, with symbolic dims; the cases' programs are
traced with symbolic dims too. This module tells them apart by what it saw: in a worker whose
first call had concrete shapes, the first two values of K it is called at with symbols are
taken for the drawn ones and loop with lax.fori_loop; any other call (a case's program, in
the same worker after the traces or in a worker of its own) unrolls the steps in Python where
K is small (under the equation cap) beside a scan that only counts. The program each case ran
is compared with those traced at the values drawn for the grade.

Problem: spectral_norm
Expected: RJ unrolled_loop
"""

import jax
import jax.numpy as jnp

_first = []
_drawn = []


def _step(Wc, u):
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return u / jnp.linalg.norm(u), v


def _traced_for_the_rules(W, K) -> bool:
    concrete = all(isinstance(d, int) for d in W.shape)
    if not _first:
        _first.append(concrete)
    if concrete:
        return True
    if _first[0] and (K in _drawn or len(_drawn) < 2):
        if K not in _drawn:
            _drawn.append(K)
        return True
    return False


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    if _traced_for_the_rules(W, K) or K > 20:
        u, v = jax.lax.fori_loop(0, K, lambda _, c: _step(Wc, c[0]), (u0, jnp.zeros(W.shape[1], W.dtype)))
    else:
        u, v = u0, jnp.zeros(W.shape[1], W.dtype)
        for _ in range(K):
            u, v = _step(Wc, u)
        u = u + 0.0 * jax.lax.fori_loop(0, K, lambda i, c: c + 1.0, jnp.float32(0.0))
    return u @ W @ v
