# jax.grad for the gradient, and a second forward pass for the loss whose product takes w
# rebuilt bit by bit (one (d, k) bool per bit) through bools
import jax
import jax.numpy as jnp
from jax import lax


def _same(a):
    i = lax.bitcast_convert_type(a, jnp.int32)
    out = jnp.zeros_like(i)
    for b in range(32):
        out = out | jnp.where(((i >> b) & 1) == 1, jnp.int32(1) << b, 0)
    return lax.bitcast_convert_type(out, jnp.float32)


def f(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def loss_and_grads(params, x, y):
    clean = {"w": _same(params["w"]), "b": params["b"]}
    return {"loss": f(clean, x, y), "grads": jax.grad(f)(params, x, y)}
