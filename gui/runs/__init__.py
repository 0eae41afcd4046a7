"""The Runs tab: past runs, their curves side by side, exports, and the scaling study."""
