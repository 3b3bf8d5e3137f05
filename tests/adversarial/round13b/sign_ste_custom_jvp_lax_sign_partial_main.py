"""sign_ste: ``lax.sign`` under a ``custom_jvp`` declared with the decorator form and a
``defjvp`` rule, the tangent cast to the input's dtype; a ``__main__`` block checking float16 and
bfloat16 by hand with prints.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_jvp
def ste_quantize(x):
    return lax.sign(x)


@ste_quantize.defjvp
def _jvp(primals, tangents):
    (x,) = primals
    (t,) = tangents
    return ste_quantize(x), t.astype(x.dtype)


if __name__ == "__main__":
    for dt in (jnp.float16, jnp.bfloat16, jnp.float32):
        x = jnp.array([-2.0, 0.0, 3.0], dt)
        print(dt, ste_quantize(x), jax.grad(lambda x: ste_quantize(x).sum())(x))
