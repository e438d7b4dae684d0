"""Property tests: random valid event sequences against an independent, straightforward count."""

import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from gm.score.journal import Journal
from scorer.humalien import fold
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
    """Totals, game number, 666s this game and whether it is over, counted the plain way."""
    done, _ = effective(events)
    starts = [i for i, e in enumerate(done) if isinstance(e, NewMatch)]
    if not starts:
        return None
    new = done[starts[-1]]
    a, b = new.players
    totals = {a: 0, b: 0}
    game, multiplier, sixes, over = 1, 1, 0, False
    for e in done[starts[-1] + 1:]:
        if isinstance(e, Flow):
            totals[e.player] += e.piles
        elif isinstance(e, Skull):
            totals[e.player] += game * e.cards
        elif isinstance(e, SixSixSix):
            totals[e.player] += 3 * game
            multiplier *= 3
            sixes += 1
        elif isinstance(e, GodIsland):
            totals[e.player] += 30
        elif isinstance(e, AngelCut):
            totals[e.player] += 5
        else:
            winner = e.player if isinstance(e, Finish) else (b if e.player == a else a)
            left = e.opponent_left if isinstance(e, Finish) else e.winner_left
            totals[winner] += (5 + left) * multiplier
            if game == 3:
                over = True
            else:
                game, multiplier, sixes = game + 1, 1, 0
    return {"players": (a, b), "remote": new.remote, "totals": totals, "game": game,
            "sixes": sixes, "over": over}


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
            limit_sixes = 2 if model["remote"] else 1
            kinds = ["flow", "skull", "god", "angel", "finish", "foul"]
            if model["sixes"] < limit_sixes:
                kinds.append("666")
            kind = draw(st.sampled_from(kinds))
            events.append({
                "flow": lambda: Flow(player, draw(st.integers(0, 5))),
                "skull": lambda: Skull(player, draw(st.integers(1, 10 if model["remote"] else 6))),
                "666": lambda: SixSixSix(player),
                "god": lambda: GodIsland(player),
                "angel": lambda: AngelCut(player),
                "finish": lambda: Finish(player, draw(st.integers(0, 30))),
                "foul": lambda: Foul(player, draw(st.integers(0, 30))),
            }[kind]())
    return events


@settings(max_examples=150, deadline=None)
@given(valid_events())
def test_totals_equal_a_straightforward_count(events):
    state = fold(events)
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


@settings(max_examples=100, deadline=None)
@given(valid_events())
def test_undo_then_redo_is_the_identity(events):
    state = fold(events)
    if state.done is None:
        return
    assert fold([Undo(), Redo()], state) == state


@settings(max_examples=100, deadline=None)
@given(valid_events(), st.integers(0, 5))
def test_an_event_then_undo_restores_the_sheet(events, piles):
    state = fold(events)
    if state.match is None or state.match.over:
        return
    after = fold([Flow(state.match.players[0], piles), Undo()], state)
    assert after.match == state.match and after.done == state.done


@settings(max_examples=20, deadline=None)
@given(valid_events(max_size=20))
def test_the_fold_of_the_journal_equals_the_state_in_memory(events):
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "match.jsonl")
        for event in events:
            journal.append(lambda _state, event=event: event)
        assert journal.load() == fold(events)
