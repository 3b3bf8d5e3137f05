"""warmup_cosine: optax-style code without optax: ``linear_schedule`` and
``cosine_decay_schedule`` factories returning closures, and a hand-rolled ``join_schedules``
that picks the second schedule from its boundary on, evaluated at ``step - boundary`` (with
``jnp.clip`` of the count inside each schedule, as optax does).

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def linear_schedule(init_value, end_value, transition_steps):
    def schedule(count):
        if transition_steps <= 0:
            return jnp.asarray(end_value, jnp.float32)
        frac = jnp.clip(count, 0, transition_steps) / transition_steps
        return init_value + (end_value - init_value) * frac

    return schedule


def cosine_decay_schedule(init_value, decay_steps):
    def schedule(count):
        count = jnp.minimum(count, decay_steps)
        return 0.5 * init_value * (1 + jnp.cos(jnp.pi * count / decay_steps))

    return schedule


def join_schedules(schedules, boundaries):
    def schedule(step):
        out = schedules[0](step)
        for sched, boundary in zip(schedules[1:], boundaries):
            out = jnp.where(step < boundary, out, sched(step - boundary))
        return out

    return schedule


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    sched = join_schedules([linear_schedule(0.0, base_lr, warmup_steps),
                            cosine_decay_schedule(base_lr, total_steps - warmup_steps)],
                           [warmup_steps])
    return jnp.asarray(sched(step.astype(jnp.float32)), jnp.float32)
