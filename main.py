"""Entry point: `python main.py` opens the dashboard; subcommands run headless.

Kept tiny on purpose: the window must appear fast, so nothing here imports
TensorFlow, and the GUI is imported only when no subcommand is given.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] == "gui":
        from gui.app import main as gui_main

        return gui_main(args[1:])
    from engine.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
