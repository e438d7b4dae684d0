"""A whole night typed at a terminal by a host who makes no mistake: prompts, keystrokes, the
longest prompt line, the longest row printed on an 80-column terminal (a row wider than the
terminal is cut mid-word by it), and the longest line said and the longest part of a line
(a sentence: a line is said part by part), in seconds estimated by gm.text.spoken_length
(espeak-ng's English at 150 words a minute, checked by bench/spoken_length_bench.py).

    .venv/bin/python bench/typed_night_bench.py            # this tree
    .venv/bin/python bench/typed_night_bench.py --tree DIR --old  # another checkout (main)

`gm werewolf play` runs in a pseudo-terminal (speech and listening off, a compressed clock);
each time a prompt shows, the host types the next answer of the night's script. `--old` types
the answers as the older prompts need them (every count on its own line).
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import struct
import termios
import pty
import re
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.cells import cell_len

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.text.spoken_length import line_seconds, longest_part  # noqa: E402

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLUMNS = 80

# 4 players: Aki 3, Ken 1; Aki holds werewolf + villager, the traitor lies in the graveyard: the
# villagers win: Ken, Mio and Sora. 6 players: Aki 4, Ken 2; Aki holds werewolf + villager, Rin the
# traitor: the villagers win (4 of them).
NIGHTS = {
    4: {"players": "Aki,Ken,Mio,Sora", "steps": 4,
        "new": ["3", "1", "", "werewolf villager", "graveyard", "n"],
        "old": ["3", "1", "0", "0", "0", "", "werewolf", "villager", "Ken", "Mio", "Sora", "", "no"]},
    6: {"players": "Aki,Ken,Mio,Sora,Yui,Rin", "steps": 5,
        "new": ["4", "2", "", "werewolf villager", "Rin", "n"],
        "old": ["4", "2", "0", "0", "0", "0", "0", "", "werewolf", "villager", "Ken", "Mio", "Sora", "Yui", "",
                "no"]},
}


def run(tree: Path, players: str, answers: list[str]) -> dict[str, object]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    log = Path(tempfile.gettempdir()) / f"typed-{os.getpid()}.jsonl"
    log.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(tree), COLUMNS=str(COLUMNS), LINES="50")
    night = subprocess.Popen([sys.executable, "-m", "gm", "werewolf", "play", "--players", players, "--speech", "off",
                              "--listen", "off", "--discussion", "10", "--time-scale", "0.01", "--pause", "0",
                              "--log", str(log)],
                             stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, cwd=tree)
    out, typed, prompts, pending = b"", 0, 0, list(answers)
    deadline = time.monotonic() + 120
    try:
        while night.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
                continue
            tail = ANSI.sub("", out.decode("utf-8", "replace")).rstrip(" ")
            if tail.endswith(">") and not tail.endswith("> >"):
                answer = pending.pop(0) if pending else ""
                prompts += 1
                typed += len(answer) + 1
                os.write(master, answer.encode() + b"\r")
                out += b" >"  # this prompt is answered
                time.sleep(0.05)
    finally:
        if night.poll() is None:
            night.kill()
        night.wait()
        os.close(master)
        os.close(slave)
    text = ANSI.sub("", out.decode("utf-8", "replace"))
    shown = [part for line in text.splitlines() for part in line.split("\r") if "] > " in part or "] >" in part]
    longest = max((part.split("] >")[0] + "] > " for part in shown), key=cell_len, default="")
    rows = [part for line in text.splitlines() for part in line.split("\r") if "] >" not in part]
    widest = max(rows, key=cell_len, default="")
    said = [json.loads(row)["text"] for row in log.read_text(encoding="utf-8").splitlines()
            if '"type": "say"' in row or '"type":"say"' in row]
    log.unlink(missing_ok=True)
    spoken = max(said, key=lambda text: line_seconds(text, "en"), default="")
    part, part_s = max((longest_part(text, "en") for text in said), key=lambda found: found[1], default=("", 0.0))
    return {"prompts": prompts, "keystrokes": typed, "longest_prompt": cell_len(longest.rstrip("\n")),
            "longest_prompt_text": longest.strip()[:100], "widest_row": cell_len(widest.rstrip()),
            "widest_row_text": widest.strip()[:100],
            "rows_over_80": sum(cell_len(row.rstrip()) > COLUMNS for row in rows),
            "longest_said_s": round(line_seconds(spoken, "en"), 1), "longest_said_text": spoken[:60],
            "longest_part_s": round(part_s, 1), "longest_part_text": part[:60],
            "exit": night.returncode, "unused": len(pending)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--old", action="store_true", help="answers as the older prompts need them")
    args = parser.parse_args()
    for size, night in NIGHTS.items():
        answers = [""] * night["steps"] + night["old" if args.old else "new"]
        print(json.dumps({"players": size, **run(args.tree, night["players"], answers)}, ensure_ascii=False))


if __name__ == "__main__":
    main()
