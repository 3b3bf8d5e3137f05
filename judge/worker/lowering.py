"""One MLIR context per thread for the worker's lowerings, instead of one per lowering.

The worker evaluates each case's jaxpr operation by operation (``case_runner``), as eager JAX
does: every operation at a new input shape is traced, lowered to MLIR and then compiled or
loaded from the judge's compilation cache. JAX makes a fresh MLIR context for every lowering and
loads a dozen dialects into it, which costs about as much as loading the compiled program from
the cache. ``share_contexts`` makes the worker reuse one context per thread: the lowered module,
and so the cache key and the compiled program, are the same; only the setup is skipped. A
context keeps what it has seen for the life of the worker, a short-lived process.

Called by ``main`` before the submission is imported (in the fork server's children as well);
when the JAX in use has no such function it does nothing, and nothing else changes. ``preload``
imports, in the fork server, the MLIR dialect modules that JAX imports at its first lowering, so
that each forked worker finds them loaded (importing is all it does: nothing is lowered or
computed before the fork). It also runs JAX's search for backend plugins, which reads the
metadata of every installed package and which JAX otherwise runs in each worker before its first
computation; the search imports plugin modules and registers their factories, but creates no
backend.
"""

from __future__ import annotations

import threading

from . import jaxapi


def share_contexts() -> bool:
    """Reuse one MLIR context per thread for JAX's lowerings; True if installed."""
    mlir = jaxapi.mlir_module()
    if mlir is None:
        return False
    make = getattr(mlir, "make_ir_context", None)
    if make is None or getattr(make, "shared", False):
        return make is not None
    local = threading.local()

    def make_ir_context():
        context = getattr(local, "context", None)
        if context is None:
            context = local.context = make()
        return context

    make_ir_context.shared = True
    mlir.make_ir_context = make_ir_context
    return True


#: Modules JAX imports at its first lowering (``make_ir_context``), not when it is imported.
FIRST_LOWERING_MODULES = ("jaxlib.mlir.dialects.mhlo", "jaxlib.mlir.dialects.builtin",
                          "jaxlib.mlir.extras.meta")


def preload() -> None:
    """Import ``FIRST_LOWERING_MODULES`` (those this JAX has) and search for backend plugins."""
    import importlib

    for name in FIRST_LOWERING_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    discover = jaxapi.plugin_search()
    if discover is not None:
        discover()
