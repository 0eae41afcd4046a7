"""How many TensorFlow tasks this machine can hold, so a local launch is refused before it swamps it.

Every task of a local cluster is a TensorFlow process: its resident memory
once started is about TASK_MEMORY_MB, and more than TASKS_PER_CORE of them
per core only queue for the CPU. The bound is the smaller of the two, from
the memory available now (Linux's MemAvailable; the physical memory
elsewhere) and the cores; `cluster launch --force` goes beyond it.
"""

from __future__ import annotations

import os

from engine.core.messages import msg
from engine.core.problems import Problem

TASK_MEMORY_MB = 600  # resident memory of a TensorFlow process that imported TensorFlow and ran an op: 549 MB
TASKS_PER_CORE = 8


def available_memory_mb() -> int | None:
    """Memory that can be used without swapping: MemAvailable, else the physical memory, else None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    except (ValueError, OSError, AttributeError):
        return None


def local_task_limit() -> int:
    """The most tasks a local cluster may start on this machine (at least one)."""
    memory = available_memory_mb()
    by_memory = memory // TASK_MEMORY_MB if memory is not None else None
    by_cores = (os.cpu_count() or 1) * TASKS_PER_CORE
    return max(1, min(by_cores, by_memory) if by_memory is not None else by_cores)


def local_tasks_problem(tasks: int, location: str) -> Problem | None:
    """Why `tasks` local TensorFlow processes are too many for this machine, or None."""
    limit = local_task_limit()
    if tasks <= limit:
        return None
    return Problem(
        location,
        tasks,
        msg(
            "{tasks} tasks are too many: this machine holds about {limit} TensorFlow processes ({memory} MB "
            "available, about {per_task} MB each; {cores} cores); start fewer, or add --force to start them "
            "anyway",
            tasks=tasks,
            limit=limit,
            memory=f"{available_memory_mb() or 0:,}",
            per_task=TASK_MEMORY_MB,
            cores=os.cpu_count() or 1,
        ),
    )
