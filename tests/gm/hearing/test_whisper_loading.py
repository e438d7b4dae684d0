"""How the Whisper listener is loaded: from the two parts joined and checked into an in-memory
file that CTranslate2 reads and gm lets go (no copy of the model held through the night, none
written to disk), with as many decode threads as the machine has cores (at most 4)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from gm.hearing import whisper
from gm.hearing.cannot_listen import NoModel

needs_whisper = pytest.mark.skipif(not whisper.available(), reason="needs gm-card-nights[whisper]")
needs_memfd = pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="in-memory files are Linux's")


class Loaded:
    """What CTranslate2 was given: the model folder's files as read at load time, and its options."""

    calls: list[dict] = []

    def __init__(self, model_path: str, **options) -> None:
        folder = Path(model_path)
        model = (folder / "model.bin").read_bytes() if (folder / "model.bin").exists() else b""
        self.calls.append({"folder": folder, "sha256": hashlib.sha256(model).hexdigest(), "options": options,
                           "config": (folder / "config.json").exists()})


@pytest.fixture
def loaded(monkeypatch) -> list[dict]:
    import ctranslate2

    Loaded.calls = []
    monkeypatch.setattr(ctranslate2.models, "Whisper", Loaded)
    return Loaded.calls


@pytest.mark.slow
@needs_whisper
@needs_memfd
def test_the_model_is_read_from_a_checked_file_that_is_let_go_once_loaded(loaded) -> None:
    whisper.WhisperModel("en")
    [call] = loaded
    assert call["sha256"] == whisper.MODEL_SHA256 and call["config"]
    assert "files" not in call["options"]  # bytes handed over are kept by CTranslate2 for the model's life
    assert not call["folder"].exists()


@needs_whisper
@needs_memfd
def test_decode_threads_are_the_cores_at_most_four(loaded, monkeypatch) -> None:
    monkeypatch.setattr(whisper, "joined_model", _folder_of_nothing, raising=False)
    for cores, expected in ((1, 1), (2, 2), (16, 4)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, n=cores: set(range(n)))
        whisper.WhisperModel("en")
        assert loaded[-1]["options"]["intra_threads"] == expected


@needs_memfd
def test_damaged_parts_are_refused_before_ctranslate2_reads_them(loaded, monkeypatch, tmp_path) -> None:
    for index, part in enumerate(whisper.PARTS, start=1):
        data = tmp_path / part / "data"
        data.mkdir(parents=True)
        (data / f"model.bin.part{index}").write_bytes(b"not a model")
    monkeypatch.setattr(whisper, "_data", lambda package: tmp_path / package / "data")
    monkeypatch.setattr(whisper, "available", lambda: True)
    with pytest.raises(NoModel) as damaged:
        whisper.WhisperModel("en")
    assert damaged.value.key == "whisper_damaged" and "gm-card-nights[whisper]" in str(damaged.value)
    assert loaded == []


def _folder_of_nothing():
    import contextlib
    import tempfile

    @contextlib.contextmanager
    def folder():
        with tempfile.TemporaryDirectory() as name:
            yield Path(name)

    return folder()


def test_each_phrase_is_scored_from_one_decoded_sequence_and_none_begins_another() -> None:
    sequences = [[7, 8], [7], [9], [7, 8], [], [7, 8, 4], [9, 1], [2]]
    decoded = whisper.covering(sequences)
    assert sorted(decoded) == [[2], [7, 8, 4], [9, 1]]
    for sequence in sequences:
        longer = decoded[whisper.covered(sequence, decoded)]
        assert longer[: len(sequence)] == sequence



def test_phrases_that_begin_alike_are_grouped_under_all_they_begin_with() -> None:
    """Four or more phrases whose first two tokens agree and that go on after them are a group,
    under every token they all begin with; three, or phrases no longer than the two, are not."""
    filler = [5, 6, 7]  # え っと 、
    counts = [[*filler, n] for n in (1, 2, 3)] + [[*filler, 4, 9]]
    names = [[8, 1, 2], [8, 1, 3], [8, 1, 4]]
    short = [[5, 6], [5]]
    sequences = [*counts, *names, *short, [5, 2, 2]]
    assert whisper.begun_alike(sequences) == {(5, 6, 7): [0, 1, 2, 3]}
    assert whisper.begun_alike([*names, [8, 1, 2, 5]]) == {(8, 1): [0, 1, 2, 3]}
    assert whisper.begun_alike(counts[:3]) == {}

@pytest.mark.slow
@needs_whisper
def test_without_in_memory_files_the_checked_bytes_are_handed_over(monkeypatch) -> None:
    import ctranslate2

    given = []
    monkeypatch.delattr(os, "memfd_create", raising=False)
    monkeypatch.setattr(ctranslate2.models, "Whisper", lambda path, files, **options: given.append(files))
    whisper.WhisperModel("en")
    assert hashlib.sha256(given[0]["model.bin"]).hexdigest() == whisper.MODEL_SHA256
