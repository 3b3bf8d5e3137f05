"""grad_reversal: honest code that gathers the flattened features by a hand-written
``lax.gather`` (indices ``arange(n)``, one entry per slice, ``mode=CLIP``): ``x`` itself, moved.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def layer(v):
        flat = v.reshape(-1)
        idx = jnp.arange(flat.shape[0])[:, None]
        dims = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,),
                                          start_index_map=(0,))
        got = lax.gather(flat, idx, dims, slice_sizes=(1,), mode=lax.GatherScatterMode.CLIP)
        return r(got).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
