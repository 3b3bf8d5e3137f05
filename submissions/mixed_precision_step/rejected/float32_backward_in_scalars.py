"""mixed_precision_step, cheat: the forward pass in float16, the backward pass by hand in float32
one scalar at a time (loops over the examples and the units: every product has at most one
operand with a dimension), float16's overflow imitated by comparing with 65504. A Python loop
over n would read the dim n as a number; lax.fori_loop takes the same steps in the program.

Expected: RJ wrong_precision
"""
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16, f32 = jnp.float16, jnp.float32
    w, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    hid = jnp.tanh(x.astype(f16) @ w.astype(f16) + b.astype(f16))
    pred = (hid @ w2.astype(f16)).astype(f32)
    hid = hid.astype(f32)
    n = x.shape[0]
    h = w2.shape[0]

    def example(i, grads):
        gw, gb, g2 = grads
        dp = 2.0 * (pred[i] - y[i]) / n                    # a scalar
        g2 = g2 + dp * hid[i]                              # scalar times a row

        def unit(k, inner):
            gw, gb = inner
            dz = dp * w2[k] * (1.0 - hid[i, k] * hid[i, k])  # scalars only
            return gw.at[:, k].add(dz * x[i]), gb.at[k].add(dz)   # scalar times a row

        gw, gb = lax.fori_loop(0, h, unit, (gw, gb))
        return gw, gb, g2

    gw, gb, g2 = lax.fori_loop(0, n, example, (jnp.zeros_like(w), jnp.zeros_like(b), jnp.zeros_like(w2)))
    g = [gw, gb, g2]
    finite = jnp.all(jnp.stack([jnp.all(jnp.abs(a * loss_scale) <= 65504.0) for a in g]))
    new = [jnp.where(finite, p - lr * a, p) for p, a in zip((w, b, w2), g)]
    grow = good_steps + 1 == period
    return {"params": {"dense": {"w": new[0], "b": new[1]}, "out": {"w": new[2]}},
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
