"""`export-script`: a standalone Python file that reproduces a configured run.

The script is `standalone_template.py` (a real, importable module, so it is
linted and tested like the rest) with the run's config written into its
CONFIG line. No TensorFlow is imported here: the window exports too.
"""
from __future__ import annotations

import pprint
from pathlib import Path

from engine.config import RunConfig

TEMPLATE = Path(__file__).with_name("standalone_template.py")
CONFIG_LINE = "CONFIG = {}  # the exporter writes the run's config here\n"


def render_script(config: RunConfig) -> str:
    source = TEMPLATE.read_text(encoding="utf-8")
    if CONFIG_LINE not in source:
        raise RuntimeError(f"{TEMPLATE} lost its CONFIG line; the exporter cannot fill it in")
    literal = pprint.pformat(config.to_dict(), sort_dicts=False, width=100)
    return source.replace(CONFIG_LINE, f"CONFIG = {literal}\n", 1)


def export_script(config: RunConfig, out: str | Path) -> Path:
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_script(config), encoding="utf-8")
    path.chmod(0o755)
    return path
