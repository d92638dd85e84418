"""The installed package must carry every subpackage and every layout file."""

import tomllib
from pathlib import Path

from solver.schema import builtin_names

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"solver"} | {
        "solver." + p.parent.relative_to(ROOT / "solver").as_posix().replace("/", ".")
        for p in (ROOT / "solver").rglob("__init__.py") if p.parent != ROOT / "solver"
    }
    assert found | {"solver.layouts"} == listed


def test_layouts_folder_is_a_package_with_toml_files():
    """Every layout file is installed and found: the folder is the package ``solver.layouts``,
    its package data is every ``*.toml`` (nothing else a layout could be), and the built-in
    names are exactly the files' (89 on 2026-12-07; a new file must appear in both)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"]["solver.layouts"] == "layouts"
    assert config["package-data"]["solver.layouts"] == ["*.toml"]
    folder = ROOT / "layouts"
    assert (folder / "__init__.py").exists()
    assert {p.name for p in folder.iterdir() if p.suffix != ".toml"} <= {"__init__.py", "README.md", "__pycache__"}
    files = sorted(p.stem for p in folder.glob("*.toml"))
    assert len(files) >= 89  # as many as on 2026-12-07: a file lost from the folder fails here
    assert builtin_names() == files
