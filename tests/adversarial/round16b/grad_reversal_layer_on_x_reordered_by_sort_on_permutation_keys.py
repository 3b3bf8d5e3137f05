"""grad_reversal: honest code that reorders the flattened features by sorting them along a
permutation used as keys (``lax.sort((keys, flat), num_keys=1)``), applies the layer, and puts
them back with the inverse permutation; ``dx`` from ``jax.vjp`` of the whole.

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
        n = flat.shape[0]
        keys = (n - 1) - jnp.arange(n)
        _, reordered = jax.lax.sort((keys, flat), num_keys=1)
        out = r(reordered)
        return jnp.flip(out).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
