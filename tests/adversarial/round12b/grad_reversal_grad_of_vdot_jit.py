"""grad_reversal: the rule built by a closure over λ, ``dx`` by ``jax.grad`` of
``jnp.vdot(r(x), dy)`` under ``jax.jit``, ``y`` by calling r again; the backward written
``jnp.negative(g) * lam``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def reversal(lam):
    @jax.custom_vjp
    def r(x):
        return x

    r.defvjp(lambda x: (x, ()), lambda res, g: (jnp.negative(g) * lam,))
    return r


def grad_reverse(x, lam, dy):
    r = reversal(lam)
    dx = jax.jit(jax.grad(lambda v: jnp.vdot(r(v), dy)))(x)
    return {"y": r(x), "dx": dx}
