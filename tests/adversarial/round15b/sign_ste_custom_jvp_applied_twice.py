"""sign_ste: the ``custom_jvp`` quantizer applied twice, ``q(q(x))`` (sign of a sign is the sign;
each rule passes the tangent through, so the composition is still the identity both ways).

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def q(x):
    return jnp.sign(x)


@q.defjvp
def _q_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return q(x), t


def ste_quantize(x):
    return q(q(x))
