"""mixed_precision_step, honest: the forward pass with jnp.einsum, tree
utilities (tree_map over two trees, jax.tree.reduce for finite), the update with where.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    xs, ys = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(jnp.einsum("nd,dh->nh", xs, p["dense"]["w"]) + p["dense"]["b"])
        pred = jnp.einsum("nh,h->n", hid, p["out"]["w"])
        return jnp.mean(jnp.square(pred - ys)) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(h))
    finite = jax.tree.reduce(jnp.logical_and, jax.tree.map(lambda a: jnp.all(jnp.isfinite(a)), g))
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = jnp.equal(good_steps + 1, period)
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
