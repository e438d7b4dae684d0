"""Valid Humalien event sequences for property tests, and the straightforward count they are held
against (tests/scorer/humalien/test_humalien_properties.py; tests/gm/test_journal_scale.py)."""

from hypothesis import strategies as st

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
    """Totals, game number, 666s, God Islands, Angel Cuts and empty piles this game, the 6s and
    Humaliens played, the most cards each player can still hold, and whether it is over,
    counted the plain way."""
    done, _ = effective(events)
    starts = [i for i, e in enumerate(done) if isinstance(e, NewMatch)]
    if not starts:
        return None
    new = done[starts[-1]]
    a, b = new.players
    totals = {a: 0, b: 0}
    game, multiplier, over = 1, 1, False

    def fresh():
        return {"666": 0, "god": 0, "angel": 0, "skull_cards": 0, "skull_plays": 0}, {a: 0, b: 0}, {a: 30, b: 30}

    counts, piles, holds = fresh()

    def other(player):
        return b if player == a else a

    def empty(player, n):
        piles[player] = n
        if n == 5:  # no stock any more: a hand of at most 10
            holds[player] = min(holds[player], 10)

    for e in done[starts[-1] + 1:]:
        ended = None
        if isinstance(e, Flow):
            totals[e.player] += e.piles
            empty(e.player, e.piles)
        elif isinstance(e, Skull):
            totals[e.player] += game * e.cards
            counts["skull_cards"] += e.cards
            counts["skull_plays"] += 1
            holds[e.player] -= e.cards
        elif isinstance(e, SixSixSix):
            totals[e.player] += 3 * game + (e.piles or 0)
            multiplier *= 3
            counts["666"] += 1
            counts["skull_cards"] += 3
            holds[e.player] -= 4
            empty(e.player, piles[e.player] if e.piles is None else e.piles)
        elif isinstance(e, GodIsland):
            totals[e.player] += 30
            counts["god"] += 1
            holds[e.player] -= 4
        elif isinstance(e, AngelCut):
            holds[e.player] -= 4
            empty(e.player, 5 if e.piles is None else e.piles)
            totals[e.player] += piles[e.player]
            counts["angel"] += 1
            if e.opponent_left is not None:
                ended = e.player, e.opponent_left
        elif isinstance(e, Finish):
            ended = e.player, e.opponent_left
        else:
            ended = other(e.player), e.winner_left
        if ended is not None:
            winner, left = ended
            totals[winner] += (5 + left) * multiplier
            if game == 3:
                over = True
            else:
                game, multiplier = game + 1, 1
                counts, piles, holds = fresh()
    return {"players": (a, b), "remote": new.remote, "totals": totals, "game": game,
            "counts": counts, "piles": piles, "holds": holds, "over": over}


def box_room(model):
    """How many more skull cards, and 6s at the least, this game's box(es) allow."""
    boxes = 2 if model["remote"] else 1
    counts = model["counts"]
    sixes = counts["skull_plays"] + 3 * counts["666"]
    return 6 * boxes - counts["skull_cards"], 4 * boxes - sixes


def _scoring(draw, kind, player, model):
    """One scoring event of `kind` by `player` the cards of `model`'s game can produce."""
    piles = st.integers(model["piles"][player], 5)  # HU-R6: empty piles never come back
    cards, _ = box_room(model)
    left = st.integers(1, model["holds"][model["players"][1 - model["players"].index(player)]])
    return {
        "flow": lambda: Flow(player, draw(piles)),
        "skull": lambda: Skull(player, draw(st.integers(1, min(cards, model["holds"][player])))),
        "666": lambda: SixSixSix(player, draw(st.none() | piles)),
        "god": lambda: GodIsland(player),
        "angel": lambda: AngelCut(player, draw(st.none() | piles), draw(st.none() | left)),
        "finish": lambda: Finish(player, draw(left)),
        "foul": lambda: Foul(player, draw(left)),
    }[kind]()


def possible_kinds(model, player):
    """The kinds of event `player` can still make in `model`'s game (HU-R6)."""
    boxes = 2 if model["remote"] else 1
    cards, sixes = box_room(model)
    holds = model["holds"]
    opponent = model["players"][1 - model["players"].index(player)]
    kinds = ["flow"]
    if holds[opponent] > 0:
        kinds += ["finish", "foul"]
    if cards >= 1 and sixes >= 1 and holds[player] >= 1:
        kinds.append("skull")
    four = holds[player] >= 4
    if four and model["counts"]["666"] < boxes and cards >= 3 and sixes >= 3:
        kinds.append("666")
    if four and model["counts"]["god"] < boxes:
        kinds.append("god")
    if four and model["counts"]["angel"] < boxes and holds[opponent] > 0:
        kinds.append("angel")
    return kinds


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
            kind = draw(st.sampled_from(possible_kinds(model, player)))
            events.append(_scoring(draw, kind, player, model))
    return events
