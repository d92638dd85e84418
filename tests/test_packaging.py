"""The installed package must carry every subpackage and every layout file."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"solver"} | {
        "solver." + p.parent.relative_to(ROOT / "solver").as_posix().replace("/", ".")
        for p in (ROOT / "solver").rglob("__init__.py") if p.parent != ROOT / "solver"
    }
    assert found | {"solver.layouts"} == listed


def test_layouts_folder_is_a_package_with_toml_files():
    assert (ROOT / "layouts" / "__init__.py").exists()
    assert len(list((ROOT / "layouts").glob("*.toml"))) >= 11
