"""spectral_norm, wrong: sigma as ``norm(W @ v)`` where v comes out of a loop over W itself,
not stopped: the derivative runs through the K steps, which the statement forbids and which
gives other numbers where the iteration has not converged.

Problem: spectral_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    (_, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
    return jnp.linalg.norm(W @ v)
