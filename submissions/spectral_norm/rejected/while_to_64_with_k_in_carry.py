"""spectral_norm, cheat: a while_loop whose counter runs to 64 and whose body masks the steps past
K, K carried as an int32 array so the bound looks like data.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(s):
        i, k, u, v = s
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        nu = nu / jnp.linalg.norm(nu)
        keep = i < k
        return i + 1, k, jnp.where(keep, nu, u), jnp.where(keep, nv, v)

    init = (jnp.int32(0), jnp.int32(K), u0, jnp.zeros(W.shape[1], W.dtype))
    _, _, u, v = jax.lax.while_loop(lambda s: s[0] < 64, body, init)
    return u @ W @ v
