"""loss_and_grads, cheat: the loss, then jax.grad of the same loss, the second pass's product in
float16 and cast back (a product in any type counts).

Expected: RJ repeated_computation
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y, half=False):
    if half:
        logits = (x.astype(jnp.float16) @ params["w"].astype(jnp.float16)).astype(jnp.float32)
    else:
        logits = x @ params["w"]
    logits = logits + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    return {"loss": _loss(params, x, y, half=True), "grads": jax.grad(_loss)(params, x, y)}
