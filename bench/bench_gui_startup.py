"""Time from `python main.py` to a drawn window, against importing TensorFlow.

    QT_QPA_PLATFORM=offscreen python bench/bench_gui_startup.py [repeats]

The app prints `TFDD_WINDOW_SHOWN` once the window has been drawn
(TFDD_SMOKE_QUIT_MS); the clock runs in this parent process from Popen to
that line, so interpreter start and all imports are included.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from bench_gui_helpers import REPO, summary, table


def time_to_window() -> float:
    home = tempfile.mkdtemp(prefix="tfdd-bench-home-")
    env = dict(os.environ, TFDD_SMOKE_QUIT_MS="200", HOME=home, XDG_CONFIG_HOME=home)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "main.py"], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("TFDD_WINDOW_SHOWN"):
            elapsed = 1000 * (time.perf_counter() - t0)
            break
    else:
        raise RuntimeError("the app never reported its window")
    proc.wait(timeout=60)
    return elapsed


def time_tensorflow_import() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import tensorflow"], check=True, capture_output=True)
    return 1000 * (time.perf_counter() - t0)


def main(repeats: int = 5) -> None:
    window = [time_to_window() for _ in range(repeats)]
    tf = [time_tensorflow_import() for _ in range(2)]
    print(
        table(
            ("measure", f"ms, median (min–max) of {repeats}"),
            [
                ("`python main.py` → window drawn", summary(window)),
                ("`python -c 'import tensorflow'` (for scale, 2 runs)", summary(tf)),
                (
                    "ratio of medians, window / TensorFlow import",
                    f"{statistics.median(window) / statistics.median(tf):.2f}",
                ),
            ],
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
