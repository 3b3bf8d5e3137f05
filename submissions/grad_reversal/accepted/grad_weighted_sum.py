"""`from jax import custom_vjp, grad` style: dx is jax.grad of the weighted sum sum(r(x) * dy),
whose gradient with respect to x is the pullback of dy; y is r(x) itself.

Expected verdict: accepted.
"""
import jax.numpy as jnp
from jax import custom_vjp, grad


def grad_reverse(x, lam, dy):
    @custom_vjp
    def r(v):
        return v

    def r_fwd(v):
        return r(v), None

    def r_bwd(_, g):
        return (jnp.negative(g) * lam,)

    r.defvjp(r_fwd, r_bwd)
    y = r(x)
    dx = grad(lambda v: jnp.sum(r(v) * dy))(x)
    return {"y": y, "dx": dx}
