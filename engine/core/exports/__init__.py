"""A run config rendered as files for elsewhere: a standalone script, a cluster bundle.

Pure renderers of the seam's descriptions (RunConfig, TF_CONFIG): no
TensorFlow, no processes. The window and the command line call the same
functions, so a file written from the window is the file `tfdd` writes.
"""
