"""The Qt side of the dashboard. No TensorFlow here: it talks to the engine
through RunConfig JSON, the event stream and child processes."""
