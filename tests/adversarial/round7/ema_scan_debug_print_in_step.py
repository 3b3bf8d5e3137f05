"""ema_scan: the honest scan with a ``jax.debug.print`` of the carry in its step (allowed: it
computes nothing). The judge measures the recurrence's reach by running the program batched over
thousands of perturbations; the print is left out there, where it would be compiled and printed
once per run (the grade ran out of time on every case).

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, xt):
        m = decay * m + (1 - decay) * xt
        jax.debug.print("m {m}", m=m)
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
