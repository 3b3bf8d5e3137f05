"""Straight-through sign with jax.custom_vjp only. Reverse mode works, but a custom_vjp function
cannot be differentiated in forward mode, so jax.jvp raises: the function does not have the
identity as its derivative under autodiff, only under jax.vjp/jax.grad.

Expected: wrong answer (probe_failed: the JVP probe raises TypeError). The problem asks for a
function whose derivative is the identity for both VJP and JVP, so missing forward mode is a
wrong answer, not a crash of the submission.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def ste_quantize(x):
    return jnp.sign(x)


def _fwd(x):
    return jnp.sign(x), None


def _bwd(_, g):
    return (g,)


ste_quantize.defvjp(_fwd, _bwd)
