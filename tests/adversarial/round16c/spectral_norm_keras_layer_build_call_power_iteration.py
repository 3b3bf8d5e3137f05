"""spectral_norm: a Keras-style ``SpectralNormalization`` wrapper: ``build`` stores the kernel
and the first ``u``, ``call`` runs ``power_iterations`` steps in a ``fori_loop`` and returns
sigma, the vectors through ``jax.lax.stop_gradient``; ``tf.reduce_sum``-like wrappers.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def reduce_sum(x, axis=None):
    return jnp.sum(x, axis=axis)


def l2_normalize(x):
    return x * jax.lax.rsqrt(reduce_sum(jnp.square(x)))


class SpectralNormalization:
    def __init__(self, power_iterations):
        self.power_iterations = power_iterations

    def build(self, kernel, u):
        self.kernel = kernel
        self.u = u

    def call(self):
        w = jax.lax.stop_gradient(self.kernel)

        def body(_, uv):
            u, _ = uv
            v = l2_normalize(jnp.matmul(u, w))
            u = l2_normalize(jnp.matmul(w, v))
            return u, v

        u, v = jax.lax.fori_loop(0, self.power_iterations, body,
                                 (self.u, jnp.zeros_like(self.kernel[0])))
        u = jax.lax.stop_gradient(u)
        v = jax.lax.stop_gradient(v)
        return reduce_sum(u * jnp.matmul(self.kernel, v))


def spectral_norm(W, u0, K):
    layer = SpectralNormalization(K)
    layer.build(W, u0)
    return layer.call()
