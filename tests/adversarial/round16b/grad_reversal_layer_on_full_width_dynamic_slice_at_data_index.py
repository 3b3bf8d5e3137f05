"""grad_reversal: honest code that takes the layer's input with ``lax.dynamic_slice`` at a start
read from the data (the position of the largest entry, as a windowing helper does) over the full
width: JAX clamps the start, so the window is ``x`` itself on every input.

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
        start = jnp.argmax(flat)
        window = jax.lax.dynamic_slice(flat, (start,), (flat.shape[0],))
        return r(window).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
