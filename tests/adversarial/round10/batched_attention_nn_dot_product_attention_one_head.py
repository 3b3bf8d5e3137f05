"""batched_attention: the student reaches for ``jax.nn.dot_product_attention``, giving q, k and v a
heads axis of one (``[:, :, None, :]``) and the mask a heads axis (``[:, None]``), its default
scale 1 / sqrt(d), and takes the heads axis off again; no ``vmap`` of its own. That function
asks the values' last axis to be the queries' (e equal to d), which the statement does not give,
so it raises on the examples: a student's error, said as a runtime error.

Problem: batched_attention
Expected: RTE exception
Cases: all
"""
import jax


def batched_attention(q, k, v, mask):
    out = jax.nn.dot_product_attention(q[:, :, None, :], k[:, :, None, :], v[:, :, None, :],
                                       mask=mask[:, None, :, :])
    return out[:, :, 0, :]
