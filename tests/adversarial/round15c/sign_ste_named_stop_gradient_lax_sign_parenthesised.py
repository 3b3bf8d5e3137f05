"""sign_ste: ``sg = jax.lax.stop_gradient`` assigned to a name, the sign by ``jax.lax.sign``, the
identity part ``(x - sg(x))`` parenthesised and added to the stopped sign with ``jnp.add``,
an ``assert x.ndim == 1`` and a ``__main__`` block.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

sg = jax.lax.stop_gradient


def ste_quantize(x):
    assert x.ndim == 1
    return jnp.add(sg(jax.lax.sign(x)), (x - sg(x)))


if __name__ == "__main__":
    x = jnp.array([-2.0, 0.0, 3.0])
    print(ste_quantize(x), jax.grad(lambda a: ste_quantize(a).sum())(x))
