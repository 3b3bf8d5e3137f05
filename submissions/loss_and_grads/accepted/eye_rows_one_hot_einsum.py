import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    k = w.shape[1]
    logits = x @ w + b
    m = jnp.max(logits, axis=1, keepdims=True)
    shifted = logits - m
    lse = jnp.log(jnp.sum(jnp.exp(shifted), axis=1))
    onehot = jnp.eye(k, dtype=jnp.float32)[y]
    target = jnp.einsum("nk,nk->n", onehot, shifted)
    n = x.shape[0]
    loss = jnp.mean(lse - target)
    p = jnp.exp(shifted - lse[:, None])
    d = (p - onehot) / n
    return {"loss": loss, "grads": {"w": jnp.einsum("nd,nk->dk", x, d), "b": d.sum(0)}}
