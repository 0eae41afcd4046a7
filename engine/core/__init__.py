"""The TensorFlow-free seam: what describes a run (config, events, the worker protocol, the device plan,
TF_CONFIG, data and model kinds) and what reads and writes its folder. The window imports only this package."""
