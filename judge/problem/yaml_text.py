"""A spec file's text and YAML, parsed once into the data and the node tree that gives each
key's line (``line_of``, ``key_line``), so that every error can name the line. A file that
cannot be read, or is not YAML, or not a mapping, is a ``SpecError`` naming it."""

from __future__ import annotations

from pathlib import Path

import yaml

from judge.errors import SpecError

#: libyaml's loader where PyYAML was built with it (several times faster), else the pure one.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def child(node, step):
    """The YAML node under ``node`` at one key or list index, or None."""
    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in node.value if k.value == step), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
        return node.value[step]
    return None


def line_of(node, path) -> int | None:
    """The 1-based line of the YAML node at ``path`` (keys and list indices), as far as it goes."""
    line = node.start_mark.line + 1 if node is not None else None
    for step in path:
        node = child(node, step)
        if node is None:
            break
        line = node.start_mark.line + 1
    return line


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(path, problem=f"cannot read: {exc.strerror or exc}") from None


def read_yaml(path: Path, text: str | None = None) -> tuple[dict, object]:
    """Parse a spec file (``text``, its content when read already); return the data and the
    composed node tree (for line numbers)."""
    text = read_text(path) if text is None else text
    try:
        loader = YAML_LOADER(text)  # parsed once: the data is constructed from the node tree
        try:
            nodes = loader.get_single_node()
            data = loader.construct_document(nodes) if nodes is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        raise SpecError(path, None, mark.line + 1 if mark else None,
                        f"YAML syntax error: {where}{getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise SpecError(path, problem="the spec must be a YAML mapping")
    return data, nodes


def key_line(node, path, key) -> int | None:
    """The 1-based line of the key ``key`` of the mapping at ``path`` (not of its value, which
    may start on a later line)."""
    for step in path:
        node = child(node, step)
    if isinstance(node, yaml.MappingNode):
        return next((k.start_mark.line + 1 for k, _ in node.value if k.value == key), None)
    return None
