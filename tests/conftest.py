import pytest

from gm.clock import FakeClock


@pytest.fixture
def clock():
    return FakeClock()
