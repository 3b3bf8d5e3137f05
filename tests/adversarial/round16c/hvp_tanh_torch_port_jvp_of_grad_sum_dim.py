"""hvp_tanh: ported from PyTorch's ``torch.func.jvp(grad(f), ...)`` recipe: ``f`` written as
``jnp.tanh(W @ x).sum(axis=-1)``, forward over reverse, inside ``jax.named_scope``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(x):
        return jnp.tanh(W @ x).sum(axis=-1)

    with jax.named_scope("hvp"):
        _, hv = jax.jvp(jax.grad(f), (x,), (v,))
    return hv
