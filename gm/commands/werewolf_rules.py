"""`gm werewolf rules`: teach a new table the deck in play and the night's flow, or print a ruling."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gm.commands.common import input_errors, pack_for, print_json, speak_lines
from gm.commands.options import LANG, Json, Lang, Rate, Speech, VoiceId, Volume, text_up_to
from gm.speech.settings import SpeechSettings

if TYPE_CHECKING:
    from gm.ports import Line
    from gm.text.lines import Pack
    from scorer.werewolf.decks import Deck


def lesson_lines(pack: Pack, deck: Deck, discussion: int | None = None) -> list[Line]:
    """The lines that teach `deck` in the pack's language (scorer.werewolf.teaching)."""
    from scorer.werewolf.teaching import DISCUSSION, lesson

    return [pack.line(step.key, **step.fields) for step in lesson(deck, discussion or DISCUSSION)]


def rules(
    ruling_id: Annotated[str | None, typer.Argument(
        metavar="RULING", parser=text_up_to(40),
        help="A ruling an error cites (HW-R4, HU-R6, SS-R5): print it instead.")] = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", metavar="N|NAMES", parser=text_up_to(4096),
        help="The number of players (4–6), or their names as for `play`.")] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", metavar="NAME", help="6 players: magician (魔術師の夜) or dead (死者との戦い).")] = None,
    with_cards: Annotated[str, typer.Option(
        "--with", metavar="CARDS",
        help="Swap-ins, each replacing a villager: gorilla (4–6 players), angel, apprentice (6).")] = "",
    as_json: Json = False, lang: Lang = LANG, speech: Speech = "on", voice_id: VoiceId = None,
    rate: Rate = None, volume: Volume = None,
) -> None:
    """Explain each card of the deck in play and the night's flow, in about a minute of speech.

    With a ruling id (as an error cites it), print that ruling in --lang and the rulebook sentence it rests on.
    """
    from gm.commands.werewolf_values import deck_for, player_count
    from gm.text.rulings import UnknownRuling

    pack = pack_for(lang)
    with input_errors(pack):
        if ruling_id is not None:
            _print_ruling(pack, ruling_id, as_json)
            return
        if players is None:
            raise UnknownRuling("give --players N (or the players' names) for the deck to explain, "
                                "or a ruling id such as HW-R4", "no_deck")
        deck = deck_for(player_count(players), variant, with_cards)
    lines = lesson_lines(pack, deck)
    if as_json:
        print_json({"players": deck.players, "variant": deck.variant, "cards": dict(deck.cards),
                    "lines": [{"key": line.key, "text": line.text} for line in lines]})
        return
    speak_lines(lines, SpeechSettings(pack.lang, speech, voice_id, rate, volume, known_lines=pack))


def _print_ruling(pack: Pack, ruling_id: str, as_json: bool) -> None:
    """The ruling in the pack's language; where it brings no rulings, the English one, with a
    note on stderr saying so (in English, the language the ruling is printed in)."""
    from gm.files import to_stderr
    from gm.text.rulings import ruling

    found = ruling(ruling_id, pack.lang)
    if found.lang != pack.lang:
        to_stderr(f"the {pack.lang} voice pack brings no rulings (rulings/{pack.lang}.toml beside it): "
                  f"{found.id} is said in English")
    if as_json:
        print_json({"id": found.id, "lang": found.lang, "title": found.title, "text": found.text,
                    "book": found.book})
        return
    typer.echo(pack.text("werewolf.rules.heading", id=found.id, title=found.title))
    typer.echo(found.text)
    typer.echo(pack.text("werewolf.rules.book", quote=found.book))
