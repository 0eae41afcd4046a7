"""A run's folder: its layout, lock, events, logs and history, written crash-safe and read as it grows."""
