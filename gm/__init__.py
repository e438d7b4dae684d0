"""gm: a spoken game master for card nights played with real cards."""

__version__ = "0.1.0"
DISTRIBUTION = "gm-card-nights"  # what pip installs and uninstalls (PyPI's "gm" is another project)
