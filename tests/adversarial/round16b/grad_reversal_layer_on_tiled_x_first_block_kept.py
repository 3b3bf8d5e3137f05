"""grad_reversal: honest code that applies the layer to ``jnp.tile(x, 2)`` (a helper written for
two views of the features) and keeps the first copy; ``dx`` from ``jax.vjp`` of the whole, the
second copy getting no cotangent.

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

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def layer(v):
        flat = v.reshape(-1)
        both = r(jnp.tile(flat, 2))
        return both[: flat.shape[0]].reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
