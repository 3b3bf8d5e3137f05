"""sign_ste: the textbook ``x + stop_gradient(sign(x) - x)``, exact on paper but rounded in
floating point: for |x| above 2^24 in float32 (2^11 in float16, 2^8 in bfloat16) sign(x) - x
rounds to -x and the sum to 0. The statement warns of exactly this.

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax


def ste_quantize(x):
    return x + jax.lax.stop_gradient(jax.numpy.sign(x) - x)
