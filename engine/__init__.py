"""The TensorFlow side of the dashboard: config, events, trainer, CLI. No Qt here.

Only tf_runtime imports TensorFlow, and only the trainer process imports
tf_runtime: the modules that describe runs (config, events, rundir, history,
cluster, cluster_export, script_export, nvml) are safe for the GUI, and an
import-linter contract in pyproject.toml keeps it that way.
"""
