"""sign_ste: a dict from dtype name to a ``functools.partial`` of one ``custom_jvp`` quantizer (the
output dtype a nondiff argument), chosen by the Python-level dtype; ``print`` at trace time.

Problem: sign_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_jvp, nondiff_argnums=(0,))
def sign_as(dtype, x):
    return jnp.sign(x).astype(dtype)


@sign_as.defjvp
def _sign_as_jvp(dtype, primals, tangents):
    (x,), (t,) = primals, tangents
    return sign_as(dtype, x), t.astype(dtype)


TABLE = {name: partial(sign_as, jnp.dtype(name)) for name in ("float32", "float16", "bfloat16")}


def ste_quantize(x):
    print("quantizing", x.dtype.name, x.shape)
    return TABLE[x.dtype.name](x)
