import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(u, _):
        v = W.T @ u
        v = v * jax.lax.rsqrt(v @ v)
        u = W @ v
        u = u * jax.lax.rsqrt(u @ u)
        return u, v

    u, vs = jax.lax.scan(step, u0, jnp.arange(K), reverse=True)
    u, v = jax.lax.stop_gradient((u, vs[0]))  # reverse: the last step's v is stacked first
    return jnp.einsum("i,ij,j->", u, W, v, optimize=True)
