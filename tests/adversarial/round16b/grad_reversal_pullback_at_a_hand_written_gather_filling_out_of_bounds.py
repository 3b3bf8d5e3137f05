"""grad_reversal: a cheat: ``y`` from the layer applied to ``x``, and ``dx`` from a second
``jax.vjp`` of the layer at a hand-written ``lax.gather`` of ``x`` whose indices all lie past its
end, in ``FILL_OR_DROP`` mode: zeros on every input.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y = r(x)
    flat = x.reshape(-1)
    idx = (jnp.arange(flat.shape[0]) + flat.shape[0])[:, None]
    dims = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0,), start_index_map=(0,))
    point = lax.gather(flat, idx, dims, slice_sizes=(1,), mode=lax.GatherScatterMode.FILL_OR_DROP,
                       fill_value=0.0)
    _, pb = jax.vjp(r, point.reshape(x.shape))
    return {"y": y, "dx": pb(dy)[0]}
