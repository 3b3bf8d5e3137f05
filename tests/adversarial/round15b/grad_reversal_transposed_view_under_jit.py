"""grad_reversal: the layer applied to the transpose of ``atleast_2d(x)`` under ``jax.jit`` and
transposed back (a student's layer written for feature-major arrays).

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

    def fwd(v):
        return v, None

    def bwd(_, g):
        return (jnp.negative(g) * lam,)

    r.defvjp(fwd, bwd)

    @jax.jit
    def layer(v):
        return r(jnp.atleast_2d(v).T).T.reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
