"""grad_reversal: the layer's rules attached with ``defvjp(fwd, bwd, optimize_remat=True)`` (JAX
then rewrites the forward rule to save no residuals it can recompute), dx from ``jax.vjp``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import functools

import jax


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def reverse(x, lam):
    return x


def _fwd(x, lam):
    return x, None


def _bwd(lam, _, g):
    return (-lam * g,)


reverse.defvjp(_fwd, _bwd, optimize_remat=True)


def grad_reverse(x, lam, dy):
    y, pull = jax.vjp(lambda a: reverse(a, lam), x)
    (dx,) = pull(dy)
    return {"y": y, "dx": dx}
