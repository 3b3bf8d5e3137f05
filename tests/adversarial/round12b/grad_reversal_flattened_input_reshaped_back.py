"""grad_reversal: x raveled to a vector before the layer (2-D inputs too), the layer applied to
the vector, its output reshaped back; the rule scales by ``-lam`` as a Python float multiplied
in ``jnp.multiply``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def layer(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        return (jnp.multiply(g, -lam),)

    layer.defvjp(fwd, bwd)

    def f(x):
        return layer(x.reshape(-1)).reshape(x.shape)

    y, back = jax.vjp(f, x)
    return {"y": y, "dx": back(dy)[0]}
