"""Hyper-parameter sweeps in the window: the Sweep dialog (a space built from the run form, the slot plan)
and the sweep view (its trials live, a parallel-coordinates chart, each parameter's importance).

The sweep itself is a protocol process (`tfdd sweep --events`, engine.core.protocol.commands.sweep_command);
the window reads its sweep_trial and sweep_summary events and never runs Optuna itself."""
