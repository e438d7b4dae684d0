"""Hostile voice packs in $GM_VOICE_PACKS (tests/hostile_packs.py): each is refused when it is
loaded, in one line naming the pack file and the key, exit 2; none is a crash (exit 1), none is
read past the size of a pack, and no field reaches an attribute, an index or a wide format."""

from __future__ import annotations

import tomllib

import pytest
from typer.testing import CliRunner

import voices
from gm.cli import app
from gm.text.lines import Pack
from hostile_packs import CODE, COMMAND, EN, KEY, NOT_PACKS, SHAPES, dump

runner = CliRunner()


@pytest.fixture
def packs(tmp_path, monkeypatch):
    folder = tmp_path / "packs"
    monkeypatch.setenv(voices.PACKS_ENV, str(folder))
    monkeypatch.setenv("GM_SPEECH", "off")
    return folder


def test_the_hostile_shapes_are_many():
    assert len(SHAPES) >= 36


def test_the_packs_are_written_as_toml_that_reads_back():
    assert tomllib.loads(dump(EN)) == EN


def test_a_copy_of_gms_own_pack_is_taken(packs):
    SHAPES["attribute"][0](packs)  # the folder made; the pack then replaced by a faithful copy
    (packs / f"{CODE}.toml").write_text(dump(EN), encoding="utf-8")
    result = runner.invoke(app, COMMAND)
    assert result.exit_code == 2 and result.stderr == "gm: HW-R1: Half Werewolf is for 4 to 6 players, not 7\n"


@pytest.mark.parametrize("lang", voices.OWN)
def test_gms_own_packs_pass_the_checks_a_pack_in_the_folder_meets(packs, lang):
    own = (voices.pack_path(lang)).read_text(encoding="utf-8")
    packs.mkdir()
    (packs / f"{lang}.toml").write_text(own, encoding="utf-8")
    (packs / "rulings").mkdir()
    (packs / "rulings" / f"{lang}.toml").write_text(
        voices.rulings_path(lang).read_text(encoding="utf-8"), encoding="utf-8")
    assert voices.pack_path(lang).parent == packs
    pack = Pack(lang)
    assert pack.entries == voices.frozen(tomllib.loads(own))
    result = runner.invoke(app, ["werewolf", "rules", "HW-R1", "--lang", lang])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("shape", SHAPES)
def test_a_hostile_pack_is_refused_in_one_line_naming_the_pack_and_the_key(packs, shape):
    build, command, says = SHAPES[shape]
    build(packs)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert f"{CODE}.toml" in result.stderr and "bug in gm" not in result.stderr
    for part in says:
        assert part in result.stderr, (part, result.stderr)


@pytest.mark.parametrize("kind", NOT_PACKS)
def test_what_is_no_file_is_no_pack(packs, kind):
    NOT_PACKS[kind](packs)
    assert CODE not in voices.languages()
    result = runner.invoke(app, COMMAND)
    assert result.exit_code == 2 and result.stderr == "gm: no voice pack for language 'xx' (have: en, ja, ko)\n"


def test_a_pack_past_the_size_cap_is_not_read(packs, monkeypatch):
    SHAPES["400 MB"][0](packs)
    read = []
    real = voices.os.fdopen

    def counted(fd, mode="r", *args, **kwargs):
        file = real(fd, mode, *args, **kwargs)
        original = file.read
        file.read = lambda size=-1: read.append(size) or original(size)
        return file

    monkeypatch.setattr(voices.os, "fdopen", counted)
    with pytest.raises(voices.BadPack, match="is larger than 1 MB"):
        Pack(CODE)
    assert read == [voices.MAX_PACK_BYTES + 1]


def test_a_checked_pack_is_read_once(packs, monkeypatch):
    packs.mkdir()
    (packs / f"{CODE}.toml").write_text(dump(EN), encoding="utf-8")
    reads = []
    real = voices.read_toml
    monkeypatch.setattr(voices, "read_toml", lambda path, what="voice pack": reads.append(path) or real(path, what))
    voices._pack.cache_clear()
    for _ in range(3):
        assert Pack(CODE).text(KEY, rule="HW-R1", players=7) == "HW-R1: Half Werewolf is for 4 to 6 players, not 7"
    assert reads.count(str(packs / f"{CODE}.toml")) == 1
