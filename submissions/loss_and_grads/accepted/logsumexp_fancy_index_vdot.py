"""loss_and_grads, honest: logsumexp minus the target logit picked by fancy indexing, the mean as
a vdot with a constant vector, jax.value_and_grad.

Expected: AC
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]

    def loss(p):
        logits = x @ p["w"] + p["b"]
        per = jax.nn.logsumexp(logits, axis=1) - logits[jnp.arange(n), y]
        return jnp.vdot(jnp.full((n,), 1.0 / n, jnp.float32), per)

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
