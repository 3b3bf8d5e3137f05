"""grad_reversal: honest code whose backward rule chooses with ``jax.lax.cond`` on a Python bool
(``lam == 0``) and lambdas between zeros and ``-lam * g``; the layer applied to
``x * jnp.float32(1)`` (a cast one).

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    def bwd(_, g):
        return (jax.lax.cond(lam == 0, lambda h: jnp.zeros_like(h), lambda h: -lam * h, g),)

    r.defvjp(lambda v: (v, None), bwd)
    one = jnp.int32(1).astype(jnp.float32)
    y, pb = jax.vjp(lambda v: r(v * one), x)
    return {"y": y, "dx": pb(dy)[0]}
