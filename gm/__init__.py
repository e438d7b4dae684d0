"""gm: a spoken game master for card nights played with real cards."""

__version__ = "0.1.0"
