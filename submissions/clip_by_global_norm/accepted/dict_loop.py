"""Honest: plain Python over the dict (the tree is small and its keys are static), recursing
into nested dicts, with the double-where safe square root."""
import jax.numpy as jnp


def _sum_of_squares(tree):
    total = 0.0
    for key, value in tree.items():
        if isinstance(value, dict):
            total = total + _sum_of_squares(value)
        else:
            total = total + jnp.sum(value * value)
    return total


def _scaled(tree, factor):
    out = {}
    for key, value in tree.items():
        out[key] = _scaled(value, factor) if isinstance(value, dict) else value * factor
    return out


def clip_by_global_norm(grads, max_norm):
    sq = _sum_of_squares(grads)
    safe_sq = jnp.where(sq > 0, sq, 1.0)
    norm = jnp.where(sq > 0, jnp.sqrt(safe_sq), 0.0)
    factor = jnp.where(norm > max_norm, max_norm / jnp.where(sq > 0, norm, 1.0), 1.0)
    return _scaled(grads, factor)
