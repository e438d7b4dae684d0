"""What `gm score` prints and says: change lines, totals, the sheet table with bars, CSV, JSON."""

from __future__ import annotations

import csv
from typing import IO, TYPE_CHECKING, Any

from gm.text.lines import Pack
from gm.ports import Line
from scorer.humalien.events import Foul, Kind, NewMatch, Undo, to_record
from scorer.humalien.fold import Award, Change
from scorer.humalien.sheet import GAMES, Match

if TYPE_CHECKING:
    from rich.console import Group

BAR = "█"


def pack_for_match(pack: Pack, match: Match | None) -> Pack:
    """The pack's lines with the players' readings (健=けん) from the match (the language is not
    looked up again)."""
    return pack.with_readings(dict(match.readings)) if match else pack


def _pair(match: Match) -> dict[str, Any]:
    (a, b), (x, y) = match.players, match.totals
    return {"a": a, "b": b, "x": x, "y": y}


def award_line(pack: Pack, award: Award, fouler: str | None = None) -> Line:
    key = f"score.award.{award.how}"
    if award.how in (Kind.FINISH, Kind.FOUL) and award.multiplier > 1:
        key += "_times"
    elif award.how == Kind.ANGEL_CUT and award.count is not None:
        key += "_kept"  # the stock was kept: the flow counted the piles empty
    return pack.line(key, player=award.player, points=award.points, total=award.total,
                      count=award.count, game=award.game, multiplier=award.multiplier,
                      fouler=fouler or "")


def change_lines(pack: Pack, change: Change) -> list[Line]:
    """The lines that report one change: "Alice +12 (finish: 5 + 7 left) → 26", game ends, undo."""
    event, match = change.event, change.match
    lines: list[Line] = []
    done = change.target if change.target is not None else event
    if isinstance(event, Undo):
        if isinstance(done, NewMatch):
            lines.append(pack.line("score.undone_new", a=done.players[0], b=done.players[1]))
        for award in change.awards:
            lines.append(pack.line("score.undone", player=award.player, points=-award.points,
                                    what=pack.text(f"score.kind.{award.how}"), total=award.total))
        if match is not None:
            lines.append(pack.line("score.totals", game=match.game, **_pair(match)))
        return lines
    if change.target is not None:
        lines.append(pack.line("score.redone"))
    if isinstance(done, NewMatch) and match is not None:  # a new match that took effect is the sheet
        lines.append(pack.line("score.new_remote" if done.remote else "score.new",
                                a=match.players[0], b=match.players[1]))
        return lines
    fouler = done.player if isinstance(done, Foul) else None
    lines.extend(award_line(pack, award, fouler) for award in change.awards)
    if change.ended_game is not None and match is not None:
        if match.over:
            lines.extend(result_lines(pack, match))
        else:
            lines.append(pack.line("score.game_over", game=change.ended_game, next=match.game,
                                    **_pair(match)))
    return lines


def result_lines(pack: Pack, match: Match) -> list[Line]:
    """The match result (HU-R1: equal totals are a draw)."""
    high, low = max(match.totals), min(match.totals)
    if match.winner is not None:
        return [pack.line("score.winner", player=match.winner, high=high, low=low)]
    return [pack.line("score.draw", points=high)]


def totals_lines(pack: Pack, match: Match | None) -> list[Line]:
    """What `say` reads: the totals, then the leader (or the result once the match is over)."""
    if match is None:
        return [pack.line("score.no_match")]
    lines = [pack.line("score.totals", game=match.game, **_pair(match))]
    if match.over:
        return lines + result_lines(pack, match)
    leader = match.leader
    if leader is None:
        return lines + [pack.line("score.level")]
    return lines + [pack.line("score.leader", player=leader, n=abs(match.totals[0] - match.totals[1]))]


def change_dict(change: Change) -> dict[str, Any]:
    """A change as JSON-ready data: the event, the awards, the game it ended, the totals after."""
    def plain(event: Any) -> dict[str, Any]:
        record = to_record(event)
        record.pop("v")
        return record

    match = change.match
    data: dict[str, Any] = {
        "event": plain(change.event),
        "target": None if change.target is None else plain(change.target),
        "awards": [{"player": a.player, "how": a.how, "points": a.points, "total": a.total,
                    "game": a.game} for a in change.awards],
        "ended_game": change.ended_game,
        "game": None if match is None else match.game,
        "over": False if match is None else match.over,
        "totals": {} if match is None else dict(zip(match.players, match.totals)),
    }
    return data


def sheet(match: Match, pack: Pack, width: int = 30) -> Group:
    """The score sheet as rich renderables: games × players with multiplier and ending, then bars.

    Every printed word comes from the voice pack's `score.sheet` table, in the voice's language.
    Names are plain text (rich `Text`), never read as markup: `[/bold]` is a name like any other.
    """
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def word(key: str, **fields: Any) -> Text:
        return Text(pack.text(f"score.sheet.{key}", **fields))

    progress = (pack.line("score.sheet.over") if match.over
                else pack.line("score.sheet.progress", game=match.game, games=GAMES))
    remote = pack.line("score.sheet.remote") if match.remote else ""
    title = word("title", a=match.players[0], b=match.players[1], remote=remote, progress=progress)
    table = Table(title=title, title_justify="left")
    table.add_column(word("game"), justify="right")
    for name in match.players:
        table.add_column(Text(name), justify="right")
    table.add_column("×", justify="right")
    table.add_column(word("ended_by"))
    played = {g.number: g for g in match.games}
    for number in range(1, GAMES + 1):
        game = played.get(number)
        if game is None:
            table.add_row(str(number), "", "", "", "")
            continue
        ending = Text() if game.ended_by is None else word(game.ended_by.how, player=game.ended_by.player)
        if game.ended_by is None and not match.over:
            ending = word("playing")
        table.add_row(str(number), *(str(p) for p in game.points), f"×{game.multiplier}", ending)
    table.add_section()
    result, fields = _result(match)
    table.add_row(word("total"), *(str(t) for t in match.totals), "", word(result, **fields))
    return Group(table, *map(Text, bar_rows(match, pack, width)))


def _result(match: Match) -> tuple[str, dict[str, str]]:
    """The `score.sheet` key and fields of the Total row's result (HU-R1: equal totals are a draw)."""
    if match.draw:
        return "draw", {}
    if match.winner:
        return "wins", {"player": match.winner}
    return ("leads", {"player": match.leader}) if match.leader else ("level", {})


def bar_rows(match: Match, pack: Pack, width: int = 30) -> list[str]:
    """One bar per player per game, scaled to the largest game score, aligned in terminal cells."""
    from rich.cells import cell_len

    top = max([p for g in match.games for p in g.points] + [1])
    heads = {g.number: pack.text("score.sheet.bar", game=g.number) for g in match.games}
    head_width = max([cell_len(h) for h in heads.values()] + [0])
    name_width = max(cell_len(n) for n in match.players)
    rows = []
    for game in match.games:
        for i, name in enumerate(match.players):
            points = game.points[i]
            bar = BAR * round(points * width / top) if points else ""
            head = heads[game.number] if i == 0 else ""
            rows.append(_pad(head, head_width) + " " + _pad(name, name_width) + " "
                        + (f"{bar} {points}" if bar else str(points)))
    return rows


def _pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal cells (a kanji takes two)."""
    from rich.cells import cell_len

    return text + " " * (width - cell_len(text))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as written: text that would start a formula gets a leading '."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def write_csv(match: Match, out: IO[str]) -> None:
    """The sheet as CSV: one row per game, then the totals. A name like `@SUM(1+1)` stays text."""
    writer = csv.writer(out, lineterminator="\n")
    rows: list[list[object]] = [["game", *match.players, "multiplier", "ended_by", "how"]]
    for game in match.games:
        ended = game.ended_by
        rows.append([game.number, *game.points, game.multiplier,
                     ended.player if ended else "", ended.how if ended else ""])
    rows.append(["total", *match.totals, "", match.winner or "", "draw" if match.draw else ""])
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)

