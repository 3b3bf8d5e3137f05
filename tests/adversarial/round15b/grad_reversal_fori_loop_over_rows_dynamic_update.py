"""grad_reversal: the layer applied row by row in a ``jax.lax.fori_loop`` over the rows of
``atleast_2d(x)`` (a Python-int count: the rows are known at trace time), each row read with
``lax.dynamic_index_in_dim`` and written into the output with ``lax.dynamic_update_index_in_dim``;
``dx`` from ``jax.vjp`` through the loop.

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
        rows = jnp.atleast_2d(v)

        def body(i, out):
            row = jax.lax.dynamic_index_in_dim(rows, i, keepdims=False)
            return jax.lax.dynamic_update_index_in_dim(out, r(row), i, axis=0)

        return jax.lax.fori_loop(0, rows.shape[0], body, jnp.zeros_like(rows)).reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
