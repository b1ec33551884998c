"""The tree says the architecture (docs/architecture.md), and imports keep to it.

Every module of `armylists/` is read with `ast` (no import is run) and every import it makes, at the top
or inside a function, counts, even one only for type checking: a circle of imports, Django in the engine
or in an importer's pure parts, or the store reaching an importer fails here, naming the modules.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "armylists"
ARCHITECTURE_DOC = (ROOT / "docs" / "architecture.md").read_text()

MAX_ROOT_MODULES = 8
MAX_LINES = 500

# The engine, and each importer but for its Django side: the modules named here, which read the
# database or register a list format with the site.
ENGINE = "armylists.rules"
IMPORTERS = "armylists.importers"
IMPORTERS_DJANGO_SIDE = {
    "armylists.importers.storing",
    "armylists.importers.battlescribe.list_formats",
    "armylists.importers.battlescribe.roster_files",
    "armylists.importers.battlescribe.roster_judging",
    "armylists.importers.nr_t9a.list_formats",
    "armylists.importers.owb.list_formats",
    "armylists.importers.owb.text",
}
# The store: the stored list, its edits and checks, the books as pages use them, and the list files part,
# which asks the importers' registered formats (listfiles/formats.py) and imports none of them.
STORE = ("armylists.models", "armylists.lists", "armylists.listfiles")
EVENTS = "armylists.events"
EDITOR = "armylists.editor"
DJANGO = ("django", "rest_framework", "knox", "axes", "csp", "django_htmx", "django_tasks", "drf_spectacular")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "migrations" not in p.parts}


def _is_within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _imports(name: str) -> set[str]:
    """Every module `name` imports: ours as the module (not the name inside it), others as written."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target not in MODULES and "." in target and target.startswith("armylists"):
                target = target.rpartition(".")[0]
            if target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _ours(names: set[str]) -> set[str]:
    return {n for n in names if n in MODULES}


def _reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in _ours(GRAPH[todo.pop()]):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _cycles() -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(GRAPH):
        if root in index:
            continue
        work = [(root, iter(sorted(_ours(GRAPH[root]))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(_ours(GRAPH[child])))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_it_finds_every_module_and_reads_relative_imports():
    assert "armylists.rules.native.army" in MODULES and "armylists.settings" in MODULES
    assert "armylists.rules.native.selection" in GRAPH["armylists.rules.native.army"]
    assert "django.db" in GRAPH["armylists.lists.library.catalogue"] or "django.db.models" in GRAPH["armylists.models"]


def test_there_is_no_circle_of_imports():
    assert _cycles() == []


def test_the_cycle_finder_finds_a_circle(monkeypatch):
    monkeypatch.setitem(GRAPH, "armylists.rules.report", GRAPH["armylists.rules.report"] | {"armylists.rules.native.army"})
    assert ["armylists.rules.native.army", "armylists.rules.report"] in [
        [m for m in part if m in ("armylists.rules.native.army", "armylists.rules.report")] for part in _cycles()]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _is_within(n, ENGINE)
                                        or (_is_within(n, IMPORTERS) and n not in IMPORTERS_DJANGO_SIDE)))
def test_the_engine_and_the_importers_pure_parts_import_no_django(name):
    reached = {name} | _reachable(name)
    django = sorted(f"{m} imports {d}" for m in reached for d in GRAPH[m] if d.split(".")[0] in DJANGO)
    theirs = sorted(m for m in reached if not (_is_within(m, ENGINE) or _is_within(m, IMPORTERS))
                    or m in IMPORTERS_DJANGO_SIDE)
    assert django == [] and theirs == []


@pytest.mark.parametrize("name", sorted(n for n in MODULES if any(_is_within(n, s) for s in STORE)))
def test_the_store_imports_no_importer(name):
    assert sorted(m for m in {name} | _reachable(name) if _is_within(m, IMPORTERS)) == []


@pytest.mark.parametrize("name", sorted(n for n in MODULES if _is_within(n, EVENTS)))
def test_no_events_module_reaches_the_editor(name):
    """The events' pages share the list pages' downloads through the export registry (exports/registry.py),
    not the editor's modules."""
    assert sorted(m for m in {name} | _reachable(name) if _is_within(m, EDITOR)) == []


def test_the_root_holds_only_djangos_own_files_and_a_few_others():
    root = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


@pytest.mark.parametrize("folder, most", [("armylists/rules", 6), ("armylists/lists", 3), ("tests", 15)])
def test_the_engine_the_store_and_the_tests_keep_their_parts_in_folders(folder, most):
    """A root holds what its parts share; the rest lives in a package named for its part (issue 35)."""
    root = sorted(p.name for p in (ROOT / folder).iterdir() if p.is_file() and p.suffix == ".py")
    assert len(root) <= most, root


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_500_lines(name):
    assert len(MODULES[name].read_text().splitlines()) <= MAX_LINES


def test_the_architecture_doc_names_every_part_of_the_tree():
    """Every package of armylists/ is in docs/architecture.md's tree, and every folder it names exists."""
    packages = {str(p.parent.relative_to(ROOT)) + "/" for p in PACKAGE.rglob("__init__.py")
                if "migrations" not in p.parts}
    tree = ARCHITECTURE_DOC.split("```")[1]  # the first block: armylists/ and its parts, indented under it
    named = {"armylists/"} | {"armylists/" + m for m in re.findall(r"^  ([\w/]+/)", tree, re.MULTILINE)}
    assert sorted(packages - named) == []
    assert sorted(n for n in named if not (ROOT / n).is_dir()) == []


# The seam between the two kinds of list (lists/kinds.py, issue 37 item 1): the kind is decided in the store
# (`kind_of`, `kind_for_book`) and the engine; every other part asks the kind object, never the document.
KIND_DECIDED_IN = ("armylists.lists", "armylists.rules")
KIND_TEST = re.compile(r"\bis_tree(_book)?\b")


def _asks_the_kind_itself(name: str) -> list[int]:
    """The lines of a module's source that say `is_tree` or `is_tree_book` (code or comment alike)."""
    return [n for n, line in enumerate(MODULES[name].read_text().splitlines(), 1) if KIND_TEST.search(line)]


def test_only_the_store_and_the_engine_ask_which_kind_a_list_is():
    found = {name: lines for name in sorted(MODULES) if not any(_is_within(name, p) for p in KIND_DECIDED_IN)
             for lines in [_asks_the_kind_itself(name)] if lines}
    assert found == {}


def test_the_kind_check_finds_a_page_that_asks(tmp_path, monkeypatch):
    page = tmp_path / "page.py"
    page.write_text("def view(roster):\n    return 1 if roster.is_tree else 2\n")
    monkeypatch.setitem(MODULES, "armylists.editor.page", page)
    assert _asks_the_kind_itself("armylists.editor.page") == [2]
    with pytest.raises(AssertionError):
        test_only_the_store_and_the_engine_ask_which_kind_a_list_is()
