"""rand() for flite's renders and vosk's decodes: each draws as if it alone ran, and a render is
not held up by a whole decode, only by the call into the library that is drawing."""

from __future__ import annotations

import ctypes
import threading

import pytest

from gm import c_random

switchable = pytest.mark.skipif(c_random._switchable() is None, reason="rand() keeps no state to switch here")
WAIT = 60  # seconds a thread waits for the other before the test fails (never reached when it passes)


def alone(n: int) -> list[int]:
    """The first `n` numbers rand() gives after srand(SEED), as in a fresh process."""
    libc = ctypes.CDLL(None)
    libc.srand(c_random.SEED)
    return [libc.rand() for _ in range(n)]


@switchable
def test_a_render_runs_between_two_calls_of_a_decode_and_each_draws_as_if_alone():
    """The decode's second block is fed only after a render has run meanwhile (with one lock held
    over the whole decode, the render waited for the decode and the decode for the render)."""
    libc = ctypes.CDLL(None)
    decoded: list[int] = []
    rendered: list[int] = []
    order: list[str] = []
    first_block, render_done = threading.Event(), threading.Event()

    def decode() -> None:
        with c_random.drawing() as rand:
            with rand.call():
                decoded.extend(libc.rand() for _ in range(3))
            order.append("block")
            first_block.set()
            render_done.wait(WAIT)
            with rand.call():
                decoded.extend(libc.rand() for _ in range(3))
            order.append("block")

    def render() -> None:
        first_block.wait(WAIT)
        with c_random.seeded_rand():
            rendered.extend(libc.rand() for _ in range(2))
        order.append("render")
        render_done.set()

    threads = [threading.Thread(target=decode), threading.Thread(target=render)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert order == ["block", "render", "block"]
    assert decoded == alone(6) and rendered == alone(2)


@switchable
def test_draws_outside_every_call_leave_a_decode_untouched():
    """Another part of the process drawing from rand() between two blocks changes nothing."""
    libc = ctypes.CDLL(None)
    with c_random.drawing() as rand:
        with rand.call():
            drawn = [libc.rand()]
        for _ in range(17):
            libc.rand()
        with rand.call():
            drawn.append(libc.rand())
    assert drawn == alone(2)


def test_where_rand_cannot_be_seeded_a_vosk_listener_says_so_in_the_night_language(monkeypatch):
    """Where ctypes cannot open the C library (Windows), seeding is skipped, and the night's
    listener says so (once, as it opens) when its model dithers from rand(); never otherwise."""
    from gm.hearing.cannot_listen import say_unseeded
    from gm.hearing.vosk_model import VoskModel
    from gm.text.lines import Pack

    vosk = object.__new__(VoskModel)  # a model as loaded (only its kind counts here)
    notes: list[str] = []
    say_unseeded(vosk, Pack("en"), notes.append)
    assert notes == []
    monkeypatch.setattr(c_random, "_libc", lambda: None)
    say_unseeded(object(), Pack("en"), notes.append)  # a model that draws nothing (Whisper)
    assert notes == []
    for lang in ("en", "ja", "ko"):
        say_unseeded(vosk, Pack(lang), notes.append)
    assert notes[0] == ("gm: the same words may be heard a little differently each time: random numbers "
                        "cannot be seeded on this system")
    assert len(notes) == 3 and all(note.startswith("gm: ") for note in notes)
