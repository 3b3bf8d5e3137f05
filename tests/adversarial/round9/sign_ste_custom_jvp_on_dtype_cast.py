"""sign_ste: ``jax.custom_jvp`` whose rule passes the tangent through, the sign computed as
``jnp.sign`` in the input's dtype; the student defines the rule with ``@f.defjvp`` and returns
the tangent cast to x's dtype with ``astype``, under ``jax.jit``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _sign(x):
    return jnp.sign(x)


@_sign.defjvp
def _sign_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _sign(x), t.astype(x.dtype)


ste_quantize = jax.jit(_sign)
