"""sign_ste: a cheat: the sign computed in NumPy through ``jax.pure_callback`` reached with
``operator.attrgetter`` on a joined name, made differentiable by a stopped-value sum.

Problem: sign_ste
Expected: RJ
"""
import operator

import jax
import jax.numpy as jnp
import numpy as np


def ste_quantize(x):
    cb = operator.attrgetter("".join(["pure", "_", "call", "back"]))(jax)
    s = cb(lambda a: np.sign(a).astype(a.dtype), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    sg = jax.lax.stop_gradient
    return sg(s) + (x - sg(x))
