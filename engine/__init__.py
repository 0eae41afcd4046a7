"""The engine of the dashboard: everything but the window. No Qt here.

In layers, each importing only the ones below it (import-linter contracts in
pyproject.toml keep it so):

    engine.cli                     the headless commands (`tfdd ...`)
    engine.tools, engine.cluster   the scaling study; local clusters (launcher, `cluster` commands)
    engine.train                   the trainer process; `engine.train.tf_runtime` is the one module
                                   that imports TensorFlow
    the seam                       config, data_kinds, model_kinds, events, problems, plan, protocol,
                                   rundir, history, tfconfig, resources, nvml, exports: TensorFlow-free modules that
                                   describe runs and their files; all the window may import
"""
