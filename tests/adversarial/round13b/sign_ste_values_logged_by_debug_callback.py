"""sign_ste: an honest quantizer that logs the fraction of zeros with ``jax.debug.callback``
(a debugging aid left in): the statement allows no callback.

Problem: sign_ste
Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp

LOG = []


@jax.custom_jvp
def ste_quantize(x):
    jax.debug.callback(lambda z: LOG.append(float(z)), jnp.mean(x == 0))
    return jnp.sign(x)


@ste_quantize.defjvp
def _jvp(primals, tangents):
    return ste_quantize(primals[0]), tangents[0]
