import jax
import jax.numpy as jnp


@jax.jit
def forward(params, x):
    return x @ params["w"] + params["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    shifted = logits - jax.lax.stop_gradient(jnp.max(logits, axis=-1, keepdims=True))
    log_z = jnp.log(jnp.sum(jnp.exp(shifted), axis=-1))
    picked = jnp.take_along_axis(shifted, y[:, None], axis=-1)[:, 0]
    return jnp.mean(log_z - picked), logits


@jax.jit
def loss_and_grads(params, x, y):
    (loss, _logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
