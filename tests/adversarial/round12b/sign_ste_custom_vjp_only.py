"""sign_ste: a ``jax.custom_vjp`` whose backward passes the cotangent through; right in reverse
mode, but JAX cannot take a ``jax.jvp`` of a custom_vjp function, and the judge takes one.

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def ste_quantize(x):
    return jnp.sign(x)


ste_quantize.defvjp(lambda x: (jnp.sign(x), None), lambda _, g: (g,))
