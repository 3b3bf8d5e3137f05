"""mixed_precision_step, honest: the forward pass by ``jnp.einsum`` in float16, the loss's mean
as ``jnp.sum(...) / n`` with n from ``x.shape``, the gradient by ``value_and_grad`` (the value
dropped), and finite as ``~(isnan | isinf)`` reduced with ``jnp.logical_and.reduce`` over the
stacked per-leaf answers.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    c16 = lambda t: jax.tree.map(lambda a: a.astype("float16"), t)
    p16, x16, y16 = c16(params), c16(x), c16(y)
    n = x.shape[0]

    def scaled(p):
        hid = jnp.tanh(jnp.einsum("nd,dh->nh", x16, p["dense"]["w"]) + p["dense"]["b"])
        r = jnp.einsum("nh,h->n", hid, p["out"]["w"]) - y16
        return jnp.sum(r * r) / n * loss_scale.astype("float16")

    _, g16 = jax.value_and_grad(scaled)(p16)
    g = jax.tree.map(lambda a: a.astype("float32") / loss_scale, g16)
    ok = [jnp.all(~(jnp.isnan(a) | jnp.isinf(a))) for a in jax.tree.leaves(g)]
    finite = jnp.logical_and.reduce(jnp.stack(ok))
    grow = finite & (good_steps + 1 == period)
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    scale = jnp.select([grow, finite], [2 * loss_scale, loss_scale], loss_scale / 2)
    steps = jnp.select([grow, finite], [0, good_steps + 1], 0).astype(jnp.int32)
    return {"params": new, "loss_scale": scale, "good_steps": steps, "finite": finite}
