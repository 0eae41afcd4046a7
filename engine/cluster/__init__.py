"""The cluster side: start a cluster's tasks on this machine and watch them as one group.

The TF_CONFIG model itself (parse, validate, render) is in `engine.core.tfconfig`,
which the window imports; this package starts and supervises processes and
imports no TensorFlow.
"""
