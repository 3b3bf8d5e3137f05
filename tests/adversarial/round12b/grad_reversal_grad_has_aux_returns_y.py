"""grad_reversal: ``jax.grad(..., has_aux=True)`` of ``jnp.sum(r(x) * dy)`` returning r(x) as
the aux, so y and dx come out of one call.

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
        return (-lam * g,)

    r.defvjp(fwd, bwd)

    def objective(v):
        out = r(v)
        return jnp.sum(out * dy), out

    dx, y = jax.grad(objective, has_aux=True)(x)
    return {"y": y, "dx": dx}
