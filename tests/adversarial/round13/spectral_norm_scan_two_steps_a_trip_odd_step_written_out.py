"""spectral_norm: two steps to a trip of a ``lax.scan`` of K // 2 trips (none at K = 1: a scan
of length 0 is still a scan), the odd K's last step written out after it (a Python branch on
the static K), on the stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def one(u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    def two(carry, _):
        u, _ = one(carry[0])
        return one(u), None

    carry = (u0, jnp.zeros(W.shape[1], W.dtype))
    carry, _ = jax.lax.scan(two, carry, None, length=K // 2)
    if K % 2:
        carry = one(carry[0])
    u, v = carry
    return u @ W @ v
