"""The training side: the only part of the engine that runs TensorFlow.

It runs in the trainer process (`python -m engine.train.worker`), never in
the window. `tf_runtime` is the one module that imports TensorFlow and
tf-keras (an import-linter contract keeps it so); the others get `tf` and
`keras` from it.
"""
