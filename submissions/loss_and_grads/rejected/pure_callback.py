import jax
import jax.numpy as jnp
import numpy as np


def _loss(logits, y):
    z = logits - logits.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return np.float32(-logp[np.arange(len(y)), y].mean())


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    loss = jax.pure_callback(_loss, jax.ShapeDtypeStruct((), jnp.float32), logits, y)
    p = jax.nn.softmax(logits) - jax.nn.one_hot(y, logits.shape[1])
    delta = p / x.shape[0]
    return {"loss": loss, "grads": {"w": x.T @ delta, "b": delta.sum(0)}}
