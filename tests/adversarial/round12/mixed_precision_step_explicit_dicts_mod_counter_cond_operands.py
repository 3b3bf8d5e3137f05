"""mixed_precision_step: params cast and rebuilt as explicit dicts, the loss's gradient with
``jax.value_and_grad`` (argnums 0) of the scaled loss, the counter as ``(good_steps + 1) %
period`` and the scale doubled where that is 0, one ``lax.cond`` on ``finite`` with the
state passed as its operand.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = {"dense": {"w": params["dense"]["w"].astype(f16), "b": params["dense"]["b"].astype(f16)},
           "out": {"w": params["out"]["w"].astype(f16)}}

    def scaled(p):
        hid = jnp.tanh(x.astype(f16) @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y.astype(f16)
        return jnp.mean(err ** 2) * loss_scale.astype(f16)

    _, g16 = jax.value_and_grad(scaled, argnums=0)(p16)
    g = {"dense": {"w": g16["dense"]["w"].astype(jnp.float32) / loss_scale,
                   "b": g16["dense"]["b"].astype(jnp.float32) / loss_scale},
         "out": {"w": g16["out"]["w"].astype(jnp.float32) / loss_scale}}
    finite = (jnp.isfinite(g["dense"]["w"]).all() & jnp.isfinite(g["dense"]["b"]).all()
              & jnp.isfinite(g["out"]["w"]).all())

    def on_finite(state):
        p, s, c = state
        c = (c + 1) % period
        s = jnp.where(c == 0, s * 2, s)
        p = {"dense": {"w": p["dense"]["w"] - lr * g["dense"]["w"],
                       "b": p["dense"]["b"] - lr * g["dense"]["b"]},
             "out": {"w": p["out"]["w"] - lr * g["out"]["w"]}}
        return p, s, c

    def on_overflow(state):
        p, s, _ = state
        return p, s / 2, jnp.int32(0)

    p, s, c = jax.lax.cond(finite, on_finite, on_overflow, (params, loss_scale, good_steps))
    return {"params": p, "loss_scale": s, "good_steps": c.astype(jnp.int32), "finite": finite}
