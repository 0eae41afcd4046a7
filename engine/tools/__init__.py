"""Tools built on the trainer: the scaling study (one trainer process per replica count)."""
