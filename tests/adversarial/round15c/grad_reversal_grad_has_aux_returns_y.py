"""grad_reversal: ``jax.grad(..., has_aux=True)`` of the weighted sum, returning the layer's output
as the auxiliary value, so ``y`` and ``dx`` come from one call.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def grl(v):
        return v

    grl.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def objective(a):
        out = grl(a)
        return jnp.sum(out * dy), out

    dx, y = jax.grad(objective, has_aux=True)(x)
    return {"y": y, "dx": dx}
