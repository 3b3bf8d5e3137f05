"""mixed_precision_step: the gradient by forward-mode autodiff, ``jax.jacfwd`` of the scaled
float16 loss, everything else as the statement says. Forward mode never forms the scaled
derivative of the loss by pred, where the statement's reverse-mode gradient overflows on some
cases: there it reports a finite gradient and takes the step that ``jax.grad`` skips.

Problem: mixed_precision_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = cast(params), cast(x), cast(y)

    def loss(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.jacfwd(loss)(p16))
    finite = jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]).all()
    params2 = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    nxt = good_steps + 1
    full = nxt == period
    return {"params": params2,
            "loss_scale": jnp.where(finite, jnp.where(full, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, nxt, jnp.zeros_like(nxt)),
            "finite": finite}
