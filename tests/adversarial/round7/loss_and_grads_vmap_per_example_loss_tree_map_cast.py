"""loss_and_grads: the per-example loss mapped with ``jax.vmap`` and averaged inside the function
``jax.value_and_grad`` differentiates (the gradient of the mean, not a mean of per-example
gradients), under ``jax.jit``, with the gradients cast to the parameters' dtypes by
``tree_map``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def loss_and_grads(params, x, y):
    def per_example(p, xi, yi):
        logits = xi @ p["w"] + p["b"]
        return -jax.nn.log_softmax(logits)[yi]

    def batch_loss(p):
        return jnp.mean(jax.vmap(per_example, in_axes=(None, 0, 0))(p, x, y))

    loss, grads = jax.value_and_grad(batch_loss)(params)
    grads = jax.tree_util.tree_map(lambda g, p: g.astype(p.dtype), grads, params)
    return {"loss": loss.astype(jnp.float32), "grads": grads}
