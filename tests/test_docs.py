"""The docs site (docs/, mkdocs.yml) and the README: the site builds with no warning, its generated
pages are what the code gives, and every `judge` command and spec key it shows exists.

The walk-throughs on the authors' pages are checked against real output by the tests of their
features (tests/test_readme_package.py, test_author_workflow.py, test_scoring.py,
test_cli_friction.py).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import re
import shlex
import subprocess
import sys

import pytest
import yaml

from judge.cli import build_parser
from tests.helpers import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
#: what readers read: every page, the README and SECURITY.md (served as a page of the site)
TEXTS = PAGES + [ROOT / "README.md", ROOT / "SECURITY.md"]
SCHEMA = json.loads((ROOT / "judge" / "schema" / "problem.schema.json").read_text())
FENCE = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)


def _reference_module():
    spec = importlib.util.spec_from_file_location("docs_reference", DOCS / "gen" / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rel(path) -> str:
    return str(path.relative_to(ROOT))


# --- the site -----------------------------------------------------------------------------------

def test_the_generated_reference_pages_are_up_to_date():
    stale = _reference_module().stale()
    assert not stale, f"run `python docs/gen/reference.py`: {[_rel(p) for p in stale]} differ"


def test_the_rule_reference_names_every_rule_and_reason():
    from judge import rules

    page = (DOCS / "reference" / "rules.md").read_text()
    for ident, module in rules.RULES.items():
        assert f"## `{ident}`" in page
        for reason in module.REASONS:
            assert f"| `{reason}` | `RJ` |" in page, (ident, reason)


def test_the_verdicts_table_names_every_reason_code():
    from judge.grade.verdicts import REASONS

    page = (DOCS / "students.md").read_text()
    table = page.split("## Verdicts", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip(" `"): line for line in table.splitlines()
            if line.startswith("| `")}
    missing = [f"{reason} ({verdict.value})" for reason, verdict in REASONS.items()
               if f"`{reason}`" not in rows.get(verdict.value, "")]
    assert not missing, f"reason codes missing from the row of their verdict: {missing}"


def test_the_site_builds_with_no_warning(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra (pip install -e '.[docs]') is not installed")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                        str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and "WARNING" not in r.stderr, r.stderr[-3000:]
    assert (tmp_path / "site" / "security" / "index.html").is_file()  # SECURITY.md, served
    performance = (tmp_path / "site" / "performance" / "index.html").read_text()
    assert "{{" not in performance and "figures." not in performance.split("figures.yml")[0]


def test_every_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text().replace("!!python", "python"))

    def listed(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from listed(value)
        elif isinstance(node, list):
            for item in node:
                yield from listed(item)

    nav = set(listed(config["nav"]))
    pages = {str(p.relative_to(DOCS)) for p in PAGES if "gen" not in p.relative_to(DOCS).parts}
    assert pages | {"security.md"} == nav


def test_figures_that_change_with_every_run_are_stated_only_in_figures_yml():
    """Test counts and the suite's time live in docs/figures.yml; pages take them by name."""
    counting = re.compile(r"\b\d[\d,]* (?:passed|tests? (?:collected|in \d))|\bpassed in \d")
    for path in TEXTS:
        found = counting.findall(path.read_text())
        assert not found, f"{_rel(path)} states {found}: put it in docs/figures.yml"


# --- the README ---------------------------------------------------------------------------------

def test_the_readme_is_short_and_its_quickstart_grades_before_it_tests():
    """A student installs the judge alone and grades; the test extra and the test command (the
    one .ci/run calls) come after, for contributors."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    blocks = [body.strip() for lang, body in FENCE.findall(readme) if lang == "sh"]
    assert blocks[:4] == [
        "pip install -e .",
        "judge grade submissions/fake_quant_ste/accepted/closure_vjp.py --problem fake_quant_ste",
        "pip install -e '.[test]'",
        "python -m pytest"]
    assert any(block.startswith("judge service") for block in blocks[4:])
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^python3? -m pytest(\s|$)", ci, re.M), "CI no longer runs the README's command"


def test_the_readme_links_resolve():
    readme = (ROOT / "README.md").read_text()
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


# --- every command shown exists ------------------------------------------------------------------

def _subparsers(parser):
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices


def _chain_options(parser, words: list[str]) -> dict:
    """The options of ``parser`` and of the sub-commands the words name in turn (``judge
    service tokens add --label NAME``: the service's, tokens' and add's)."""
    options = dict(parser._option_string_actions)
    for word in words:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is not None and word in sub.choices:
            parser = sub.choices[word]
            options.update(parser._option_string_actions)
    return options


def _commands_in_blocks(text: str):
    """``(line, argv after 'judge')`` for each command in the page's code blocks: a line of a
    shell block (sh, bash, console) that runs judge, or a `$ judge ...` line in any block."""
    for lang, body in FENCE.findall(text):
        body = re.sub(r"\\\n\s*", " ", body)  # continuation lines
        for line in body.splitlines():
            shown = line.strip()
            if shown.startswith("$ "):
                shown = shown[2:]
            elif lang not in ("sh", "bash", "console"):
                continue
            lexer = shlex.shlex(shown, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            try:
                tokens = list(lexer)
            except ValueError:  # a quote closed on a later line (a Python one-liner): not judge
                continue
            segment, skip = [], False
            for token in tokens + [";"]:
                if skip:
                    skip = False
                elif token in (">", ">>", "<", "2>"):
                    skip = True  # the file redirected to
                elif token and set(token) <= set("|&;()<>"):
                    yield from _judge_argv(line, segment)
                    segment = []
                else:
                    segment.append(token)


def _judge_argv(line: str, segment: list[str]):
    if segment[:1] == ["judge"]:
        yield line, segment[1:]
    elif segment[:3] in (["python", "-m", "judge"], ["python3", "-m", "judge"]):
        yield line, segment[3:]


def _block_commands():
    for path in TEXTS:
        for line, argv in _commands_in_blocks(path.read_text()):
            yield pytest.param(argv, id=f"{_rel(path)}: {line.strip()[:80]}")


@pytest.mark.parametrize("argv", list(_block_commands()))
def test_every_command_in_a_code_block_parses(argv):
    """Parsed by the CLI's own parser (nothing runs): the command, its options and their
    values exist."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            pytest.fail(f"judge {' '.join(argv)}: {err.getvalue().strip()} (exit {exc.code})")


def test_every_command_in_the_prose_names_a_command_and_options_that_exist():
    """`judge grade SUBMISSION --problem ID [--format text|json]` in a sentence or a table: the
    command exists and so does every option it names."""
    commands = _subparsers(build_parser())
    wrong, seen = [], 0
    for path in TEXTS:
        for span in re.findall(r"`(judge [^`\n]+)`", path.read_text()):
            words = span.replace("\\|", "|").split()
            name = words[1]
            if not re.fullmatch(r"[a-z]+", name):
                continue  # `judge ...`, `judge COMMAND --help`: no command named
            seen += 1
            if name not in commands:
                wrong.append(f"{_rel(path)}: `{span}`: no command {name!r}")
                continue
            options = _chain_options(commands[name], words[2:])
            for word in words[2:]:
                for option in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", word.split("=")[0]):
                    if option not in options:
                        wrong.append(f"{_rel(path)}: `{span}`: judge {name} has no {option}")
    assert seen > 100  # the parsing found the docs' commands
    assert not wrong, "\n".join(wrong)


def test_every_command_and_option_of_the_cli_is_documented():
    """The other way round: each command has a row on the commands page, and each option (one of
    its spellings) is named somewhere in the docs."""
    page = (DOCS / "reference" / "commands.md").read_text()
    everything = "".join(path.read_text() for path in TEXTS)
    missing = []
    for name, parser in _subparsers(build_parser()).items():
        if f"`judge {name}" not in page:
            missing.append(f"judge {name}")
        for action in parser._actions:
            if action.option_strings and action.option_strings != ["-h", "--help"] and not any(
                    re.search(rf"{re.escape(option)}(?![\w-])", everything)
                    for option in action.option_strings):
                missing.append(f"judge {name} {'/'.join(action.option_strings)}")
    assert not missing, f"not in the docs: {missing}"


# --- every spec key named exists -----------------------------------------------------------------

def _resolve(node):
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _check_yaml(data, node, path: str, wrong: list) -> None:
    """Every key of ``data`` (a spec or a part of one) is one the schema allows at its place."""
    node = _resolve(node)
    branches = [_resolve(b) for b in node.get("oneOf", ())] or [node]
    if isinstance(data, dict):
        properties = {k: v for b in branches for k, v in b.get("properties", {}).items()}
        extra = next((b["additionalProperties"] for b in branches
                      if isinstance(b.get("additionalProperties"), dict)), None)
        if not properties and extra is None:
            return  # a value the schema does not describe key by key (a case's input)
        for key, value in data.items():
            if key in properties:
                _check_yaml(value, properties[key], f"{path}{key}.", wrong)
            elif extra is not None:
                _check_yaml(value, extra, f"{path}<{key}>.", wrong)
            else:
                wrong.append(f"{path}{key}")
    elif isinstance(data, list):
        items = next((b["items"] for b in branches if isinstance(b.get("items"), dict)), None)
        if items is not None:
            for item in data:
                _check_yaml(item, items, path.rstrip(".") + "[].", wrong)


def _schema_paths(node, prefix=""):
    node = _resolve(node)
    for branch in node.get("oneOf", ()):
        yield from _schema_paths(branch, prefix)
    for key, sub in node.get("properties", {}).items():
        yield f"{prefix}{key}"
        yield from _schema_paths(sub, f"{prefix}{key}.")
        resolved = _resolve(sub)
        if isinstance(resolved.get("items"), dict):
            yield f"{prefix}{key}[]"
            yield from _schema_paths(resolved["items"], f"{prefix}{key}[].")
        if isinstance(resolved.get("additionalProperties"), dict):
            yield from _schema_paths(resolved["additionalProperties"], f"{prefix}{key}.<name>.")


def test_every_spec_key_in_a_yaml_block_exists():
    """A YAML block that is a spec or a part of one (any top-level key is a spec key) names only
    keys the schema allows; other blocks (submissions.yaml, mutants.yaml) are left alone."""
    wrong, seen = [], 0
    for path in TEXTS:
        for lang, body in FENCE.findall(path.read_text()):
            if lang != "yaml":
                continue
            data = yaml.safe_load(body)
            if not isinstance(data, dict) or not set(data) & set(SCHEMA["properties"]):
                continue
            seen += 1
            found: list = []
            _check_yaml(data, SCHEMA, "", found)
            wrong += [f"{_rel(path)}: {key}" for key in found]
    assert seen >= 4
    assert not wrong, f"keys the schema does not know: {wrong}"


def test_every_spec_key_path_in_the_prose_exists():
    """`limits.cpu_s`, `parameters[].shape`, `output.fields.<name>.tolerance`, `rules[].id`: a
    key path in code, rooted at a top-level spec key, is one the schema allows."""
    paths = set(_schema_paths(SCHEMA))
    paths |= {p.replace("hidden[]", "examples[]", 1) for p in paths} | {
        p.replace("examples[]", "hidden[]", 1) for p in paths}
    tops = "|".join(map(re.escape, SCHEMA["properties"]))
    shape = re.compile(rf"(?:{tops})(?:\[\])?(?:\.(?:<name>|[a-z_]+)(?:\[\])?)+|(?:{tops})\[\]")
    wrong, seen = [], 0
    for path in TEXTS:
        text = FENCE.sub("", path.read_text())
        for span in re.findall(r"`([^`\n]+)`", text):
            if shape.fullmatch(span):
                seen += 1
                if span not in paths:
                    wrong.append(f"{_rel(path)}: `{span}`")
    assert seen > 20
    assert not wrong, f"spec key paths the schema does not know: {wrong}"
