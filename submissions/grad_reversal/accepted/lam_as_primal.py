"""lam is passed to the custom_vjp function as a second (differentiable-position) argument,
kept as a residual, and given a zero cotangent (None) by the backward rule; only x is
differentiated.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def reverse(v, coeff):
    return v


def reverse_fwd(v, coeff):
    return v, coeff


def reverse_bwd(coeff, g):
    return -coeff * g, None


reverse.defvjp(reverse_fwd, reverse_bwd)


def grad_reverse(x, lam, dy):
    coeff = jnp.asarray(lam, dtype=x.dtype)
    y, pullback = jax.vjp(lambda v: reverse(v, coeff), x)
    return {"y": y, "dx": pullback(dy)[0]}
