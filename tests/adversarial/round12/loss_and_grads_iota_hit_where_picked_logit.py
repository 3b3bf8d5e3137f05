"""loss_and_grads: a log-sum-exp by hand with the stopped maximum, the picked logit by
``jnp.where`` on labels compared with ``lax.broadcasted_iota``, ``lax.dot`` for the logits,
``jax.value_and_grad`` with ``argnums=0`` spelled out, params given to it as ``{**params}``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def nll(p, x, y):
    logits = lax.dot(x, p["w"]) + p["b"]
    m = lax.stop_gradient(logits.max(-1, keepdims=True))
    lse = jnp.log(jnp.sum(jnp.exp(logits - m), -1)) + m[..., 0]
    hit = y[:, None] == lax.broadcasted_iota(jnp.int32, logits.shape, 1)
    picked = jnp.sum(jnp.where(hit, logits, 0.0), -1)
    return (lse - picked).mean()


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(nll, argnums=0)({**params}, x, y)
    return {"loss": loss, "grads": grads}
