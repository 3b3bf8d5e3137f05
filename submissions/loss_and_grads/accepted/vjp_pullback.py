import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    nll = -jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1)
    return nll.mean()


def loss_and_grads(params, x, y):
    loss, pullback = jax.vjp(lambda p: loss_fn(p, x, y), params)
    (grads,) = pullback(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
