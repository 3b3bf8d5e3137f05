"""A statement's math as plain text, for a terminal (``judge show``).

Statements write formulas in TeX between ``$...$`` (inline) and ``$$...$$`` (displayed), which
the web page typesets with KaTeX. A terminal gets each formula rewritten as a person would type
it: ``$\\frac{m'}{1 - \\beta_1^t}$`` becomes ``m' / (1 - β1^t)``, ``$\\sqrt{\\hat v}$`` becomes
``sqrt(v_hat)``, a displayed formula its own indented line. Only the TeX that statements use
is known here (fractions, roots, sums, norms, hats, text, Greek letters, relations); anything else
keeps its name without the backslash. Code spans (`` `...` ``) are left as they are.
"""

from __future__ import annotations

import re

#: Macros and what they become; a name not listed loses its backslash (``\tanh`` -> ``tanh``).
SYMBOLS = {
    "cdot": "*", "times": "x", "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!=",
    "neq": "!=", "lt": "<", "gt": ">", "approx": "~", "in": "in", "to": "->", "mapsto": "->",
    "gets": "<-", "leftarrow": "<-", "rightarrow": "->", "infty": "inf", "ldots": "...",
    "dots": "...", "cdots": "...", "pm": "+/-", "mid": "|", "lVert": "||", "rVert": "||",
    "lvert": "|", "rvert": "|", "Vert": "||", "vert": "|", "odot": "*", "top": "T",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "eta": "η", "lambda": "λ", "mu": "μ", "pi": "pi", "sigma": "σ", "tau": "τ", "theta": "θ",
    "partial": "∂", "nabla": "∇", "sum": "sum", "prod": "prod", "{": "{", "}": "}", "\\": ";",
    "ell": "ℓ", "lfloor": "floor(", "rfloor": ")", "lceil": "ceil(", "rceil": ")",
    "%": "%", "_": "_", "&": "&", "#": "#",
}
#: Macros that only space or size things: dropped.
SPACING = {",": " ", ";": " ", ":": " ", "!": "", "quad": "  ", "qquad": "   ", " ": " ",
           "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "", "Bigl": "",
           "Bigr": "", "displaystyle": "", "limits": "", "nolimits": ""}
#: Macros whose one argument is text or a name, kept as it is.
WRAPPERS = {"text", "textrm", "mathrm", "operatorname", "mathbf", "mathit", "texttt", "mathtt",
            "boldsymbol", "mathsf", "textit", "textbf"}
_MATH = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)
_CODE = re.compile(r"(`+)(.+?)\1", re.S)


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument starting at ``tex[i]`` (a ``{...}`` group or one character or macro) and
    where it ends."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1:j], j + 1
            j += 1
        return tex[i + 1:], len(tex)
    if tex[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        return m.group(0), i + len(m.group(0))
    return tex[i], i + 1


def _wrap(text: str) -> str:
    """``text`` in parentheses unless it is one name or number."""
    text = text.strip()
    return text if re.fullmatch(r"[\w.'αβγδεηλμστθ∂∇]+|\([^()]*\)", text) else f"({text})"


def math(tex: str) -> str:
    """One formula's TeX as plain text."""
    tex = re.sub(r"(\d+(?:\.\d+)?)\s*\\cdot\s*10\^\{(-?\d+)\}", r"\1e\2", tex)  # 2e-4
    tex = re.sub(r"(?<![\d.])10\^\{(-?\d+)\}", r"1e\1", tex)  # 1e-6
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name, i = m.group(1), i + len(m.group(0))
            if name in ("frac", "dfrac", "tfrac"):
                top, i = _group(tex, i)
                bottom, i = _group(tex, i)
                text = f"{_wrap(math(top))} / {_wrap(math(bottom))}"
                after = re.sub(r"^(\s|\\left|\\big|\\Big)+", "", tex[i:])
                if after and re.match(r"[(\w]|\\(?!le|ge|lt|gt|ne|q?quad|cdot|times|right|end|\\)", after):
                    text = f"({text})"  # (1 / 2)(1 + cos t), not 1 / 2(1 + cos t)
                out.append(text)
            elif name == "sqrt":
                arg, i = _group(tex, i)
                out.append(f"sqrt({math(arg).strip()})")
            elif name in ("hat", "bar", "tilde"):
                arg, i = _group(tex, i)
                out.append(f"{math(arg).strip()}_{name}")
            elif name in WRAPPERS:
                arg, i = _group(tex, i)
                out.append(math(arg) if name not in ("text", "textrm", "textit", "textbf")
                           else re.sub(r"\\(.)", r"\1", arg))
            elif name in ("begin", "end"):  # an environment (aligned, cases): its lines stay
                _, i = _group(tex, i)
            elif name in SPACING:
                out.append(SPACING[name])
            else:
                word = SYMBOLS.get(name, name)
                out.append(f" {word} " if word in ("<=", ">=", "!=", "<", ">", "in", "->", "<-", "~")
                           else word)
        elif c in "^_":
            arg, i = _group(tex, i + 1)
            text = math(arg).strip()
            out.append(c + (text if re.fullmatch(r"[\w'αβγδεηλμστθ]+", text) else f"({text})"))
        elif c in "{}":
            i += 1
        elif c == "&":  # an alignment point
            out.append(" ")
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    text = "".join(out)
    text = re.sub(r"\b(sum|prod)_(\w+|\([^()]*\))", r"\1 over \2 of", text)
    text = re.sub(r"(?<=[\w)|])\s*\*\s*(?=[\w(|])", " * ", text)
    return re.sub(r"[ \t]+", " ", text).strip()


def plain(markdown: str) -> str:
    """``markdown`` with each formula as plain text: an inline one in place, a displayed one on
    a line of its own, indented by four spaces; code spans untouched."""
    spans = []

    def keep(m):  # code spans are set aside, so a $ in code is not math
        spans.append(m.group(0))
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE.sub(keep, markdown)

    def replace(m):
        if m.group(1) is not None:
            lines = [text for line in re.split(r"\\\\|\n", m.group(1)) if (text := math(line))]
            return "\n" + "\n".join("    " + line for line in lines) + "\n"
        return math(m.group(2))

    text = _MATH.sub(replace, text)
    text = re.sub(r"\n\n\n+", "\n\n", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: spans[int(m.group(1))], text)
