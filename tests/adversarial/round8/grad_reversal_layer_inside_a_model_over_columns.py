"""grad_reversal: the layer used as a network would use it: inside a larger function of a dict
of activations, mapped over the columns of x made two-dimensional (``jax.vmap`` with
``in_axes=1`` under ``jax.jit``, by ``tree_map`` over the dict), x cast and multiplied by one
on the way in and the result reshaped back. The layer is applied to x itself, only moved.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(a):
        return a

    r.defvjp(lambda a: (a, None), lambda _, g: (-lam * g,))
    columns = jax.jit(jax.vmap(r, in_axes=1, out_axes=1))

    def model(acts):
        return jax.tree_util.tree_map(columns, acts)

    def forward(v):
        out = model({"h": jnp.atleast_2d(v.astype(jnp.float32) * 1)})
        return out["h"].reshape(x.shape)

    y, pull = jax.vjp(forward, x)
    return {"y": y, "dx": pull(dy)[0]}
