"""loss_and_grads: a logsumexp of its own with a ``jax.custom_jvp`` (the softmax as its tangent
map), which ``jax.value_and_grad`` transposes.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def lse(z):
    m = jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    return jnp.log(jnp.sum(jnp.exp(z - m), axis=-1)) + m[..., 0]


@lse.defjvp
def _lse_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    out = lse(z)
    p = jnp.exp(z - out[..., None])
    return out, jnp.sum(p * dz, axis=-1)


def loss_and_grads(params, x, y):
    def f(p):
        z = x @ p["w"] + p["b"]
        return jnp.mean(lse(z) - jnp.take_along_axis(z, y[:, None], axis=-1)[:, 0])

    loss, grads = jax.value_and_grad(f)(params)
    return {"loss": loss, "grads": grads}
