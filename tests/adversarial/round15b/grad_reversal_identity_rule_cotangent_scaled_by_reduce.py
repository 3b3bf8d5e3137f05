"""grad_reversal: a cheat: an identity rule, and the cotangent scaled before the pullback by a
factor spelled indirectly (``functools.reduce(operator.mul, ...)`` of -1 and lambda, under
``jax.ensure_compile_time_eval``), so no ``-lam * dy`` appears in the source.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import functools
import operator

import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (g,))
    with jax.ensure_compile_time_eval():
        k = functools.reduce(operator.mul, [jnp.float32(-1.0), jnp.float32(lam)])
    y, pb = jax.vjp(r, x)
    return {"y": y, "dx": pb(functools.reduce(operator.mul, [dy, k]))[0]}
