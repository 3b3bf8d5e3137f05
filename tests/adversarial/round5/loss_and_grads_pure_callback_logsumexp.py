"""loss_and_grads: the stable log-sum-exp computed on the host with NumPy through
``jax.pure_callback``, inside a ``jax.custom_jvp`` so autodiff still works.

Problem: loss_and_grads
Expected: RJ callback_used
"""

import jax
import jax.numpy as jnp
import numpy as np


def _host_lse(z):
    z = np.asarray(z)
    m = z.max(axis=-1)
    return (m + np.log(np.exp(z - m[:, None]).sum(axis=-1))).astype(np.float32)


@jax.custom_jvp
def lse(z):
    return jax.pure_callback(_host_lse, jax.ShapeDtypeStruct(z.shape[:1], z.dtype), z)


@lse.defjvp
def _lse_jvp(primals, tangents):
    (z,), (dz,) = primals, tangents
    out = lse(z)
    return out, jnp.sum(jnp.exp(z - out[:, None]) * dz, axis=-1)


def loss_and_grads(params, x, y):
    def loss_fn(p):
        z = x @ p["w"] + p["b"]
        return jnp.mean(lse(z) - jnp.take_along_axis(z, y[:, None], 1)[:, 0])

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return {"loss": loss, "grads": grads}
