"""grad_reversal: honest code that applies the layer to ``jnp.repeat(x, 2, axis=-1)`` (each
feature doubled, as an upsampling helper does) and keeps every other entry; ``dx`` from
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

    def layer(v):
        return r(jnp.repeat(v, 2, axis=-1))[..., ::2]

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
