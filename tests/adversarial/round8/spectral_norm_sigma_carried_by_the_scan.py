"""spectral_norm: sigma computed at every trip inside the ``lax.scan`` (with u and v stopped, W
not) and carried out of it: the loop's last sigma is the answer, and its derivative reaches W
through the scan's carry (earlier trips' sigmas are overwritten, so they send nothing back).
u is left unnormalized in the loop (v's normalization does not see u's scale) and normalized
where sigma is formed.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _sigma = carry
        v = W.T @ u
        v = lax.stop_gradient(v / jnp.linalg.norm(v))
        u = lax.stop_gradient(W @ v)
        unit_u = u / jnp.linalg.norm(u)
        return (u, unit_u @ W @ v), None

    (_, sigma), _ = lax.scan(step, (u0, jnp.zeros((), W.dtype)), None, length=K)
    return sigma
