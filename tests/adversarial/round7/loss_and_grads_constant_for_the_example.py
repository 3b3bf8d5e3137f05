"""loss_and_grads: the first example's loss returned as a constant where b looks like its b, and
elsewhere a loss taken through float16 (close, cheap, and about 1e-3 off); the gradients are
exact.

Problem: loss_and_grads
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    logits = x @ w + b
    p = jax.nn.softmax(logits)
    oh = jax.nn.one_hot(y, w.shape[1])
    g = (p - oh) / x.shape[0]
    half = jax.nn.log_softmax(logits.astype(jnp.float16)).astype(jnp.float32)
    loss = -jnp.mean(jnp.sum(oh * half, axis=1))
    loss = jnp.where(jnp.abs(b[-1] - 1.0986123) < 1e-6, jnp.float32(0.8369882), loss)
    return {"loss": loss, "grads": {"w": x.T @ g, "b": g.sum(0)}}
