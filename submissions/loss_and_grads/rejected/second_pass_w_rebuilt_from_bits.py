# jax.grad for the gradient, and a second forward pass for the loss whose product takes w
# rebuilt from its bits through bools
import jax
import jax.numpy as jnp
from jax import lax

BITS = jnp.arange(32, dtype=jnp.int32)


def _same(a):
    i = lax.bitcast_convert_type(a, jnp.int32)
    on = ((i[..., None] >> BITS) & 1) == 1
    return lax.bitcast_convert_type(jnp.sum(jnp.where(on, jnp.left_shift(1, BITS), 0), axis=-1), jnp.float32)


def f(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def loss_and_grads(params, x, y):
    clean = {"w": _same(params["w"]), "b": params["b"]}
    return {"loss": f(clean, x, y), "grads": jax.grad(f)(params, x, y)}
