"""The apps' layering: ``knowledge`` is the base the answer pipeline stands on, so it imports nothing from
``verification`` (or the apps above it); a benchmark or command that needs both lives in the upper app."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UPPER_APPS = {"verification", "chat", "operations"}


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "knowledge").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_knowledge_imports_nothing_from_the_apps_above_it(path):
    upward = {name for name in imported_modules(path) if name.split(".")[0] in UPPER_APPS}
    assert not upward, f"{path.relative_to(ROOT)} imports {sorted(upward)}"


def test_the_check_sees_an_upward_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from verification.services import answer_question\n")
    assert "verification.services" in imported_modules(module)
