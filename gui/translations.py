"""Keep the translations in step with the code: `python -m gui.translations update|build|check`.

`update` runs Qt's lupdate over gui/ and the engine modules using `engine.core.messages.msg`, into
resources/translations/tfdd_<lang>.ts; `build` compiles each .ts into its .qm (lrelease); `check` fails when
a .ts is stale, has an unfinished translation, or its .qm is stale (the test suite runs it). Both .ts and .qm
are committed, so a fresh clone runs in Chinese without a build; source locations are left out of the .ts so
moving code does not make it stale.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import PySide6

REPO = Path(__file__).resolve().parent.parent
TRANSLATIONS = REPO / "resources" / "translations"
# English is the source language, but "%n run(s)" needs its singular and plural written out: the English
# catalogue holds only the plural messages (lupdate -pluralonly), as Qt's own documentation advises.
LANGUAGES = {"zh_CN": (), "en": ("-pluralonly",)}
ENGINE_MARKER = "from engine.core.messages import"


def ts_path(language: str) -> Path:
    return TRANSLATIONS / f"tfdd_{language}.ts"


def qm_path(language: str) -> Path:
    return TRANSLATIONS / f"tfdd_{language}.qm"


def _tool(name: str) -> str:
    """Qt's lupdate/lrelease as shipped in the PySide6-Essentials wheel (pyside6-<name> wraps the same)."""
    exe = Path(PySide6.__file__).parent / (f"{name}.exe" if sys.platform == "win32" else name)
    found = str(exe) if exe.is_file() else shutil.which(f"pyside6-{name}")
    if not found:
        raise SystemExit(f"Qt's {name} not found; install PySide6-Essentials")
    return found


def sources() -> list[Path]:
    """The Python files whose strings are translated: all of gui/, and the engine modules that use msg()."""
    gui = sorted((REPO / "gui").rglob("*.py"))
    engine = sorted(p for p in (REPO / "engine").rglob("*.py") if ENGINE_MARKER in p.read_text(encoding="utf-8"))
    return [p for p in gui + engine if p.name != "messages.py"]


def lupdate(ts: Path) -> None:
    """Merge the strings of the sources into `ts` (created when missing); vanished strings are dropped."""
    files = [str(p.relative_to(REPO)) for p in sources()]
    language = ts.stem.removeprefix("tfdd_")
    command = [_tool("lupdate"), *files, "-tr-function-alias", "QT_TR_NOOP+=msg", "-locations", "none"]
    command += LANGUAGES.get(language, ())
    subprocess.run([*command, "-no-obsolete", "-silent", "-ts", str(ts)], cwd=REPO, check=True)


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([_tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def unfinished(ts: Path) -> list[str]:
    """Source texts of `ts` that have no finished translation."""
    root = ET.parse(ts).getroot()
    missing = []
    for message in root.iter("message"):
        translation = message.find("translation")
        empty = translation is None or not ("".join(translation.itertext()).strip())
        if empty or translation.get("type") == "unfinished":
            missing.append(message.findtext("source", ""))
    return missing


def problems(ts: Path, qm: Path) -> list[str]:
    """What is out of date in `ts` and `qm`, as sentences saying what to run; empty when all is well."""
    if not ts.is_file():
        return [f"{ts} is missing: run `python -m gui.translations update`"]
    found = []
    with tempfile.TemporaryDirectory(prefix="tfdd-ts-") as tmp:
        fresh = Path(tmp) / ts.name
        shutil.copyfile(ts, fresh)
        lupdate(fresh)
        if fresh.read_bytes() != ts.read_bytes():
            found.append(f"{ts.name} is out of date with the code: run `python -m gui.translations update`")
        missing = unfinished(fresh)
        if missing:
            shown = "; ".join(repr(m) for m in missing[:5]) + (" ..." if len(missing) > 5 else "")
            found.append(f"{len(missing)} string(s) of {ts.name} are not translated: {shown}")
        built = Path(tmp) / qm.name
        lrelease(ts, built)
        if not qm.is_file() or not filecmp.cmp(built, qm, shallow=False):
            found.append(f"{qm.name} is out of date with {ts.name}: run `python -m gui.translations build`")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gui.translations", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "build", "check"))
    args = parser.parse_args(argv)
    TRANSLATIONS.mkdir(parents=True, exist_ok=True)
    status = 0
    for language in LANGUAGES:
        if args.command == "update":
            lupdate(ts_path(language))
            left = unfinished(ts_path(language))
            print(f"{ts_path(language).name}: {len(left)} string(s) to translate")
        elif args.command == "build":
            lrelease(ts_path(language), qm_path(language))
            print(f"built {qm_path(language).name}")
        else:
            for problem in problems(ts_path(language), qm_path(language)):
                print(problem, file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
