"""Where the files shipped beside the code are: templates, examples, icons, style sheet, translations.

The folder `resources/` of the repository is installed as the package
`tfdd_resources` (pyproject.toml maps it). A source checkout uses its own
folder, so a work tree never reads another checkout's files through an
editable install; an installed wheel uses the package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = "tfdd_resources"
_CHECKOUT = Path(__file__).resolve().parents[2] / "resources"
_MARKER = ("templates", "standalone_head.py")  # a file only our resources folder has


def resource_root() -> Path:
    """The folder of the shipped files."""
    if _CHECKOUT.joinpath(*_MARKER).is_file():
        return _CHECKOUT
    return Path(str(resources.files(PACKAGE)))


def resource_path(*parts: str) -> Path:
    """The path of a shipped file, e.g. resource_path("templates", "standalone_head.py")."""
    return resource_root().joinpath(*parts)
