"""grad_reversal: the layer applied to ``x.reshape(-1)`` (the cotangent flattened the same way and
the result put back with ``reshape(x.shape)``), a plain ``print`` of the shapes at trace time, a
docstring and a ``__main__`` self-test.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    """Identity forward, -lam times the cotangent backward."""

    @jax.custom_vjp
    def layer(v):
        return v

    def layer_fwd(v):
        return v, None

    def layer_bwd(_, g):
        return (-lam * g,)

    layer.defvjp(layer_fwd, layer_bwd)
    print("grad_reverse:", x.shape, dy.shape)
    flat_y, pull = jax.vjp(layer, x.reshape(-1))
    (flat_dx,) = pull(dy.reshape(-1))
    return {"y": flat_y.reshape(x.shape), "dx": flat_dx.reshape(x.shape)}


if __name__ == "__main__":
    out = grad_reverse(jnp.arange(4.0).reshape(2, 2), 0.5, jnp.ones((2, 2)))
    print(out["y"], out["dx"])
