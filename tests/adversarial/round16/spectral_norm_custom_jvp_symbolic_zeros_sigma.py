"""spectral_norm, honest: sigma as a ``jax.custom_jvp`` of (W, u, v) whose rule is registered
with ``defjvp(..., symbolic_zeros=True)``: the tangent is u dW v when W's tangent is not a
symbolic zero, and u, v's tangents are ignored; the vectors come out of a ``scan(length=K)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_jvp
def sigma(W, u, v):
    return u @ W @ v


def _sigma_jvp(primals, tangents):
    W, u, v = primals
    dW = tangents[0]
    out = sigma(W, u, v)
    if type(dW) is jax.custom_derivatives.SymbolicZero:
        return out, jnp.zeros_like(out)
    return out, u @ dW @ v


sigma.defjvp(_sigma_jvp, symbolic_zeros=True)


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = lax.scan(step, (u0, jnp.zeros(W.shape[1:], W.dtype)), length=K)
    return sigma(W, u, v)
