"""grad_reversal: honest code that applies the layer to ``jnp.roll(x, 1)`` and rolls the output
back (a ring buffer of features), ``dx`` from ``jax.vjp`` of the whole.

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
        return jnp.roll(r(jnp.roll(v, 1)), -1)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
