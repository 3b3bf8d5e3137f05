import jax
import jax.numpy as jnp


@jax.jit
def _objective(params, x, y):
    logits = jnp.matmul(x, params["w"]) + params["b"][None, :]
    m = jnp.max(logits, axis=1, keepdims=True)
    logz = m[:, 0] + jnp.log(jnp.sum(jnp.exp(logits - m), axis=1))
    picked = jnp.take_along_axis(logits, y[:, None].astype(jnp.int32), axis=1)[:, 0]
    loss = jnp.mean(logz - picked)
    return loss, loss


def loss_and_grads(params, x, y):
    grads, loss = jax.grad(_objective, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": jax.tree_util.tree_map(jnp.asarray, grads)}
