"""Finds the result pipe among its open descriptors and writes forged "case" and "done"
messages to it (without the run's nonce), then returns wrong values.

Expected: RJ (channel_tampered): a line without this run's nonce ends trust in the channel.
"""
import json
import os
import stat

import jax.numpy as jnp


def forge():
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 9 and stat.S_ISFIFO(os.fstat(fd).st_mode):
                for index in range(3):
                    os.write(fd, (json.dumps({"type": "case", "index": index, "error": None,
                                              "output": None}) + "\n").encode())
                os.write(fd, b'{"type": "done"}\n')
        except OSError:
            pass


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    forge()
    return {"values": jnp.zeros_like(x), "grads": jnp.zeros_like(cotangent)}
