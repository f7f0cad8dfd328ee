"""The floors of ARCHITECTURE.md as a test: a module imports only from floors below its own (or from its own
package), so the analysis core never reaches up into features, the CLI or the server, and the two format packages
never know each other. Imports are read from the source with `ast`, so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "session_lsp"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("analysis.text", "analysis.diagnostics", "analysis.forwarding", "analysis.jsonscan", "analysis.payload_types",
     "analysis.columns", "analysis.layered"),
    ("analysis.lines", "analysis.registry", "analysis.line_store", "analysis.structure", "analysis.editing"),
    ("analysis.detect", "analysis.validate", "analysis.results", "analysis.rule_filter", "analysis.excerpt"),
    ("analysis.anchors", "analysis.result_store", "analysis.fixing"),
    ("analysis.plain",),
    ("analysis.elyra", "analysis.thndrs", "analysis.claude", "analysis.codex"),
    ("analysis.formats",),
    ("analysis.document",),
    ("analysis.features",),
    ("analysis",),
    ("forked",),
    ("files", "config"),
    ("atomic", "line_diff"),
    ("server", "fixer", "reporting"),
    ("cli",),
    ("__main__",),
)
"""Bottom first. A name is a module or a package (a package stands for every module inside it)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _unit(module: str) -> str:
    """The floor entry a module belongs to: the longest FLOORS name that is the module or a package holding it."""
    names = [name for floor in FLOORS for name in floor if module == name or module.startswith(name + ".")]
    if not names:
        raise AssertionError(f"session_lsp.{module} is on no floor: add it to FLOORS in {Path(__file__).name}")
    return max(names, key=len)


def _floor(unit: str) -> int:
    return next(index for index, floor in enumerate(FLOORS) if unit in floor)


def _imports(module: str, source: str | None = None) -> set[str]:
    """Modules of session_lsp that `module` imports (its file, or `source` in its place), relative to the package
    root ('' is session_lsp itself)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bases = [alias.name for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
                bases = ["session_lsp." + base if base else "session_lsp"]
            else:
                bases = [node.module or ""]
            names = [alias.name for alias in node.names]
        else:
            continue
        for base in bases:
            if base != "session_lsp" and not base.startswith("session_lsp."):
                continue
            inner = base.removeprefix("session_lsp").removeprefix(".")
            submodules = {f"{inner}.{name}" if inner else name for name in names} & MODULES.keys()
            found |= submodules or {inner}
    return found


def _violations(module: str, imports: set[str]) -> list[str]:
    unit = _unit(module)
    problems = []
    for target in sorted(imports - {""}):
        target_unit = _unit(target)
        if target_unit != unit and _floor(target_unit) >= _floor(unit):
            problems.append(f"session_lsp.{module} imports session_lsp.{target} (floor {_floor(target_unit)} "
                            f"from floor {_floor(unit)})")
    return problems


@pytest.mark.parametrize("module", sorted(name for name in MODULES if name))
def test_imports_only_go_down(module: str) -> None:
    assert _violations(module, _imports(module)) == []


@pytest.mark.parametrize(("module", "source", "bad"), [
    ("analysis.elyra.model", "from ..features import hover", True),
    ("analysis.elyra.model", "from ..thndrs.model import ThndrsModel", True),
    ("analysis.elyra.model", "def f():\n    import session_lsp.server.app", True),
    ("analysis.text", "from . import lines", True),
    ("analysis.elyra.model", "from .. import jsonscan\nfrom .facts import EntryFacts", False),
    ("analysis.features.hover", "from ..elyra import model\nfrom ..document import Document", False),
])
def test_an_upward_import_is_seen(module: str, source: str, bad: bool) -> None:
    assert bool(_violations(module, _imports(module, source))) is bad


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle, as the modules on it (Tarjan's strongly connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_even_for_type_checking() -> None:
    """Inside a floor modules may import each other, but never in a circle: `if TYPE_CHECKING:` imports count, since
    a circle there still means neither module can be read without the other."""
    graph = {module: (_imports(module) & MODULES.keys()) - {module, ""} for module in MODULES}
    assert _circles(graph) == []


def test_a_circle_is_seen() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
