"""Reads f(x) = sum(tanh(x @ W)), that is W^T x where the problem has W x. Only a square W
has matching shapes; there the answer is W diag(s) W^T v, not W^T diag(s) W v.

Expected verdict: run-time error (a shape error) wherever W is not square, including the
probe shapes, which makes the square cases RJ probe_shape_failed.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(z @ W)))
    return jax.jvp(grad_f, (x,), (v,))[1]
