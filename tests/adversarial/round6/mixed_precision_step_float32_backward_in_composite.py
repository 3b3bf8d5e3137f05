"""mixed_precision_step: the float16 network under a ``jax.custom_vjp`` whose backward rule
calls a ``lax.composite`` named "fp16.backward": inside it, the backward pass in float32 (its
matrix products and 1 - tanh^2 on float32 operands), cast to float16 on the way out. The
composite is one equation whose body holds the float32 work.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp
from jax import lax


def _backward32(W, b, w2, x, dpred):
    up = lambda a: a.astype(jnp.float32)
    hid = jnp.tanh(up(x) @ up(W) + up(b))
    dz = (up(dpred)[:, None] * up(w2)[None, :]) * (1 - hid * hid)
    return ((up(x).T @ dz).astype(jnp.float16), dz.sum(0).astype(jnp.float16),
            (hid.T @ up(dpred)).astype(jnp.float16))


_backward = lax.composite(_backward32, name="fp16.backward")


@jax.custom_vjp
def _pred(W, b, w2, x):
    return jnp.tanh(x @ W + b) @ w2


def _fwd(W, b, w2, x):
    return _pred(W, b, w2, x), (W, b, w2, x)


def _bwd(res, dpred):
    W, b, w2, x = res
    gW, gb, gw2 = _backward(W, b, w2, x, dpred)
    return gW, gb, gw2, jnp.zeros_like(x)


_pred.defvjp(_fwd, _bwd)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jnp.float16
    W, b, w2 = params["dense"]["w"].astype(h), params["dense"]["b"].astype(h), params["out"]["w"].astype(h)
    x16, y16 = x.astype(h), y.astype(h)

    def scaled(W, b, w2):
        return jnp.mean((_pred(W, b, w2, x16) - y16) ** 2) * loss_scale.astype(h)

    gW, gb, gw2 = (a.astype(jnp.float32) / loss_scale for a in jax.grad(scaled, argnums=(0, 1, 2))(W, b, w2))
    finite = jnp.isfinite(gW).all() & jnp.isfinite(gb).all() & jnp.isfinite(gw2).all()
    upd = lambda p, d: jnp.where(finite, p - lr * d, p)
    wrap = good_steps + 1 == period
    return {"params": {"dense": {"w": upd(params["dense"]["w"], gW), "b": upd(params["dense"]["b"], gb)},
                       "out": {"w": upd(params["out"]["w"], gw2)}},
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
