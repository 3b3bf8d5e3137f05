"""The warm server's import of JAX without the e-mail parser run over every installed package.

When it is imported, JAX looks for a ROCm plugin among the installed distributions
(``jax._src.numpy.array_constructors``: ``for dist in importlib.metadata.distributions():
dist.metadata.get('Name', '')``). Each ``metadata`` parses the distribution's whole METADATA
file with the e-mail parser: 135 distributions on the development VM, about 0.04 s of CPU in the
middle of the server's import of JAX, which a lone grade's only run waits for.

``quick_names`` is a context for that import: ``importlib.metadata.distributions`` then yields
the same distributions, in the same order, each answering ``metadata.get('Name', ...)`` from
the header lines of the same text (the text ``metadata`` reads: METADATA, else PKG-INFO, else
the path itself), read up to the ``Name`` header, as the e-mail parser reads it (the first
``Name`` header, any case, its value without the leading blanks and the line's end). Anything
else asked of a distribution or its metadata, and every text the short reading is not sure of
(a folded ``Name``, a line that is not a header before it, no ``Name`` at all), goes to the
real ``metadata``. So JAX finds the same plugins, or none, as it would have; nothing else is
changed, and the function is put back when the import is done, also where a module imported
meanwhile took it by name (JAX's does): a worker forked later sees the standard library's own,
as a fresh worker does.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import types

#: A header line's name, as the e-mail parser tells a header from the body (``feedparser``).
_HEADER = re.compile(r"^([\041-\071\073-\176]+):")


def name_of(text: str) -> str | None:
    """The value the e-mail parser gives ``get('Name')`` for the metadata ``text``, read from its
    header lines; None where a short reading cannot be sure (the caller parses it whole)."""
    lines = list(io.StringIO(text, newline=""))  # ends at \n, \r or \r\n, as the parser's
    for i, line in enumerate(lines):
        if not line.strip():
            return None  # the header ended without a Name
        if line[0] in " \t":
            continue  # the continuation of an earlier header
        match = _HEADER.match(line)
        if match is None:
            return None
        if match.group(1).lower() != "name":
            continue
        if i + 1 < len(lines) and lines[i + 1][:1] in (" ", "\t"):
            return None  # folded: the parser would join the lines
        return line[match.end():].lstrip(" \t").rstrip("\r\n")
    return None


class _Metadata:
    """A distribution's metadata as far as ``get('Name', default)``; the rest is the real one's."""

    def __init__(self, dist, name: str):
        self._dist, self._name = dist, name

    def get(self, key, default=None):
        if isinstance(key, str) and key.lower() == "name":
            return self._name
        return self._dist.metadata.get(key, default)

    def __getattr__(self, attribute):
        return getattr(self._dist.metadata, attribute)

    def __getitem__(self, key):
        return self._dist.metadata[key]

    def __contains__(self, key):
        return key in self._dist.metadata

    def __iter__(self):
        return iter(self._dist.metadata)

    def __len__(self):
        return len(self._dist.metadata)


class _Distribution:
    """A distribution whose ``metadata`` answers its name from the header lines."""

    def __init__(self, dist):
        self._dist = dist

    @property
    def metadata(self):
        text = self._dist.read_text("METADATA") or self._dist.read_text("PKG-INFO") \
            or self._dist.read_text("")
        name = name_of(text) if isinstance(text, str) else None
        return self._dist.metadata if name is None else _Metadata(self._dist, name)

    def __getattr__(self, attribute):
        return getattr(self._dist, attribute)


@contextlib.contextmanager
def quick_names():
    """For the block, ``importlib.metadata.distributions`` yields distributions that read only
    as much of their metadata as a question about their name needs."""
    import importlib.metadata as metadata

    real = metadata.distributions

    def distributions(**kwargs):
        return (_Distribution(dist) for dist in real(**kwargs))

    metadata.distributions = distributions
    try:
        yield
    finally:
        metadata.distributions = real
        for module in list(sys.modules.values()):  # a ``from ... import`` made meanwhile
            if isinstance(module, types.ModuleType):
                names = vars(module)
                for key in [k for k, v in names.items() if v is distributions]:
                    names[key] = real
