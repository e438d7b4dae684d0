"""`gm voice`: Voices, microphone and speech-model checks."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from gm.cliutil import input_errors, print_json
from gm.lines import Voice
from gm.options import LangOption, RateOption, SpeechSettings, VoiceOption, VolumeOption
from gm.ports import Line

app = typer.Typer(help="Voices, microphone and speech-model checks.", no_args_is_help=True)


@app.command("list")
def list_voices(
    lang: Optional[str] = typer.Option(None, "--lang", help="Only voices speaking this language (en, ja)."),
    json_out: bool = typer.Option(False, "--json", help="Print the voices as JSON."),
) -> None:
    """The voices the speech engine offers; the one gm uses for each language is marked."""
    from rich.console import Console
    from rich.table import Table

    from gm.speech.notes import Notes
    from gm.speech.tts import SpeechUnavailable, installed_voices
    from gm.speech.voices_found import voices_for

    with input_errors():
        words = Voice(lang or "en")
    try:
        found = installed_voices()
    except SpeechUnavailable as error:
        Notes(lang or "en").note(error.note)
        found = []
    defaults = {best[0].id for code in ("en", "ja") if (best := voices_for(found, code))}
    shown = [v for v in found if lang is None or v.lang == lang]
    if json_out:
        print_json([{"id": v.id, "name": v.name, "tag": v.tag, "lang": v.lang, "default": v.id in defaults}
                    for v in shown])
        return
    table = Table(box=None, pad_edge=False)
    for column in ("column_id", "column_name", "column_language", "column_default"):
        table.add_column(words.text(f"voice.{column}"))
    for v in shown:
        table.add_row(v.id, v.name, v.tag, "*" if v.id in defaults else "")
    console = Console()
    if shown:
        console.print(table)
        typer.echo(words.text("voice.found", n=len(shown)))
    else:
        typer.echo(words.text("voice.none_found"))


@app.command("say")
def say(
    text: Optional[str] = typer.Argument(None, help="What to say (default: a greeting in the language)."),
    lang: str = LangOption,
    voice: Optional[str] = VoiceOption,
    rate: Optional[int] = RateOption,
    volume: Optional[float] = VolumeOption,
    to: Optional[Path] = typer.Option(None, "--to", help="Write the speech to this WAV file instead of playing it."),
    json_out: bool = typer.Option(False, "--json", help="Print what was rendered as JSON (with --to)."),
) -> None:
    """Speak a line (or write it to a WAV file): a check that speech works."""
    from gm.speakers import open_speaker
    from gm.speech.notes import Notes
    from gm.speech.output import spoken_form

    settings = SpeechSettings(lang=lang, speech="on", voice=voice, rate=rate, volume=volume)
    with input_errors():
        words = Voice(lang)
        line = words.line("voice.sample") if text is None else Line("voice.say", text, text)
        if to is None:
            speaker = open_speaker(settings)
            speaker.say(line)
            speaker.close()
            return
        from gm.speech.audio import write_wav
        from gm.speech.tts import Renderer, SpeechUnavailable

        notes = Notes(lang)
        spoken = spoken_form(lang, notes)(line.spoken)
        try:
            renderer = Renderer(settings)
        except SpeechUnavailable as error:
            notes.note(error.note)
            raise typer.Exit(1)
        try:
            audio = renderer.render(spoken)
        finally:
            renderer.close()
        write_wav(to, audio)
    if json_out:
        print_json({"text": line.text, "spoken": spoken, "file": str(to), "voice": renderer.voice.id if renderer.voice else None,
                    "sample_rate": audio.rate, "seconds": round(audio.seconds, 3)})
        return
    typer.echo(line.text)
    typer.echo(words.text("voice.saved", file=str(to)))
