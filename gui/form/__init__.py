"""The left column: the devices panel and the run form that produces a RunConfig."""
