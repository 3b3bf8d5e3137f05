"""hvp_tanh: ``f`` with ``jnp.dot(W, z, precision="highest")``, the product by ``jax.jvp`` of
``jax.grad(f)`` with the tangent ``v`` cast by ``jnp.asarray(v, dtype=x.dtype)``; a keyword-only
``precision`` argument in the helper.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _f(W, z, *, precision="highest"):
    return jnp.sum(jnp.tanh(jnp.dot(W, z, precision=precision)))


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: _f(W, z))
    return jax.jvp(grad_f, (x,), (jnp.asarray(v, dtype=x.dtype),))[1]
