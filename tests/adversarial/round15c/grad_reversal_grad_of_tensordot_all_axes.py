"""grad_reversal: ``dx`` as ``jax.grad`` of ``jnp.tensordot(layer(a), dy, axes=a.ndim)`` (the full
contraction), the backward rule ``jnp.multiply(g, -lam)``, ``y`` from the layer.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def identity(x):
    return x


def grad_reverse(x, lam, dy):
    identity.defvjp(lambda v: (v, None), lambda _, g: (jnp.multiply(g, -lam),))
    dx = jax.grad(lambda a: jnp.tensordot(identity(a), dy, axes=a.ndim))(x)
    return {"y": identity(x), "dx": dx}
