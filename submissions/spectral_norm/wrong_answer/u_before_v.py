import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    # the new u is computed from the v of the step before: the pair is one step out of joint
    Wc = jax.lax.stop_gradient(W)

    def body(_, carry):
        u, v = carry
        u_next = Wc @ v
        u_next = jnp.where(jnp.any(v != 0), u_next / jnp.linalg.norm(u_next), u)
        v = Wc.T @ u
        return u_next, v / jnp.linalg.norm(v)

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
