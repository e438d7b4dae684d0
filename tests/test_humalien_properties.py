"""Property tests: random valid event sequences against an independent, straightforward count."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from gm.score.journal import Journal
from scorer.humalien import fold
from scorer.humalien.errors import Impossible, NothingToUndo
from scorer.humalien.events import (
    AngelCut, Finish, Flow, Foul, GodIsland, NewMatch, Redo, SixSixSix, Skull, Undo,
)

PLAYERS = [("Alice", "Bob"), ("健", "美緒")]


def effective(events):
    """The events still in effect once every undo and redo is applied, in order."""
    done, undone = [], []
    for event in events:
        if isinstance(event, Undo):
            undone.append(done.pop())
        elif isinstance(event, Redo):
            done.append(undone.pop())
        else:
            done.append(event)
            undone.clear()
    return done, undone


def reference(events):
    """Totals, game number, 666s, God Islands, Angel Cuts and empty piles this game, and
    whether it is over, counted the plain way."""
    done, _ = effective(events)
    starts = [i for i, e in enumerate(done) if isinstance(e, NewMatch)]
    if not starts:
        return None
    new = done[starts[-1]]
    a, b = new.players
    totals = {a: 0, b: 0}
    game, multiplier, over = 1, 1, False
    counts = {"666": 0, "god": 0, "angel": 0}
    piles = {a: 0, b: 0}
    for e in done[starts[-1] + 1:]:
        if isinstance(e, Flow):
            totals[e.player] += e.piles
            piles[e.player] = e.piles
        elif isinstance(e, Skull):
            totals[e.player] += game * e.cards
        elif isinstance(e, SixSixSix):
            totals[e.player] += 3 * game + (e.piles or 0)
            multiplier *= 3
            counts["666"] += 1
            piles[e.player] = piles[e.player] if e.piles is None else e.piles
        elif isinstance(e, GodIsland):
            totals[e.player] += 30
            counts["god"] += 1
        elif isinstance(e, AngelCut):
            piles[e.player] = 5 if e.piles is None else e.piles
            totals[e.player] += piles[e.player]
            counts["angel"] += 1
        else:
            winner = e.player if isinstance(e, Finish) else (b if e.player == a else a)
            left = e.opponent_left if isinstance(e, Finish) else e.winner_left
            totals[winner] += (5 + left) * multiplier
            if game == 3:
                over = True
            else:
                game, multiplier = game + 1, 1
                counts = dict.fromkeys(counts, 0)
                piles = {a: 0, b: 0}
    return {"players": (a, b), "remote": new.remote, "totals": totals, "game": game,
            "counts": counts, "piles": piles, "over": over}


def _scoring(draw, kind, player, piles, remote):
    """One scoring event of `kind` by `player`, its counts drawn (`piles`: the piles it may find empty)."""
    return {
        "flow": lambda: Flow(player, draw(piles)),
        "skull": lambda: Skull(player, draw(st.integers(1, 10 if remote else 6))),
        "666": lambda: SixSixSix(player, draw(st.none() | piles)),
        "god": lambda: GodIsland(player),
        "angel": lambda: AngelCut(player, draw(st.none() | piles)),
        "finish": lambda: Finish(player, draw(st.integers(1, 30))),
        "foul": lambda: Foul(player, draw(st.integers(1, 30))),
    }[kind]()


@st.composite
def valid_events(draw, max_size=40):
    events = [NewMatch(draw(st.sampled_from(PLAYERS)), remote=draw(st.booleans()))]
    for _ in range(draw(st.integers(0, max_size))):
        done, undone = effective(events)
        model = reference(events)
        choices = ["undo"] if done else []
        if undone:
            choices.append("redo")
        if model is None or model["over"]:
            choices.append("new")
        else:
            choices += ["score"] * 6 + ["new_abandon"]
        choice = draw(st.sampled_from(choices))
        if choice == "undo":
            events.append(Undo())
        elif choice == "redo":
            events.append(Redo())
        elif choice.startswith("new"):
            events.append(NewMatch(draw(st.sampled_from(PLAYERS)), remote=draw(st.booleans()),
                                   abandon=choice == "new_abandon"))
        else:
            player = draw(st.sampled_from(model["players"]))
            boxes = 2 if model["remote"] else 1
            kinds = ["flow", "skull", "finish", "foul"]
            kinds += [kind for kind, n in model["counts"].items() if n < boxes]
            kind = draw(st.sampled_from(kinds))
            piles = st.integers(model["piles"][player], 5)  # HU-R6: empty piles never come back
            events.append(_scoring(draw, kind, player, piles, model["remote"]))
    return events


@st.composite
def impossible_events(draw, model):
    """An event HU-R6 refuses in the game `model` describes (None when the match is over)."""
    if model is None or model["over"]:
        return None
    player = draw(st.sampled_from(model["players"]))
    boxes = 2 if model["remote"] else 1
    kinds = ["finish", "foul"] + [kind for kind, n in model["counts"].items() if n >= boxes and kind != "666"]
    if model["piles"][player] > 0:
        kinds += ["flow", "666_flow", "angel_kept"]
    kind = draw(st.sampled_from(kinds))
    fewer = st.integers(0, model["piles"][player] - 1) if model["piles"][player] else st.nothing()
    if kind == "666_flow" and model["counts"]["666"] >= boxes:
        kind = "finish"
    if kind == "angel_kept" and model["counts"]["angel"] >= boxes:
        kind = "foul"
    return {
        "finish": lambda: Finish(player, 0),
        "foul": lambda: Foul(player, 0),
        "god": lambda: GodIsland(player),
        "angel": lambda: AngelCut(player),
        "flow": lambda: Flow(player, draw(fewer)),
        "666_flow": lambda: SixSixSix(player, draw(fewer)),
        "angel_kept": lambda: AngelCut(player, draw(fewer)),
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
    """The journal's state is the fold's, but for undo history before the current match's start
    (the journal reads that only when an undo reaches it)."""
    done, deep = loaded.done, full.done
    while done is not None:
        if deep is None or done[0] != deep[0]:
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
