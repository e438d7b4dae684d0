"""A bounded hostile-input audit of gm's edges, each case a fresh `gm` process
(run: .venv/bin/python bench/hostile_audit.py [--appends 200]).

Areas: hostile paths (FIFOs, dangling links, links to /dev/zero, folders, devices) for every path
option; the match index and the evening file beside them; lone surrogates and escape sequences
in JSON and journal names; huge numbers for every number option; closed standard streams; files
that never were journals; appends killed at random moments (SIGKILL) and a file-size limit as a
full disk; hostile voice packs (tests/hostile_packs.py) and hostile model servers for
`gm voice model --get`; signals at the verdict (SIGKILL, SIGINT, SIGHUP, SIGTERM as a typed
night's verdict is printed: the night must be in `gm werewolf evening`); `--log` given links,
files gm did not write, read-only and others' files (each refused, exit 2, its target unchanged).
`--only packs models verdict log-links` runs just those. Per area it prints: tried, tracebacks,
exit 1, hangs (no end within the safety net), peak memory, and what was lost (acknowledged events
or nights; a model in use; a pack taken instead of refused; a --log target changed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fakes import file_handler, hostile, serving  # noqa: E402

SAFETY_NET = 60.0
GM = [sys.executable, "-m", "gm"]


class Tally:
    def __init__(self) -> None:
        self.rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # tried, tracebacks, exit 1, hangs, peak
        self.said = b""

    def run(self, area: str, args: list[str], cwd: Path, env: dict, stdin=subprocess.DEVNULL, preexec=None) -> int:
        """Run one gm process; count it, and what went wrong; its exit code (-9: killed as hung)."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            child = subprocess.Popen([*GM, *args], cwd=cwd, env=env, stdin=stdin, stdout=out, stderr=err,
                                     preexec_fn=preexec)
            hung = threading.Event()
            timer = threading.Timer(SAFETY_NET, lambda: (hung.set(), child.kill()))
            timer.start()
            _, status, usage = os.wait4(child.pid, 0)
            timer.cancel()
            child.returncode = code = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            self.said = err.read()  # the last run's standard error
            both = out.read() + self.said
        self.count(area, f"{area}: gm {' '.join(args)}"[:200], hung.is_set(), code, both, usage.ru_maxrss * 1024)
        return code

    def count(self, area: str, shown: str, hung: bool, code: int, output: bytes, peak: int) -> None:
        """Count one finished gm process of `area`, and what went wrong (said on stderr as `shown`)."""
        row = self.rows[area]
        row[0] += 1
        if hung:
            row[3] += 1
            print(f"  hang: {shown}", file=sys.stderr)
        elif b"Traceback" in output or b"bug in gm" in output:
            row[1] += 1
            print(f"  traceback: {shown}: {output[-300:]!r}", file=sys.stderr)
        if code == 1:
            row[2] += 1
            print(f"  exit 1: {shown}: {output[-300:]!r}", file=sys.stderr)
        row[4] = max(row[4], peak)


def hostile_paths(root: Path) -> dict[str, Path]:
    (root / "folder").mkdir()
    os.mkfifo(root / "fifo")
    (root / "dangling").symlink_to(root / "missing" / "nowhere")
    (root / "zero").symlink_to("/dev/zero")
    return {"folder": root / "folder", "fifo": root / "fifo", "dangling": root / "dangling",
            "zero": root / "zero", "full": Path("/dev/full"), "missing_dir": root / "missing" / "x"}


JUDGE = ('{"players": ["%s", "Ken", "Mio", "Sora"], "hands": {"%s": ["werewolf", "traitor"], '
         '"Ken": ["villager", "seer"], "Mio": ["villager", "villager"], "Sora": ["villager", "villager"]}, '
         '"graveyard": ["villager"], "executed": "Ken"}')
NAMES = ["\\ud800", "\\udfff", "\\u001b]0;x\\u0007", "\\u001b[2J", "\\u009b31m", "a\\u0000b", "\\u202e"]
NUMBER_OPTIONS = [
    ["werewolf", "deck", "--players"], ["werewolf", "play", "--players", "A,B,C,D", "--discussion"],
    ["solitaire", "simulate", "--deals"], ["solitaire", "simulate", "--deals", "3", "--workers"],
    ["solitaire", "simulate", "--deals", "3", "--seed"], ["solitaire", "solve", "--max-states"],
    ["solitaire", "reading", "--rows"], ["voice", "check", "--device"], ["voice", "check", "--seconds"],
    ["voice", "say", "hi", "--to", "x.wav", "--rate"], ["score", "matches", "--number"],
]
NEW_LINE = '{"v":1,"kind":"new","players":["NAME","Bo"],"remote":false,"at":"2026-01-01"}\n'
HUGE = ["9" * 30, "-" + "9" * 30, "1" + "0" * 400, "1e400", "-1e400"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=200, help="appends of which some are killed")
    parser.add_argument("--only", nargs="+", choices=("packs", "models", "verdict", "log-links"),
                        help="run only these areas")
    parser.add_argument("--signals", type=int, default=25, metavar="N",
                        help="nights stopped by each signal as the verdict is printed (the issue's goal: 100)")
    args = parser.parse_args()
    tally = Tally()
    lost = 0
    if args.only:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            env = dict(os.environ, GM_SPEECH="off", GM_LISTEN="off", XDG_STATE_HOME=str(root / "state"),
                       XDG_DATA_HOME=str(root / "data"), GM_SCORE_FILE=str(root / "m.jsonl"))
            lost += hostile_packs(tally, root, env) if "packs" in args.only else 0
            lost += model_servers(tally, root, env) if "models" in args.only else 0
            lost += signals_at_the_verdict(tally, root, env, args.signals) if "verdict" in args.only else 0
            lost += log_links(tally, root, env) if "log-links" in args.only else 0
        report(tally, lost)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = dict(os.environ, GM_SPEECH="off", GM_LISTEN="off", XDG_STATE_HOME=str(root / "state"),
                   XDG_DATA_HOME=str(root / "data"), GM_SCORE_FILE=str(root / "m.jsonl"))
        paths = hostile_paths(root)
        journal = root / "j.jsonl"
        tally.run("setup", ["score", "new", "Aki", "Ken", "--file", str(journal)], root, env)
        kept = journal.read_bytes()
        for path in paths.values():
            for command in (["score", "show", "--file"], ["score", "new", "A", "B", "--file"],
                            ["score", "export", "--output"], ["werewolf", "judge", "--file"],
                            ["werewolf", "evening", "--file"], ["voice", "say", "hi", "--to"],
                            ["voice", "hear", "--answers", "yes,no"], ["voice", "model"],
                            ["werewolf", "play", "--players", "A,B,C,D", "--time-scale", "0.001", "--pause", "0",
                             "--log"]):
                tally.run("paths", [*command, str(path)], root, env)
        for kind in ("fifo", "dangling", "zero", "folder", "damaged"):
            for command in (["show"], ["matches"], ["flow", "Aki", "1"]):
                journal.write_bytes(kept)
                hostile(journal.with_name(journal.name + ".matches"), kind)
                tally.run("beside", ["score", *command, "--file", str(journal)], root, env)
            hostile(root / "n.evening.json", kind)
            tally.run("beside", ["werewolf", "play", "--players", "A,B,C,D", "--time-scale", "0.001", "--pause", "0",
                                 "--log", str(root / "n.jsonl")], root, env)
        for name in NAMES:
            (root / "judge.json").write_text(JUDGE % (name, name))
            for extra in ([], ["--json"]):
                tally.run("names", ["werewolf", "judge", "--file", str(root / "judge.json"), *extra], root, env)
            hand = root / "hand.jsonl"
            hand.write_text(NEW_LINE.replace("NAME", name))
            for command in (["show"], ["matches"], ["flow", "Bo", "1"], ["show", "--json"]):
                tally.run("names", ["score", *command, "--file", str(hand)], root, env)
        for option in NUMBER_OPTIONS:
            for value in HUGE:
                tally.run("numbers", [*option, value], root, env)
        for command in (["werewolf", "play", "--players", "A,B,C,D", "--time-scale", "0.001", "--pause", "0"],
                        ["score", "play"], ["werewolf", "judge"], ["solitaire", "play"], ["score", "show"]):
            for fd in (0, 1, 2):
                tally.run("streams", command, root, env, stdin=None if fd == 0 else subprocess.DEVNULL,
                          preexec=lambda fd=fd: os.close(fd))
        notes = root / "notes.txt"
        for text in (b"hello notes", b"one\ntwo", b"\xff\xfe", b"{not json"):
            notes.write_bytes(text)
            tally.run("not a journal", ["score", "new", "A", "B", "--file", str(notes)], root, env)
            lost += notes.read_bytes() != text
        lost += oversize(tally, root, env)
        lost += appends_killed(tally, root, env, args.appends)
        lost += disk_full(tally, root, env)
        lost += hostile_packs(tally, root, env)
        lost += model_servers(tally, root, env)
        lost += signals_at_the_verdict(tally, root, env, args.signals)
        lost += log_links(tally, root, env)
    report(tally, lost)


def report(tally: Tally, lost: int) -> None:
    print(f"{'area':22} {'tried':>6} {'tracebacks':>10} {'exit 1':>7} {'hangs':>6} {'peak MB':>8}")
    for area, (tried, tracebacks, exit1, hangs, peak) in tally.rows.items():
        print(f"{area:22} {tried:6} {tracebacks:10} {exit1:7} {hangs:6} {peak / 1e6:8.1f}")
    total = [sum(row[i] for row in tally.rows.values()) for i in range(4)]
    print(f"{'all':22} {total[0]:6} {total[1]:10} {total[2]:7} {total[3]:6}   data lost: {lost}")


PAST_THE_CAP = 65 * 1024 * 1024  # past the 64 MB cap on files read whole


def oversize(tally: Tally, root: Path, env: dict) -> int:
    """Files past the cap on files read whole: a journal and a group's file gm could have written
    (lines as long as an event's or a night's may be) are read and go on; a huge file with no
    newline is refused in one line; the checkpoint and tally beside them made hostile change
    nothing. Returns the acknowledged events lost."""
    journal = root / "big.jsonl"
    tally.run("oversize", ["score", "new", "Aki", "Ken", "--file", str(journal)], root, env)
    line = b'{"v":1,"kind":"flow","player":"Ken","piles":0}\n'
    wide = line[:-2] + b" " * ((1 << 16) - len(line)) + line[-2:]
    with open(journal, "ab") as out:  # a line at a time: a forked gm's peak counts what this process holds
        for _ in range(PAST_THE_CAP // len(wide) + 1):
            out.write(wide)
    acknowledged = answered = 0
    for kind in ("none", "fifo", "zero", "folder", "damaged"):
        hostile(journal.with_name(journal.name + ".state"), kind)
        for command in (["show"], ["matches"]):
            answered += tally.run("oversize", ["score", *command, "--file", str(journal)], root, env) == 0
        acknowledged += tally.run("oversize", ["score", "flow", "Aki", "1", "--file", str(journal)], root, env) == 0
    group = root / "group.jsonl"
    night = b'{"group": "Friday", "winning_side": "villagers", "winners": ["Aki"], "players": ["Aki", "Ken"]}\n'
    with open(group, "wb") as out:
        for _ in range(PAST_THE_CAP // 60_000 + 1):
            out.write(night[:-2] + b" " * (60_000 - len(night)) + night[-2:])
    for kind in ("none", "fifo", "zero", "folder", "damaged"):
        hostile(group.with_name(group.name + ".tally"), kind)
        answered += tally.run("oversize", ["werewolf", "evening", "--file", str(group)], root, env) == 0
    no_newline = root / "no-newline.jsonl"
    with open(no_newline, "wb") as out:
        out.truncate(PAST_THE_CAP)  # sparse: quick to make
    tally.run("oversize", ["score", "show", "--file", str(no_newline)], root, env)
    tally.run("oversize", ["werewolf", "evening", "--file", str(no_newline)], root, env)
    with open(journal, "rb") as lines:
        flows = sum(b'"player":"Aki","piles":1' in line for line in lines)
    print(f"oversize: {answered + acknowledged} of 20 reads and appends of files past {PAST_THE_CAP >> 20} MB "
          f"answered, {acknowledged} appends acknowledged, {flows} in the journal")
    return max(0, acknowledged - flows)


def appends_killed(tally: Tally, root: Path, env: dict, count: int) -> int:
    """`score flow` appends, some killed (SIGKILL) at a random moment; every acknowledged one (exit
    0 and its line printed) must be in the journal. Returns how many acknowledged events were lost."""
    journal = root / "kill.jsonl"
    rng = random.Random(7)
    tally.run("kill", ["score", "new", "Aki", "Ken", "--file", str(journal)], root, env)
    acknowledged = killed = 0
    for _ in range(count):
        child = subprocess.Popen([*GM, "score", "flow", "Aki", "0", "--file", str(journal)], cwd=root, env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        tally.rows["kill"][0] += 1
        if rng.random() < 0.3:
            time.sleep(rng.uniform(0.05, 0.6))
            child.send_signal(signal.SIGKILL)
            killed += 1
        out, err = child.communicate(timeout=SAFETY_NET)
        if child.returncode == 0:
            acknowledged += 1
        elif child.returncode == 1 or b"Traceback" in err:
            tally.rows["kill"][2] += 1
    tally.run("kill", ["score", "show", "--file", str(journal)], root, env)  # reads, sets aside any torn tail
    flows = [json.loads(line) for line in journal.read_bytes().splitlines() if b'"kind":"flow"' in line]
    print(f"kill: {count} appends, {killed} sent SIGKILL, {acknowledged} acknowledged, {len(flows)} in the journal")
    return max(0, acknowledged - len(flows))


def disk_full(tally: Tally, root: Path, env: dict) -> int:
    """Appends under a file-size limit (writes past it fail as on a full disk): the journal keeps
    only whole lines, and nothing acknowledged is lost."""
    journal = root / "full.jsonl"
    tally.run("disk full", ["score", "new", "Aki", "Ken", "--file", str(journal)], root, env)
    limit = journal.stat().st_size + 600

    def small_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    acknowledged = sum(tally.run("disk full", ["score", "flow", "Aki", "0", "--file", str(journal)], root, env,
                                 preexec=small_disk) == 0 for _ in range(20))
    data = journal.read_bytes()
    whole = data.endswith(b"\n")
    flows = data.count(b'"kind":"flow"')
    return (not whole) + max(0, acknowledged - flows)


def hostile_packs(tally: Tally, root: Path, env: dict) -> int:
    """Each hostile voice pack (tests/hostile_packs.py) in its own $GM_VOICE_PACKS folder, with the
    command that renders the line it breaks: each must be refused (exit 2) in one line. Returns how
    many were not (a pack gm took, or said more or less than one line about)."""
    from hostile_packs import NOT_PACKS, SHAPES

    wrong = 0
    shapes = {name: (build, command) for name, (build, command, _) in SHAPES.items()}
    shapes |= {f"no file: {kind}": (build, SHAPES["attribute"][1]) for kind, build in NOT_PACKS.items()}
    for number, (name, (build, command)) in enumerate(shapes.items()):
        folder = root / "packs" / str(number)
        build(folder)
        code = tally.run("hostile packs", command, root, dict(env, GM_VOICE_PACKS=str(folder)))
        said = tally.said
        if code != 2 or said.count(b"\n") != 1:
            wrong += 1
            print(f"  not refused in one line: pack {name!r}: exit {code}: {said[-200:]!r}", file=sys.stderr)
    print(f"hostile packs: {len(shapes)} packs, {len(shapes) - wrong} refused in one line")
    return wrong


def model_servers(tally: Tally, root: Path, env: dict) -> int:
    """`gm voice model --get en --url` against a local server sending what is no model: a small zip
    of a model's file names, a zip bomb, a body with no length past the ceiling, a truncated zip,
    `../` members, a claimed length past any model, garbage, a 404; and downloads killed midway
    (SIGKILL), each followed by a `--get` that must clear what it left. The model in use must
    stay as it was after each: returns how many times it did not (or a leftover stayed)."""
    from test_model_install import OLD, bomb
    from test_voice_models import MODEL, make_model, model_zip

    files: dict[str, tuple[bytes, bool, float]] = {}

    models = root / "data" / "gm" / "models"
    model = make_model(models / "en", OLD)

    def intact() -> bool:
        found = {str(p.relative_to(model)): p.read_bytes() for p in model.rglob("*") if p.is_file()}
        return found == OLD and sorted(p.name for p in models.iterdir()) == ["en"]

    whole = model_zip()
    escape = model_zip({**{f"m/{k}": v for k, v in MODEL.items()}, "../escape.txt": b"out"}, top="")
    cases = {
        "/names.zip": (whole, True, 0.0, {}), "/bomb.zip": (bomb(512 << 20), True, 0.0, {}),
        "/endless.zip": (bytes(64 << 20), False, 0.0, {"GM_MODEL_MAX_MB": "1"}),
        "/claims.zip": (bytes(2 << 20), True, 0.0, {"GM_MODEL_MAX_MB": "1"}),
        "/cut.zip": (whole[:len(whole) // 2], True, 0.0, {}), "/escape.zip": (escape, True, 0.0, {}),
        "/garbage.zip": (os.urandom(1 << 20), True, 0.0, {}), "/missing.zip": (b"", True, 0.0, {}),
    }
    lost = 0
    with serving(file_handler(files, [])) as port:
        for path, (body, with_length, pause, extra) in cases.items():
            if path != "/missing.zip":
                files[path] = (body, with_length, pause)
            tally.run("model servers", ["voice", "model", "--get", "en", "--url", f"http://127.0.0.1:{port}{path}"],
                      root, dict(env, **extra))
            lost += not intact()
        files["/slow.zip"] = (bytes(256 << 20), True, 0.01)
        for _ in range(3):  # killed while it downloads; the next --get clears what it left
            child = subprocess.Popen([*GM, "voice", "model", "--get", "en", "--url", f"http://127.0.0.1:{port}/slow.zip"],
                                     cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            tally.rows["model servers"][0] += 1
            time.sleep(2.0)
            child.send_signal(signal.SIGKILL)
            child.wait()
            tally.run("model servers", ["voice", "model", "--get", "en", "--url", f"http://127.0.0.1:{port}/names.zip"],
                      root, env)
            lost += not intact()
    print(f"model servers: {len(cases) + 6} runs, the model in use intact after {len(cases) + 3 - lost} of "
          f"{len(cases) + 3} checks")
    return lost


NIGHT_KEYS = b"\n\n\n\n" + b"3\n1\n" + b"\n" + b"werewolf traitor\n"  # Aki executed: the Traitor Werewolf
VERDICT = b"the Traitor Werewolf was executed and wins alone"
VERDICT_SIGNALS = ("SIGKILL", "SIGINT", "SIGHUP", "SIGTERM")


def signals_at_the_verdict(tally: Tally, root: Path, env: dict, count: int) -> int:
    """`count` typed nights per signal, each sent the signal as its verdict is printed (stdin kept
    open, so the night is still running); every night whose verdict was printed must be in
    `gm werewolf evening`. Returns the nights lost."""
    area, lost = "signals at the verdict", 0
    for name in VERDICT_SIGNALS:
        group, printed = f"verdict-{name}", 0
        for _ in range(count):
            child = subprocess.Popen([*GM, "werewolf", "play", "--players", "Aki,Ken,Mio,Sora", "--time-scale",
                                      "0.001", "--pause", "0", "--group", group], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            hung = threading.Event()
            timer = threading.Timer(SAFETY_NET, lambda child=child, hung=hung: (hung.set(), child.kill()))
            timer.start()
            child.stdin.write(NIGHT_KEYS)
            child.stdin.flush()
            for line in iter(child.stdout.readline, b""):
                if VERDICT in line:
                    printed += 1
                    child.send_signal(getattr(signal, name))
                    break
            child.stdin.close()  # a question asked after the signal ends at once
            child.stdout.read()
            err = child.stderr.read()
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            timer.cancel()
            tally.count(area, f"{area}: {name}", hung.is_set(), child.returncode, err, usage.ru_maxrss * 1024)
        shown = subprocess.run([*GM, "werewolf", "evening", "--group", group, "--json"], cwd=root, env=env,
                               capture_output=True, timeout=SAFETY_NET)
        kept = json.loads(shown.stdout)["all_time"]["nights"] if shown.returncode == 0 else 0
        print(f"signals at the verdict: {name}: {count} nights, {printed} verdicts printed, {kept} in the evening")
        lost += max(0, printed - kept)
    return lost


def log_links(tally: Tally, root: Path, env: dict) -> int:
    """`werewolf play --log` given what it must never append to: links (to a file, to a log gm
    wrote, to /dev/zero, to nowhere), text files, a read-only log, another user's log (as root), a
    FIFO. Each must be refused with exit 2 and leave its target as it was; returns those that were not."""
    folder = root / "log links"
    folder.mkdir()
    log = b'{"t": 0.0, "type": "setup"}\n'
    targets = {"system file": b"root:x:0:0:root:/root:/bin/bash\n", "gm log": log, "notes": b"hello notes\n",
               "json": b"[1, 2]\n", "binary": b"\xff\xfe\0"}
    cases: dict[str, tuple[Path, Path | None]] = {}
    for name, data in targets.items():
        (folder / name).write_bytes(data)
        (folder / f"link to {name}").symlink_to(folder / name)
        cases[f"link to {name}"] = (folder / f"link to {name}", folder / name)
        if name != "gm log":
            cases[name] = (folder / name, folder / name)
    (folder / "read-only log").write_bytes(log)
    (folder / "read-only log").chmod(0o444)
    cases["read-only log"] = (folder / "read-only log", folder / "read-only log")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        (folder / "others' log").write_bytes(log)
        os.chown(folder / "others' log", 65534, 65534)
        cases["others' log"] = (folder / "others' log", folder / "others' log")
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "dangling").symlink_to(folder / "missing")
    os.mkfifo(folder / "fifo")
    cases.update({"link to /dev/zero": (folder / "zero", None), "dangling link": (folder / "dangling", None),
                  "fifo": (folder / "fifo", None)})
    before = {name: target.read_bytes() for name, (_, target) in cases.items() if target is not None}
    bad = 0
    for name, (path, target) in cases.items():
        code = tally.run("log links", ["werewolf", "play", "--players", "A,B,C,D", "--time-scale", "0.001",
                                       "--pause", "0", "--log", str(path)], root, env)
        changed = target is not None and target.read_bytes() != before[name]
        if code != 2 or changed or (name == "dangling link" and (folder / "missing").exists()):
            bad += 1
            print(f"  log links: {name}: exit {code}{', target changed' if changed else ''}", file=sys.stderr)
    print(f"log links: {len(cases)} paths, {bad} not refused or changed")
    return bad


if __name__ == "__main__":
    main()
