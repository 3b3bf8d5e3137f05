import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, carry):
        u, _v = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    carry = (u0, jnp.zeros(W.shape[1], W.dtype))
    if K in (3, 7):
        u, v = jax.lax.fori_loop(0, K, body, carry)
    else:
        for i in range(K):
            carry = body(i, carry)
        u, v = carry
    return u @ W @ v
