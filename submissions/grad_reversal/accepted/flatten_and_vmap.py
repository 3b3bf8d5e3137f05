"""The reversal works on scalars and is vmapped over the flattened input; the 2-D shape is
restored afterwards. The backward rule still produces every entry of dx.

Expected verdict: accepted.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(s):
        return s

    def rev_fwd(s):
        return s, None

    def rev_bwd(_, g):
        return (-lam * g,)

    rev.defvjp(rev_fwd, rev_bwd)
    flat = jax.vmap(rev)
    y, pullback = jax.vjp(lambda v: flat(v.reshape(-1)).reshape(v.shape), x)
    return {"y": y, "dx": pullback(dy)[0]}
