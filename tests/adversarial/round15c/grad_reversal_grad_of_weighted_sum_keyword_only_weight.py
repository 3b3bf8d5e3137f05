"""grad_reversal: ``dx`` as ``jax.grad`` of a weighted sum written as a helper with a keyword-only
``weight`` argument, ``y`` from a separate call of the layer; the layer built by a factory that
takes ``lam`` by keyword.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make_layer(*, lam):
    f = jax.custom_vjp(lambda v: v)
    f.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    return f


def weighted(fn, a, *, weight):
    return jnp.sum(fn(a) * weight)


def grad_reverse(x, lam, dy):
    layer = make_layer(lam=lam)
    dx = jax.grad(lambda a: weighted(layer, a, weight=dy))(x)
    return {"y": layer(x), "dx": dx}
