"""Starts sleeping threads without bound.

Expected: RTE (exception): each thread's stack counts against the address-space limit, so
thread creation fails long before the machine runs out of anything.
"""
import threading
import time

import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    while True:
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
