"""The TensorFlow side of the dashboard: config, events, trainer, CLI. No Qt here.

Modules that the GUI may import (config, events, cluster, paths) import no
TensorFlow; the rest import it lazily, inside the trainer process.
"""
