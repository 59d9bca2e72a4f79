"""The static edition: ``python -m explorer.site OUT_DIR`` writes a folder any static host
serves (Explore's live grid computed in the browser, and Start here). See build.py."""
