"""ema_scan: the scan's step written as a PyTorch RNN cell's ``forward(input, hx)``: the row is
a parameter named ``input`` and the carry ``hx``, reordered for ``lax.scan``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def cell(input, hx):
        return decay * hx + (1.0 - decay) * input

    def step(hx, input):
        hx = cell(input, hx)
        return hx, hx

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return out
