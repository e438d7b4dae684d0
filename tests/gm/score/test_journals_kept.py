"""Recorded Humalien journals fold as they did when the digests were written: for each seed, a
journal of events drawn without looking at the state (so most are played, some refused), the
--json change of every entry or the refusal's key, the replay's sheet (which skips HU-R6), and the
journal's bytes on disk with what `Journal.load` folds from them (a digest per seed in
tests/fixtures/journals_folded.json).

After a deliberate change to scoring, rewrite the digests with
`PYTHONPATH=.:bench .venv/bin/python tests/gm/score/test_journals_kept.py` and say why in the commit.
"""

import dataclasses
import hashlib
import json
import random
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gm.score.journal import Journal, encode
from gm.score.render import change_dict
from scorer.humalien.errors import ScoreError
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)
from scorer.humalien.fold import State, advance, apply

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "journals_folded.json"
SEEDS = range(40)
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)


def drawn(seed: int) -> list:
    """A journal's events for `seed`: a new match (sometimes remote), then entries of every kind."""
    rng = random.Random(seed)
    a, b = ("Alice", "Bob") if seed % 2 else ("健", "美緒")
    events: list = [NewMatch((a, b), remote=seed % 3 == 0)]
    for _ in range(rng.randint(10, 70)):
        who = rng.choice((a, b))
        events.append(rng.choice((
            lambda who: Flow(who, rng.randint(0, 5)),
            lambda who: Flow(who, rng.randint(0, 5)),
            lambda who: Skull(who, rng.randint(1, 4)),
            lambda who: SixSixSix(who, rng.choice((None, rng.randint(0, 5)))),
            lambda who: GodIsland(who),
            lambda who: AngelCut(who, rng.choice((None, rng.randint(0, 5))),
                                 rng.choice((None, None, rng.randint(1, 12)))),
            lambda who: Finish(who, rng.randint(0, 14)),
            lambda who: Foul(who, rng.randint(1, 12)),
            lambda who: Undo(),
            lambda who: Redo(),
            lambda who: NewMatch((a, b), abandon=rng.random() < 0.5),
        ))(who))
    return events


def folded(seed: int) -> dict:
    """What the journal of `seed` folds to: each entry's change (or refusal), the lenient
    replay's sheet, and the bytes and sheet of the journal written to disk."""
    events = drawn(seed)
    state, lenient, changes, kept = State(), State(), [], []
    for event in events:
        try:
            state, change = apply(state, event)
        except ScoreError as error:
            changes.append(["refused", type(error).__name__, error.key])
        else:
            changes.append(change_dict(change))
            kept.append(event)
        try:
            lenient = advance(lenient, event)
        except ScoreError as error:
            changes.append(["lenient refused", error.key])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "match.jsonl"
        path.write_bytes(b"".join(encode(event, AT) for event in kept))
        loaded = Journal(path).load()
        written = hashlib.sha256(path.read_bytes()).hexdigest()
    assert loaded.match == state.match
    sheet = None if lenient.match is None else dataclasses.asdict(lenient.match)
    return {"changes": changes, "lenient": sheet, "written": written,
            "loaded": None if loaded.match is None else dataclasses.asdict(loaded.match)}


def digest(seed: int) -> str:
    data = json.dumps(folded(seed), ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_recorded_journal_folds_as_before(seed):
    assert digest(seed) == json.loads(FIXTURE.read_text(encoding="utf-8"))[str(seed)]


def test_the_journals_reach_every_ending_and_refusal():
    """The drawn journals are worth keeping: they end games every way, finish matches, and refuse."""
    seen = [entry for seed in SEEDS for entry in folded(seed)["changes"]]
    kinds = {entry["event"]["kind"] for entry in seen if isinstance(entry, dict)}
    assert kinds == {"new", "flow", "skull", "666", "god_island", "angel_cut", "finish", "foul", "undo", "redo"}
    assert any(isinstance(entry, dict) and entry["over"] for entry in seen)
    refusals = {entry[2] for entry in seen if isinstance(entry, list) and entry[0] == "refused"}
    assert len(refusals) >= 8


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({str(seed): digest(seed) for seed in SEEDS}, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {FIXTURE}\n")
