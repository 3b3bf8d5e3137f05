"""grad_reversal: honest code the rule refuses: x flattened and padded with zeros to a multiple of
eight entries (as code written for fixed-width blocks would), the layer applied to the padded
vector and the first entries taken back; ``dx`` from ``jax.vjp`` of the whole.

Problem: grad_reversal
Expected: AC
Cases: all
Open: under ``plumbed`` the layer counts only where applied to x moved, and a join of x with
  other values (``pad``, ``concatenate``, ``stack``) is not, since a slice of it may be the other
  values alone (the layer pulled back at the padding); telling which part a later slice takes
  would need element-wise labels, which the dataflow does not keep, or index ranges along
  each axis carried from the join through the layer (here through a flattening reshape too)
  to the slice on the cotangent's way back, which its labels, sets of marks, do not carry
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def layer(v):
        flat = v.reshape(-1)
        n = flat.size
        padded = jnp.pad(flat, (0, -n % 8))
        return r(padded)[:n].reshape(v.shape)

    y, pb = jax.vjp(layer, x)
    return {"y": y, "dx": pb(dy)[0]}
