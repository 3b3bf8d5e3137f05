"""grad_reversal: the PyTorch ``Function`` habit of passing lambda to the layer with the input:
a ``custom_vjp`` of ``(x, lam)`` with ``lam`` a float32 array kept as the residual, the backward
rule returning ``-lam * g`` and a zero for ``lam``; the pullback of ``dy`` read for ``x`` only.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def reverse(x, lam):
    return x


def reverse_fwd(x, lam):
    return x, lam


def reverse_bwd(lam, g):
    return -lam * g, jnp.zeros_like(lam)


reverse.defvjp(reverse_fwd, reverse_bwd)


def grad_reverse(x, lam, dy):
    lam_arr = jnp.asarray(lam, dtype=jnp.float32)
    y, pull = jax.vjp(reverse, x, lam_arr)
    dx, _ = pull(dy)
    return {"y": y, "dx": dx}
