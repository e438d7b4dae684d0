"""`gm voice`: Voices, microphone and speech-model checks."""

from __future__ import annotations

import typer

app = typer.Typer(help="Voices, microphone and speech-model checks.", no_args_is_help=True)


# -- listening: gm voice model / check / hear ----------------------------------------------------
import os  # noqa: E402
from pathlib import Path  # noqa: E402

from gm.cliutil import fail, input_errors, print_json  # noqa: E402
from gm.options import LangOption, VoskModelOption  # noqa: E402

SMALL_MODELS = {
    "en": "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip",
    "ja": "https://alphacephei.com/vosk/models/vosk-model-small-ja-0.22.zip",
}


@app.command("model")
def model_command(
    path: str = typer.Argument(None, help="Model directory to check (default: --vosk-model or $GM_VOSK_MODEL)."),
    vosk_model: str = VoskModelOption,
    lang: str = LangOption,
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Where to get a small vosk speech model, and whether one works (words it cannot hear)."""
    from gm.hearing import Vocabulary
    from gm.lines import Voice
    from gm.speech.listen import MODEL_ENV, NoModel, load_model

    with input_errors():
        voice = Voice(lang)
    given = path or vosk_model or os.environ.get(MODEL_ENV)
    if not given:
        if json_out:
            print_json({"path": None, "ok": False, "downloads": SMALL_MODELS})
            return
        typer.echo(f"No speech model is set: gm types its answers until you give one with "
                   f"--vosk-model PATH or {MODEL_ENV}=PATH.\nSmall offline models (about 50 MB), "
                   "unzip and point gm at the folder:")
        for code, url in SMALL_MODELS.items():
            typer.echo(f"  {code}: {url}")
        return
    try:
        model = load_model(given)
    except NoModel as error:
        fail(str(error))
    hear = Vocabulary.from_voice(voice).hear
    missing = sorted({w for phrases in hear.values() for p in phrases for w in p.split() if not model.hears(w)})
    if json_out:
        print_json({"path": str(model.path), "ok": True, "unk": model.unk, "missing_words": missing})
        return
    typer.echo(f"model: {model.path}")
    typer.echo(f"[unk] for other speech: {'yes' if model.unk else 'no'}")
    typer.echo(f"{lang} answer and command words it cannot hear: {', '.join(missing) or 'none'}")


@app.command("check")
def check_command(
    seconds: float = typer.Option(3.0, "--seconds", min=0.5, max=30.0, help="How long to record."),
    device: str = typer.Option(None, "--device", help="Input device index or name (default: the system's)."),
    vosk_model: str = VoskModelOption,
) -> None:
    """List input devices, record a few seconds, show the level and what the model heard."""
    from gm.clock import RealClock
    from gm.speech.listen import EchoGate, Listener, MicSource, NoAudio, NoModel, PcmSource, input_devices, level, load_model

    try:
        devices = input_devices()
        typer.echo("input devices:" if devices else "input devices: none")
        for d in devices:
            typer.echo(f"  {d['index']}: {d['name']} ({d['channels']} ch, {d['rate']:g} Hz)")
        pick = int(device) if device is not None and device.isdigit() else device
        source = MicSource(RealClock(), EchoGate(None), device=pick)
    except NoAudio as error:
        fail(str(error))
    typer.echo(f"recording {seconds:g} s at {source.rate:g} Hz: say something…")
    audio = source.record(seconds)
    source.close()
    rms, peak = level(audio)
    typer.echo(f"level: {rms:.1f} dBFS average, {peak:.1f} dBFS peak" + ("  (silent? check the microphone)" if peak < -50 else ""))
    try:
        model = load_model(vosk_model)
    except NoModel as error:
        typer.echo(f"heard: (no model: {error})")
        return
    heard = Listener(model, PcmSource(source.rate, audio, RealClock())).transcript()
    typer.echo(f"heard: {heard or '(nothing)'}")


@app.command("hear")
def hear_command(
    wav: Path = typer.Argument(..., help="16-bit mono WAV file."),
    answers: str = typer.Option(..., "--answers", help="The closed set of answers, comma-separated."),
    vosk_model: str = VoskModelOption,
    lang: str = LangOption,
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """What the listener hears in a WAV file, and which answer it takes (a night's listener, on a file)."""
    from gm.clock import RealClock
    from gm.hearing import Vocabulary
    from gm.lines import Voice
    from gm.listening import phrasebook
    from gm.ports import Line, Question
    from gm.speech.listen import Listener, PcmSource, load_model

    with input_errors():
        choices = tuple(dict.fromkeys(a.strip() for a in answers.replace("、", ",").split(",") if a.strip()))
        if not choices:
            raise ValueError(f"--answers names no answer: {answers!r}")
        voice = Voice(lang)
        source = PcmSource.from_wavs([wav], RealClock())
        model = load_model(vosk_model)
    question = Question("hear", Line("hear", "", ""), choices)
    book = phrasebook(question, model, Vocabulary.from_voice(voice), voice.spoken_word)
    heard = Listener(model, source).hear_once(book)
    answer = book.match(heard) if heard is not None else None
    text = heard.text if heard is not None else ""
    if json_out:
        print_json({"text": text, "answer": answer})
    else:
        typer.echo(f"heard: {text or '(nothing)'}\nanswer: {answer if answer is not None else '(none)'}")
