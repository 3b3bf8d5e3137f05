"""grad_reversal: honest code that applies the layer to ``jnp.resize(x, x.shape)`` (a helper that
fits features to a width, here their own, which JAX writes with ``tile``), ``dx`` from
``jax.vjp`` of the whole.

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
    y, pb = jax.vjp(lambda v: r(jnp.resize(v, v.shape)), x)
    return {"y": y, "dx": pb(dy)[0]}
