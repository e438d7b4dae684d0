"""Property tests: random valid event sequences against an independent, straightforward count."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from gm.score.journal import Journal
from scorer.humalien import fold
from scorer.humalien.fold import State, apply
from scorer.humalien.errors import Impossible, NothingToUndo, ScoreError
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)

from humalien_events import PLAYERS, box_room, reference, valid_events

pytestmark = pytest.mark.slow  # long property runs against the journal on disk

@st.composite
def impossible_events(draw, model):
    """An event HU-R6 refuses in the game `model` describes (None when the match is over)."""
    if model is None or model["over"]:
        return None
    player = draw(st.sampled_from(model["players"]))
    opponent = model["players"][1 - model["players"].index(player)]
    boxes = 2 if model["remote"] else 1
    cards, sixes = box_room(model)
    holds = model["holds"]
    kinds = ["finish", "foul"] + [kind for kind in ("god", "angel") if model["counts"][kind] >= boxes]
    if model["piles"][player] > 0:
        kinds += ["flow", "666_flow", "angel_kept"]
    if holds[opponent] < 30:
        kinds += ["finish_more", "foul_more"]
    if cards < 6 * boxes or sixes < 1:  # the box has fewer skull cards (or 6s) left than one play may hold
        kinds.append("skull")
    if sixes < 3 and model["counts"]["666"] < boxes:
        kinds.append("666_sixes")
    kind = draw(st.sampled_from(kinds))
    fewer = st.integers(0, model["piles"][player] - 1) if model["piles"][player] else st.nothing()
    if kind == "666_flow" and model["counts"]["666"] >= boxes:
        kind = "finish"
    if kind == "angel_kept" and model["counts"]["angel"] >= boxes:
        kind = "foul"
    more = st.integers(holds[opponent] + 1, 30)
    return {
        "finish": lambda: Finish(player, 0),
        "foul": lambda: Foul(player, 0),
        "finish_more": lambda: Finish(player, draw(more)),
        "foul_more": lambda: Foul(player, draw(more)),
        "god": lambda: GodIsland(player),
        "angel": lambda: AngelCut(player),
        "flow": lambda: Flow(player, draw(fewer)),
        "666_flow": lambda: SixSixSix(player, draw(fewer)),
        "angel_kept": lambda: AngelCut(player, draw(fewer)),
        "skull": lambda: Skull(player, draw(st.integers(cards + 1, 6 * boxes)) if sixes >= 1 else 1),
        "666_sixes": lambda: SixSixSix(player),
    }[kind]()


@settings(max_examples=150, deadline=None)
@given(valid_events())
def test_totals_equal_a_straightforward_count(events):
    state = fold(events)
    assert fold(events, strict=True) == state  # every generated event is one real cards can produce (HU-R6)
    model = reference(events)
    if model is None:
        assert state.match is None
        return
    match = state.match
    assert match.players == model["players"]
    assert dict(zip(match.players, match.totals)) == model["totals"]
    assert match.game == model["game"]
    assert match.over == model["over"]
    assert sum(g.points[0] + g.points[1] for g in match.games) == sum(model["totals"].values())


@settings(max_examples=150, deadline=None)
@given(valid_events(), st.data())
def test_hu_r6_what_the_cards_cannot_produce_is_refused_and_changes_nothing(events, data):
    state = fold(events)
    event = data.draw(impossible_events(reference(events)))
    if event is None:
        return
    with pytest.raises(Impossible, match="HU-R6"):
        fold([event], state, strict=True)


def same_state(loaded, full):
    """The journal's state is the fold's, but for undo history before the current match's start,
    the sheet its `new` replaced included (the journal reads that only when an undo reaches it)."""
    done, deep = loaded.done, full.done
    while done is not None:
        start = done[1] is None and isinstance(done[0].event, NewMatch)
        if deep is None or (done[0] != deep[0] if not start else done[0][::2] != deep[0][::2]):
            return False
        done, deep = done[1], deep[1]
    return (loaded.match, loaded.undone) == (full.match, full.undone)


@settings(max_examples=10, deadline=None)
@given(valid_events(max_size=15), st.data())
def test_a_refused_event_leaves_the_journal_as_it_was(events, data):
    event = data.draw(impossible_events(reference(events)))
    if event is None:
        return
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "match.jsonl")
        for done in events:
            journal.append(lambda _state, done=done: done)
        before = journal.path.read_bytes()
        with pytest.raises(Impossible):
            journal.append(lambda _state: event)
        assert journal.path.read_bytes() == before and same_state(journal.load(), fold(events))


@settings(max_examples=100, deadline=None)
@given(valid_events())
def test_undo_then_redo_is_the_identity(events):
    state = fold(events)
    if state.done is None:
        return
    assert fold([Undo(), Redo()], state) == state


@settings(max_examples=100, deadline=None)
@given(valid_events(), st.integers(0, 5))
def test_an_event_then_undo_restores_the_sheet(events, more):
    state = fold(events)
    if state.match is None or state.match.over:
        return
    piles = min(5, state.match.current.piles[0] + more)
    after = fold([Flow(state.match.players[0], piles), Undo()], state)
    assert after.match == state.match and after.done == state.done


@settings(max_examples=20, deadline=None)
@given(valid_events(max_size=20))
def test_the_journal_behaves_as_the_fold_in_memory_undo_after_undo(events):
    """The journal folds from the current match on; undoing back through earlier matches, one
    command at a time, still meets every sheet the fold in memory meets."""
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "match.jsonl")
        for event in events:
            journal.append(lambda _state, event=event: event)
        state = fold(events)
        assert same_state(journal.load(), state)
        while state.done is not None:
            state = fold([Undo()], state)
            journal.append(lambda _state: Undo())
            assert journal.load().match == state.match
        with pytest.raises(NothingToUndo):
            journal.append(lambda _state: Undo())


def fits(model, event):
    """Whether real cards can produce the scoring `event` in `model`'s game, decided the plain way."""
    if model is None or model["over"]:
        return False
    boxes = 2 if model["remote"] else 1
    player = event.player
    if player not in model["players"]:
        return False
    opponent = model["players"][1 - model["players"].index(player)]
    counts, holds, had = model["counts"], model["holds"], model["piles"][player]
    cards, sixes = box_room(model)

    def flowed(piles):
        return piles is None or had <= piles <= 5

    if isinstance(event, Flow):
        return flowed(event.piles)
    if isinstance(event, Skull):
        return 1 <= event.cards <= min(cards, holds[player]) and sixes >= 1
    if isinstance(event, SixSixSix):
        return counts["666"] < boxes and cards >= 3 and sixes >= 3 and holds[player] >= 4 and flowed(event.piles)
    if isinstance(event, GodIsland):
        return counts["god"] < boxes and holds[player] >= 4
    if isinstance(event, AngelCut):
        won = event.opponent_left is None or 1 <= event.opponent_left <= holds[opponent]
        return counts["angel"] < boxes and holds[player] >= 4 and flowed(event.piles) and won
    left = event.opponent_left if isinstance(event, Finish) else event.winner_left
    return 1 <= left <= holds[opponent]


@st.composite
def any_events(draw, max_size=40):
    """A new match, then events with any counts their commands take: many are impossible."""
    players = draw(st.sampled_from(PLAYERS))
    events = [NewMatch(players, remote=draw(st.booleans()))]
    for _ in range(draw(st.integers(0, max_size))):
        player = draw(st.sampled_from(players))
        piles, left = st.integers(0, 5), st.integers(0, 30)
        events.append(draw(st.sampled_from([
            Undo(), Redo(), Flow(player, draw(piles)), Skull(player, draw(st.integers(1, 12))),
            SixSixSix(player, draw(st.none() | piles)), GodIsland(player),
            AngelCut(player, draw(st.none() | piles), draw(st.none() | left)),
            Finish(player, draw(left)), Foul(player, draw(left)),
        ])))
    return events


@settings(max_examples=150, deadline=None)
@given(any_events())
def test_hu_r6_an_event_is_accepted_exactly_when_the_box_can_produce_it(events):
    """Random entries, each accepted or refused: every accepted journal stays within the box
    (6s, Humaliens, cards held), undo and redo keep those counts, and the fold's counts are the
    plain count's."""
    state, accepted = State(), []
    for event in events:
        model = reference(accepted)
        try:
            state, _ = apply(state, event)
        except ScoreError:
            assert isinstance(event, (Undo, Redo, NewMatch)) or not fits(model, event), event
            continue
        assert isinstance(event, (Undo, Redo, NewMatch)) or fits(model, event), event
        accepted.append(event)
        model = reference(accepted)
        if model is None:  # the new match undone
            assert state.match is None
            continue
        cards, sixes = box_room(model)
        assert cards >= 0 and sixes >= 0 and min(model["holds"].values()) >= 0
        game = state.match.current
        assert game.skull_cards == model["counts"]["skull_cards"]
        assert game.least_sixes == model["counts"]["skull_plays"] + 3 * model["counts"]["666"]
        assert dict(zip(state.match.players, game.can_hold)) == model["holds"]
        assert dict(zip(state.match.players, state.match.totals)) == model["totals"]
