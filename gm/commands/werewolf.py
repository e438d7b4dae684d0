"""`gm werewolf`: Narrate a Half Werewolf (ハーフ人狼) night: deck, vote tally, verdict, the whole night."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gm.commands.common import GmApp, input_errors, pack_for, print_json
from gm.commands.options import LANG, Json, Lang, text_up_to, whole_in
from gm.commands.werewolf_play import play
from gm.commands.werewolf_rules import rules
from gm.files import is_terminal, json_value, printable, read_stream, read_text

if TYPE_CHECKING:
    from gm.text.lines import Pack
    from scorer.werewolf.decks import Deck
    from scorer.werewolf.evening import Summary
    from scorer.werewolf.judge import Verdict
    from scorer.werewolf.tally import Outcome, Round

MAX_JUDGE_BYTES = 1024 * 1024  # a table's cards and votes fit in a few kilobytes
app = GmApp(help="Half Werewolf (ハーフ人狼): a whole night narrated, the deck, a vote, the verdict.")
app.command("play")(play)
app.command("rules")(rules)

Variant = Annotated[str | None, typer.Option(
    "--variant", metavar="NAME", help="6 players: magician (魔術師の夜) or dead (死者との戦い).")]
With = Annotated[str, typer.Option(
    "--with", metavar="CARDS", help="Cards replacing a villager each: gorilla (4–6 players), angel, apprentice (6).")]


def escape(name: str) -> str:
    """A player's name as plain text where rich renders it (no markup)."""
    from rich.markup import escape as escape_markup

    return escape_markup(name)


def _print_table(table: object) -> None:
    from rich.console import Console

    Console(highlight=False).print(table)


# -- deck -------------------------------------------------------------------------------------
def deck_json(deck: Deck) -> dict[str, object]:
    return {"players": deck.players, "variant": deck.variant, "cards": dict(deck.cards),
            "graveyard": deck.graveyard, "total": deck.total}


@app.command()
def deck(
    players: Annotated[int, typer.Option(
        "--players", "-p", metavar="N", parser=whole_in(0, None), help="Number of players: 4, 5 or 6.")],
    variant: Variant = None, swap_ins: With = "", as_json: Json = False, lang: Lang = LANG,
) -> None:
    """Show the deck for a player count: which cards to take from the box (HW-R1)."""
    from gm.commands.werewolf_values import deck_for

    pack = pack_for(lang)
    with input_errors(pack):
        chosen = deck_for(players, variant, swap_ins)
    if as_json:
        print_json(deck_json(chosen))
        return
    from rich.table import Table

    graveyard = pack.text("common.graveyard")
    typer.echo(f"{players} × 2 + {chosen.graveyard} ({graveyard}) = {chosen.total}")
    table = Table(show_header=False)
    table.add_column()
    table.add_column(style="dim")
    table.add_column(justify="right")
    for card, count in chosen.cards.items():
        table.add_row(pack.text(f"werewolf.cards.{card}"), card, str(count))
    _print_table(table)


# -- tally ------------------------------------------------------------------------------------
def _round_of(spec: str, candidates: list[str], voters: list[str], roll_call: bool, deck: Deck) -> Round:
    from gm.commands.werewolf_values import parse_counts, parse_roll_call
    from gm.text.names import graveyard_names
    from scorer.werewolf.tally import count_round, roll_call_round

    aliases = graveyard_names()
    if roll_call:
        return roll_call_round(candidates, parse_roll_call(spec, voters, candidates, aliases), voters, deck)
    return count_round(candidates, parse_counts(spec, candidates, aliases), len(voters), deck)


def tally_json(first: Round, second: Round | None, result: Outcome) -> dict[str, object]:
    return {
        "executed": result.executed,
        "runoff_candidates": list(result.runoff_candidates) if result.runoff_candidates else None,
        "panic": result.panic,
        "counts": dict(first.counts),
        "runoff_counts": dict(second.counts) if second else None,
    }


@app.command()
def tally(
    players: Annotated[str, typer.Option(
        "--players", metavar="NAMES", parser=text_up_to(4096),
        help='The players, comma-separated: "Aki,Ken,Mio,Sora".')],
    votes: Annotated[str, typer.Option(
        "--votes", metavar="VOTES", parser=text_up_to(4096),
        help='Count mode "Aki=2,graveyard=1" (or "Aki 2, graveyard 1"); roll call "Aki=Ken,Ken=graveyard".')],
    runoff: Annotated[str | None, typer.Option(
        "--runoff", metavar="VOTES", parser=text_up_to(4096), help="The runoff's votes, among the tied only.")] = None,
    roll_call: Annotated[bool, typer.Option(
        "--roll-call", help="Votes are voter=candidate instead of candidate=count.")] = False,
    variant: Variant = None, swap_ins: With = "", as_json: Json = False, lang: Lang = LANG,
) -> None:
    """Count a vote: the executed player (or the graveyard), a runoff among the tied, or panic (HW-R4).

    The votes possible follow the deck: the standard one for the player count unless --variant/--with.
    """
    from gm.commands.werewolf_values import check_player_names, deck_for, parse_players
    from gm.text.names import BadInput
    from scorer.werewolf.tally import GRAVEYARD, outcome

    pack = pack_for(lang)
    with input_errors(pack):
        names, _ = parse_players(players)
        check_player_names(names, pack)
        chosen = deck_for(len(names), variant, swap_ins)
        first = _round_of(votes, [*names, GRAVEYARD], names, roll_call, chosen)
        result = outcome(first)
        second = None
        if runoff is not None:
            if not result.needs_runoff:
                raise BadInput(f"no runoff: {result.executed} has the most votes", "no_runoff",
                               executed=result.executed)
            second = _round_of(runoff, list(result.runoff_candidates or ()), names, roll_call, chosen)
            result = outcome(first, second)
    if as_json:
        print_json(tally_json(first, second, result))
        return
    _print_tally(pack, first, second, result)


def _print_tally(pack: Pack, first: Round, second: Round | None, result: Outcome) -> None:
    """The vote's table (candidate, votes, runoff) and its outcome, in the pack's language."""
    from rich.table import Table

    from scorer.werewolf.tally import GRAVEYARD

    def shown(name: str) -> str:
        return pack.text("werewolf.tally.graveyard") if name == GRAVEYARD else name

    headers = ["candidate", "votes", *(["runoff"] if second else [])]
    table = Table(*(pack.text(f"werewolf.tally.{header}") for header in headers))
    for candidate, count in first.counts.items():
        extra = [str(second.counts[candidate]) if candidate in second.counts else ""] if second else []
        table.add_row(escape(shown(candidate)), str(count), *extra)
    _print_table(table)
    if result.panic:
        typer.echo(pack.text("werewolf.tally.panic"))
    elif result.executed is not None:
        typer.echo(pack.text("werewolf.tally.executed", name=shown(result.executed)))
    else:
        typer.echo(pack.text("werewolf.tally.tie", names=[shown(n) for n in result.runoff_candidates or ()]))


# -- judge ------------------------------------------------------------------------------------
def verdict_json(verdict: Verdict, pack: Pack) -> dict[str, object]:
    from gm.text.verdicts import verdict_key

    return {
        "winning_side": verdict.winning_side,
        "winners": list(verdict.winners),
        "reason": pack.text(verdict_key(verdict), **verdict.fields),
        "reason_key": verdict_key(verdict),
        "sides": dict(verdict.sides),
    }


@app.command()
def judge(
    file: Annotated[Path | None, typer.Option(
        "--file", metavar="FILE", help="Read the cards from this JSON file instead of standard input.")] = None,
    as_json: Json = False, lang: Lang = LANG,
) -> None:
    """Who wins, from everyone's final cards and the vote (JSON on stdin or --file)."""
    from gm.commands.judge_request import parse_judge_request
    from gm.text.names import BadInput, card_names, graveyard_names
    from gm.text.verdicts import verdict_key
    from scorer.werewolf.judge import judge as judge_cards

    pack = pack_for(lang)
    if file is None and is_terminal(sys.stdin):  # someone is to type it: say what is read, not wait silently
        typer.echo(pack.text("werewolf.judge.reading"), err=True)
    with input_errors(pack):
        text = read_text(file, MAX_JUDGE_BYTES) if file else read_stream(sys.stdin, MAX_JUDGE_BYTES)
        data = json_value(text, lambda reason: BadInput(f"bad JSON: {reason}", "bad_json", reason=reason))
        request = parse_judge_request(data, card_names(), graveyard_names())
        verdict = judge_cards(request.players, request.hands, request.graveyard, request.executed,
                              request.magician_seen_by, request.deck)
    if as_json:
        print_json(verdict_json(verdict, pack))
        return
    from rich.table import Table

    typer.echo(pack.text(verdict_key(verdict), **verdict.fields))
    table = Table(show_header=False)
    for name in request.players:
        cards = " + ".join(pack.text(f"werewolf.cards.{card}") for card in request.hands[name])
        side = pack.text(f"werewolf.sides.{verdict.sides[name]}")
        table.add_row(escape(name), cards, side, "★" if name in verdict.winners else "")
    _print_table(table)


# -- evening ----------------------------------------------------------------------------------
def _summary_of(path: Path, pack: Pack) -> Summary:
    """A group's file (read line by line), or an evening file of earlier versions (one JSON object);
    a skipped line is said."""
    from gm.night.groups import read_summary
    from scorer.werewolf.evening import EveningError, evening_from_json, summary

    if path.suffix == ".json":
        data = json_value(read_text(path), lambda reason: EveningError(
            f"{path}: bad JSON: {reason}", "evening_json", path=path, reason=reason))
        return summary((night, "") for night in evening_from_json(data).nights)
    return read_summary(path, lambda line, reason: typer.echo(
        printable(pack.text("werewolf.group.skipped", path=str(path), line=line, reason=reason)), err=True))


def _chosen_record(file: Path | None, group: str | None) -> tuple[str, Path]:
    """The group's name and file to show: `--file`, `--group`, or the group played last."""
    from gm.night.groups import group_name, group_path, latest_group
    from gm.night.log import latest_evening
    from scorer.werewolf.evening import EveningError

    if file is not None:
        return file.stem, file
    if group is not None:
        path = group_path(group)
        if not path.is_file():
            raise EveningError(f"no nights kept for the group {group_name(group)!r} yet: play with "
                               "gm werewolf play --group", "no_group", group=group_name(group))
        return group_name(group), path
    latest = latest_group() or latest_evening()
    if latest is None:
        raise EveningError("no evening yet: play one with gm werewolf play", "no_evening")
    return latest.stem, latest


def _csv(shown: Summary) -> str:
    """Tonight's and all-time results, one row per player and scope, a column pair per side."""
    import csv
    import io

    from scorer.werewolf.sides import Side

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["scope", "player", "nights", "wins", "share",
                     *(f"{side}_{what}" for side in Side for what in ("nights", "wins"))])
    for name, scope in (("tonight", shown.tonight), ("all_time", shown.all_time)):
        for player in scope.players:
            by_side = [getattr(player.by_side.get(side), what, 0) for side in Side for what in ("nights", "wins")]
            writer.writerow([name, player.name, player.overall.nights, player.overall.wins,
                             f"{player.overall.share:.4f}", *by_side])
    return out.getvalue()


@app.command()
def evening(
    file: Annotated[Path | None, typer.Option(
        "--file", metavar="FILE", help="A group's file, or an evening file (default: the group played last).")] = None,
    group: Annotated[str | None, typer.Option(
        "--group", metavar="NAME", parser=text_up_to(200),
        help="The group to show, as given to gm werewolf play --group (or its players).")] = None,
    as_json: Json = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print the results as CSV (one row per player).")] = False,
    lang: Lang = LANG,
) -> None:
    """Tonight's and all-time results per player: nights, wins, share won, and by side."""
    from gm.files import print_or_end_quietly

    pack = pack_for(lang)
    with input_errors(pack):
        name, path = _chosen_record(file, group)
        shown = _summary_of(path, pack)
    if as_json:
        print_json({"group": shown.group or name, "file": str(path), **shown.to_json()})
        return
    if as_csv:
        print_or_end_quietly(_csv(shown).rstrip("\n"))
        return
    from rich.table import Table

    tonight = {player.name: player.overall for player in shown.tonight.players}
    group_shown = shown.group or (name if file is None else "")
    counts = {"tonight": shown.tonight.nights, "nights": shown.all_time.nights, "evenings": shown.evenings}
    typer.echo(pack.text("werewolf.results.title", group=group_shown, **counts) if group_shown
               else pack.text("werewolf.results.title_nameless", **counts))
    headers = ("player", "tonight", "all_time", "share", "by_side")
    table = Table(*(pack.text(f"werewolf.results.{header}") for header in headers))
    for player in shown.all_time.players:
        now = tonight.get(player.name)
        sides = ", ".join(pack.text("werewolf.results.side_record", side=pack.line(f"werewolf.sides.{side}"),
                                     wins=played.wins, nights=played.nights)
                          for side, played in player.by_side.items())
        table.add_row(escape(player.name), f"{now.wins}/{now.nights}" if now else "",
                      f"{player.overall.wins}/{player.overall.nights}", f"{player.overall.share:.0%}", sides)
    won_tonight = shown.tonight.sides
    for side, wins in shown.all_time.sides.items():  # the nights each side won
        table.add_row(pack.text(f"werewolf.sides.{side}"), str(won_tonight.get(side, 0)), str(wins), "", "",
                      style="dim")
    _print_table(table)
