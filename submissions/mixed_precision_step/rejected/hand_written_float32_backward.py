"""mixed_precision_step, cheat: the forward pass in float16 (its products and tanh are float16),
the backward pass by hand in float32 with elementwise products and sums (no dot_general, no
tanh), float16's overflow imitated by comparing the scaled gradient with 65504.

Expected: RJ wrong_precision
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16, f32 = jnp.float16, jnp.float32
    w, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    hid = jnp.tanh(x.astype(f16) @ w.astype(f16) + b.astype(f16))
    pred = hid @ w2.astype(f16)
    hid, pred = hid.astype(f32), pred.astype(f32)
    dpred = 2 * (pred - y) / x.shape[0]
    dz = dpred[:, None] * w2[None, :] * (1 - hid * hid)
    g = [jnp.sum(x[:, :, None] * dz[:, None, :], axis=0), jnp.sum(dz, axis=0),
         jnp.sum(hid * dpred[:, None], axis=0)]
    finite = jnp.all(jnp.stack([jnp.all(jnp.abs(a * loss_scale) <= 65504.0) for a in g]))
    new = [jnp.where(finite, p - lr * d, p) for p, d in zip((w, b, w2), g)]
    grow = good_steps + 1 == period
    return {"params": {"dense": {"w": new[0], "b": new[1]}, "out": {"w": new[2]}},
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
