"""The package is laid out in layers: no module imports another that imports it back.

Every import counts, the ones inside a function and under ``TYPE_CHECKING`` included: a
deferred import hides a circle from the interpreter, not from a reader. The walk is of the
source (an AST), so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import paiju

ROOT = Path(paiju.__file__).parent


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ["paiju", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _package(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def imports(name: str) -> set[str]:
    """The package's modules that module ``name`` imports, anywhere in its text."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = _package(name).split(".")[: len(_package(name).split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:
                    out.add(sub)  # a module taken from its package
                elif base in MODULES:
                    out.add(base)
    out.discard(name)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_walk_sees_deferred_and_type_checking_imports() -> None:
    """The check can fail: a circle made only of a deferred import is found."""
    assert circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert "paiju.engine" in imports("paiju.bots")
    assert "paiju.games" in imports("paiju.cli.core")  # a from-import of names


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = {name: imports(name) for name in MODULES}
    assert circles(graph) == []


def test_a_family_imports_neither_its_bot_nor_the_registry() -> None:
    """Bots sit above the states they play (docs/architecture.md)."""
    for name in MODULES:
        if not name.startswith("paiju.games.") or name.endswith(("bot", "terminal")):
            continue
        if name.count(".") < 3:  # a family's package face
            continue
        used = imports(name)
        assert "paiju.games" not in used, name
        assert not any(m.endswith(".bot") for m in used), (name, used)


def _reach(name: str) -> set[str]:
    """Every module ``name`` imports, directly or through others (third-party roots too)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for dep in imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                if dep in MODULES:
                    todo.append(dep)
    return seen


def test_the_room_reaches_no_socket_no_database_and_no_journal() -> None:
    # the room's state machine sits below the storage and the sockets: it names what it
    # asks of them as protocols (paiju.server.ports) and is handed them by its host
    below = {"paiju.server.store", "paiju.server.journal", "paiju.server.client"}
    below |= {"paiju.server.lease", "paiju.server.hub", "paiju.server.app"}
    rooms = (
        "paiju.server.room",
        "paiju.server.inbox",
        "paiju.server.fanout",
        "paiju.server.frames",
    )
    for room in (*rooms, TURNS):
        reached = _reach(room)
        assert not reached & below, (room, sorted(reached & below))
        roots = {r for dep in reached | {room} for r in _outside(dep)}
        assert not roots & {"sqlalchemy", "fastapi", "starlette", "redis"}, (room, roots)


TURNS = "paiju.server.turns"


def test_who_plays_a_turn_is_planned_without_a_clock_or_a_loop() -> None:
    # the plan of the seats' clocks and bots is plain values in, plain steps out: the
    # room carries them out on its event loop; the pauses it draws come from a generator
    # the room hands in (random's types), never from a clock
    assert _outside(TURNS) == {"__future__", "collections", "math", "random", "typing"}
    assert _reach(TURNS) == set()


def _outside(name: str) -> set[str]:
    """The top-level names of what module ``name`` imports from outside the package."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out - {"paiju"}


def test_the_outside_walk_sees_the_database_of_the_store() -> None:
    assert "sqlalchemy" in _outside("paiju.server.store")
