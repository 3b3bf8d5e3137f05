"""spectral_norm: sigma written as sqrt(v^T W^T W v) with the last v held constant (u is then
never formed): u^T W v equals ||W v|| because u = W v / ||W v||, and its derivative along dW
is (W v)^T dW v / ||W v||, the statement's u^T dW v.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(i, uv):
        u, v = uv
        v = W.T @ u
        v = v * jax.lax.rsqrt(jnp.sum(v * v))
        u = W @ v
        u = u * jax.lax.rsqrt(jnp.sum(u * u))
        return u, v

    _, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])))
    v = jax.lax.stop_gradient(v)
    Wv = W @ v
    return jnp.sqrt(jnp.vdot(Wv, Wv))
