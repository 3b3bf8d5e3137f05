"""grad_reversal: honest code that reorders the flattened features by a permutation with
``jnp.take(..., mode="clip")``, applies the layer, and undoes the order with the inverse
permutation; ``dx`` from ``jax.vjp`` of the whole.

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
        perm = (jnp.arange(n) * 3 + 1) % n if n % 3 else jnp.arange(n)[::-1]
        inverse = jnp.argsort(perm)
        out = r(jnp.take(flat, perm, mode="clip"))
        return jnp.take(out, inverse, mode="clip").reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
