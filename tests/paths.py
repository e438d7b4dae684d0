"""Where the suite finds the tree, wherever a test file sits below tests/: the checkout's root,
the tests folder (its shared helpers) and the committed fixtures."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
