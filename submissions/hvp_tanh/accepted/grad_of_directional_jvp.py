import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(x):
        return jnp.tanh(jnp.dot(W, x)).sum()

    def directional(x):
        return jax.jvp(f, (x,), (v,))[1]

    return jax.grad(directional)(x)
