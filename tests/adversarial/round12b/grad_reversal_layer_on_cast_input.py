"""grad_reversal: the layer applied to ``x.astype(jnp.float32)`` (a cast, already float32) and to
its output ``jnp.asarray``-ed, λ turned into a float with ``float(lam)`` on the Python side.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    k = float(lam)

    @jax.custom_vjp
    def r(v):
        return v

    def fwd(v):
        return r(v), None

    def bwd(_, g):
        return (-k * g,)

    r.defvjp(fwd, bwd)
    y, back = jax.vjp(lambda v: jnp.asarray(r(v.astype(jnp.float32))), x)
    return {"y": y, "dx": back(dy)[0]}
