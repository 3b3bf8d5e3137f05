"""mixed_precision_step: the forward pass by ``jnp.einsum`` ('nd,dh->nh', 'nh,h->n'), the
gradient flattened by ``ravel_pytree`` only to check it (``jnp.isfinite(flat).all()``), the
scale moved by a factor picked from the decisions and multiplied in.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def forward(p, x):
    hid = jnp.tanh(jnp.einsum("nd,dh->nh", x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.einsum("nh,h->n", hid, p["out"]["w"])


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = cast(params), cast(x), cast(y)
    scale16 = loss_scale.astype(jnp.float16)
    g16 = jax.grad(lambda p: jnp.mean((forward(p, x16) - y16) ** 2) * scale16)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    flat, _ = ravel_pytree(g)
    finite = jnp.isfinite(flat).all()
    grow = good_steps + 1 == period
    factor = jnp.where(finite, jnp.where(grow, 2.0, 1.0), 0.5)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params, "loss_scale": loss_scale * factor, "good_steps": new_good,
            "finite": finite}
