"""Where the files shipped beside the code are: templates, examples, icons, style sheet, translations.

The folder `resources/` of the repository is installed as the package
`tfdd_resources` (pyproject.toml maps it), so the same lookup works from an
installed wheel, an editable install and a plain checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = "tfdd_resources"


def resource_path(*parts: str) -> Path:
    """The path of a shipped file, e.g. resource_path("templates", "standalone_train.py")."""
    try:
        root = Path(str(resources.files(PACKAGE)))
    except ModuleNotFoundError:  # a checkout that was never installed
        root = Path(__file__).resolve().parent.parent / "resources"
    return root.joinpath(*parts)
