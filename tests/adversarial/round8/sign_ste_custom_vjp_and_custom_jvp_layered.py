"""sign_ste: a ``jax.custom_vjp`` (backward: the cotangent unchanged) for reverse mode, wrapped in
a ``jax.custom_jvp`` (tangent unchanged) for forward mode, so each mode meets a rule of its own;
reverse mode transposes the outer rule's identity tangent map, so the inner rule never runs.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def _inner(x):
    return jnp.sign(x)


_inner.defvjp(lambda x: (jnp.sign(x), None), lambda _, g: (g,))


@jax.custom_jvp
def ste_quantize(x):
    return _inner(x)


@ste_quantize.defjvp
def _jvp(primals, tangents):
    return ste_quantize(primals[0]), tangents[0]
