"""mixed_precision_step, honest: no tree utilities, every leaf written out; the loss by einsum
of the hidden units; finite as not (any isnan or any isinf); the switch of state by lax.switch
on an index built from finite and grow.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    w = params["dense"]["w"].astype(f16)
    b = params["dense"]["b"].astype(f16)
    w2 = params["out"]["w"].astype(f16)

    def scaled(p):
        hid = jnp.tanh(jnp.einsum("nd,dh->nh", x.astype(f16), p["w"]) + p["b"])
        pred = jnp.einsum("nh,h->n", hid, p["w2"])
        return jnp.mean((pred - y.astype(f16)) ** 2) * loss_scale.astype(f16)

    g16 = jax.grad(scaled)({"w": w, "b": b, "w2": w2})
    g = {k: a.astype(jnp.float32) / loss_scale for k, a in g16.items()}
    bad = jnp.zeros((), bool)
    for k in ("w", "b", "w2"):
        bad = bad | jnp.any(jnp.isnan(g[k])) | jnp.any(jnp.isinf(g[k]))
    finite = ~bad
    step = lambda p, d: jnp.where(finite, p - lr * d, p)
    new = {"dense": {"w": step(params["dense"]["w"], g["w"]), "b": step(params["dense"]["b"], g["b"])},
           "out": {"w": step(params["out"]["w"], g["w2"])}}
    index = jnp.where(finite, jnp.where(good_steps + 1 == period, 2, 1), 0)
    scale, good = jax.lax.switch(index, [
        lambda: (loss_scale / 2, jnp.int32(0)),
        lambda: (loss_scale, good_steps + 1),
        lambda: (loss_scale * 2, jnp.int32(0)),
    ])
    return {"params": new, "loss_scale": scale, "good_steps": good, "finite": finite}
