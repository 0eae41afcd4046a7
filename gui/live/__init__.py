"""The Live tab: run controls, live plots, the workers panel and the log of the run in progress."""
