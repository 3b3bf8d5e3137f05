"""MkDocs hooks (``mkdocs.yml``: ``hooks``): what the site takes from the code and the data.

* The generated reference pages (``docs/gen/reference.py``) must be what the code gives now: a
  stale one is a warning, so ``mkdocs build --strict`` fails on it.
* ``SECURITY.md`` stays at the root of the repository, where GitHub shows it; the site serves the
  same text as ``security.md``.
* Figures that change with every run (test counts, times) live only in ``docs/figures.yml``: a
  page writes ``{{ figures.tests.default.passed }}`` and gets the value; an unknown name is a
  warning (an error under ``--strict``).
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

import yaml
from mkdocs.structure.files import File

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import reference  # noqa: E402  (docs/gen/reference.py)

LOG = logging.getLogger("mkdocs.hooks.judge")
FIGURE = re.compile(r"\{\{\s*figures\.([A-Za-z0-9_.]+)\s*\}\}")


def figures() -> dict:
    return yaml.safe_load((ROOT / "docs" / "figures.yml").read_text())


def figure(name: str, data: dict | None = None):
    """The value of ``tests.default.passed`` in figures.yml, or KeyError."""
    node = figures() if data is None else data
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(name)
        node = node[part]
    if isinstance(node, dict):
        raise KeyError(name)
    return node


def on_pre_build(config, **kwargs):
    for path in reference.stale():
        LOG.warning("%s is out of date with the code: run `python docs/gen/reference.py`",
                    path.relative_to(ROOT))


def on_files(files, config, **kwargs):
    text = (ROOT / "SECURITY.md").read_text()
    # SECURITY.md links into the site as docs/<page>; the same page in the site is at the root
    text = re.sub(r"\]\(docs/", "](", text)
    # GitHub keeps a hyphen per space and dash of a heading (`--sandbox none`: what---sandbox-...),
    # MkDocs collapses them (what-sandbox-...)
    text = re.sub(r"\]\((#[\w-]+)\)", lambda m: "](" + re.sub("-{2,}", "-", m.group(1)) + ")", text)
    files.append(File.generated(config, "security.md", content=text))
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    data = figures()

    def value(match):
        try:
            return str(figure(match.group(1), data))
        except KeyError:
            LOG.warning("%s: no figure %r in docs/figures.yml", page.file.src_uri, match.group(1))
            return match.group(0)

    return FIGURE.sub(value, markdown)
