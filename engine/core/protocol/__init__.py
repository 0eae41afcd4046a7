"""The worker protocol: how the window, the launcher and the scaling study talk to a trainer process.

A trainer (or a local cluster, or a scaling study) is a child process that
speaks one contract, owned here and nowhere else:

- `commands`: how to start each kind of job (`python -m ...`, so it works from
  an installed package, not only from a checkout);
- `codes`: the stop message, exit codes, run statuses, worker states, task ids;
- `paths`: the run directory's layout, as a read-only path object;
- `channel`: the child's side (events on a private stdout, stop on stdin,
  signals, dying with the parent);
- `profile`: asking a trainer for a TensorFlow profile of chosen steps ("profile N" on stdin);
- `client`: the parent's side (start, read events, stop with grace, kill,
  never orphan a process).

The event types themselves are in `engine.core.events`. No TensorFlow and no Qt:
the window imports this package.
"""
