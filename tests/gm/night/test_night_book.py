"""Whole nights by the book on the fake clock, in English and Japanese: every player count and
variant, runoff, panic, a recount, a turned seer, a Traitor Werewolf. A table of final cards and
votes answers the questions, so each night asks only what the book needs."""

import re
from dataclasses import dataclass, field

import pytest

from fakes import FakeClock
from gm.night.context import NightContext
from gm.night.runner import run_night
from gm.ports import Answer, How, Refused
from gm.text.lines import Pack
from scorer.werewolf.decks import standard_deck
from scorer.werewolf.tally import GRAVEYARD

from fakes import RecordingSpeaker, ScriptedAsker, ScriptedControls, key_and_fields

NAMES = ["Aki", "Ken", "Mio", "Sora", "Yui", "Rin"]
READINGS = {"Aki": "あき", "Ken": "けん", "Mio": "みお", "Sora": "そら", "Yui": "ゆい", "Rin": "りん"}


@dataclass
class Table:
    """What happens at the table: final cards, the fingers per round (candidate → count, in
    order; a count list that cannot be is refused and recounted), who saw the magician."""

    hands: dict
    graveyard: list
    rounds: list
    seen: list = field(default_factory=list)


class TableAsker:
    """Answers every question from a `Table`, the way honest players would."""

    def __init__(self, table: Table, pack: Pack, clock: FakeClock) -> None:
        self.table, self.pack, self.clock = table, pack, clock
        self.round, self.asked = 0, set()
        self.keys: list[str] = []
        self.refusals: list[str] = []
        self._seen = list(table.seen)

    def _candidate(self, label: str) -> str:
        return GRAVEYARD if label == self.pack.text("common.graveyard") else label

    def ask(self, question):
        """The reply, read by the question's own parser as if typed; a reply it refuses (a
        count more than the votes left, HW-R4) is noted and the question asked again."""
        while True:
            reply = self._reply(question)
            if reply is None:
                return Answer(question.default, How.DEFAULT)
            value = question.parse(reply)
            if not isinstance(value, Refused):
                return Answer(value)
            self.refusals.append(value.line.key)

    def _reply(self, question):
        self.keys.append(question.key)
        fields = question.prompt.fields
        key = question.key
        if key == "werewolf.vote.ask_count":
            candidate = self._candidate(fields["candidate"])
            if candidate in self.asked:  # a new round (a runoff or a recount)
                self.round, self.asked = self.round + 1, set()
            self.asked.add(candidate)
            return str(self.table.rounds[self.round].get(candidate, 0))
        if key in ("werewolf.reveal.ask_hand", "werewolf.reveal.ask_graveyard_one",
                   "werewolf.reveal.ask_graveyard_two"):  # a whole hand in one line
            return " ".join(self.table.hands[fields["name"]] if "name" in fields else self.table.graveyard)
        if key == "werewolf.vote.readback":  # the whole tally, as counted
            return "yes"
        if key.startswith("werewolf.reveal.ask_holder"):
            card = fields["card"].key.rsplit(".", 1)[1]
            owners = {**self.table.hands, GRAVEYARD: self.table.graveyard}
            return next(owner for owner, cards in owners.items() if card in cards)
        if key in ("werewolf.reveal.magician_seen", "werewolf.reveal.magician_more"):
            return self._seen.pop(0) if self._seen else "none"
        assert question.answers == ("done",), key
        return "done"

    def close(self):
        """Nothing to let go of."""


def play(deck, table, lang="en"):
    players = NAMES[:deck.players]
    clock = FakeClock()
    pack = Pack(lang, READINGS)
    speaker = RecordingSpeaker(clock)
    asker = TableAsker(table, pack, clock)
    log = []
    ctx = NightContext(players=players, deck=deck, pack=pack, speaker=speaker, asker=asker, clock=clock,
                       controls=ScriptedControls(clock), log=lambda kind, **d: log.append({"type": kind, **d}))
    result = run_night(ctx)
    assert asker.round == len(table.rounds) - 1 or not table.rounds, "every round of votes was asked"
    if lang == "ja":
        for line in speaker.lines:
            assert not re.search(r"[\u4e00-\u9fff0-9A-Za-z]", line.spoken), f"{line.key}: {line.spoken}"
    return result, speaker, asker, log


def hands(*pairs):
    return {NAMES[i]: pair.split("+") for i, pair in enumerate(pairs)}


FOUR_TW = Table(hands("werewolf+traitor", "seer+villager", "villager+villager", "villager+villager"),
                ["villager"], [{"Ken": 2, "Aki": 2}, {"Ken": 2, "Aki": 2}])
LANGS = ["en", "ja"]


@pytest.mark.parametrize("lang", LANGS)
def test_four_players_a_traitor_werewolf_votes_and_panic_spares_them(lang):
    # 4人プレイ時に裏切り人狼が登場した場合、そのプレイヤーは投票権を持つ: 4 votes in each round. The
    # vote's instructions must say so (the rules digest, "Who has no vote"): said once, in one short
    # line with the traitor's lack of a vote, between the call to vote and the count; the rulebook's
    # whole sentence is taught before the night (test_werewolf_rules)
    result, speaker, asker, _ = play(standard_deck(4), FOUR_TW, lang)
    keys = speaker.keys
    assert keys.index("werewolf.vote.intro") + 1 == keys.index("werewolf.vote.four_players")
    assert keys.index("werewolf.vote.four_players") + 1 == keys.index("werewolf.vote.ready")
    assert keys.count("werewolf.vote.four_players") == 1 and "werewolf.vote.four_traitor_werewolf" not in keys
    assert keys.index("werewolf.vote.tie") + 1 == keys.index("werewolf.vote.runoff_four")
    assert result.vote.panic
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Ken", "Mio", "Sora")  # HW-R5
    if lang == "ja":  # the rulebook's words (投票権を持つ); its whole sentence is taught
        texts = [line.text for line in speaker.lines]
        assert "裏切り者に投票権はなく、裏切り人狼は投票権を持ちます。" in texts
        assert "裏切り者は決選投票でも投票権を持ちません。裏切り人狼は投票権を持ちます。" in texts


@pytest.mark.parametrize("lang", LANGS)
def test_four_players_roll_call_warns_and_says_the_traitor_werewolf_votes(lang):
    clock = FakeClock()
    pack = Pack(lang, READINGS)
    answers = ["done"] * 4 + ["Aki", "none", "Aki", "Aki", "werewolf villager", "Ken"]  # Ken: the traitor
    ctx = NightContext(players=NAMES[:4], deck=standard_deck(4), pack=pack, speaker=RecordingSpeaker(clock),
                       asker=ScriptedAsker(answers, clock), clock=clock, controls=ScriptedControls(clock),
                       roll_call=True)
    result = run_night(ctx)
    keys = ctx.speaker.keys
    assert keys.index("werewolf.vote.roll_call_four") + 1 == keys.index("werewolf.vote.four_traitor_werewolf")
    assert result.vote.executed == "Aki" and result.reveal.winning_side == "villagers"
    assert result.reveal.winners == ("Mio", "Sora")


def test_a_runoff_counted_with_other_voters_is_counted_again():
    # HW-R4: the runoff has the same voters as the first round: 3 votes, so after Aki's 2 a
    # count of 2 for Ken is refused at once (at most 1 is left), and counted again
    table = Table(hands("werewolf+villager", "seer+traitor", "villager+villager", "villager+villager"), ["villager"],
                  [{"Aki": 1, "Ken": 1, "Mio": 1}, {"Aki": 2, "Ken": 2}, {"Aki": 2, "Ken": 1}])
    result, speaker, asker, log = play(standard_deck(4), table)
    assert asker.refusals == ["table.out_of_range"]
    assert [e["counts"] for e in log if e["type"] == "vote"][1] == {"Aki": 2, "Ken": 1, "Mio": 0}
    assert result.vote.executed == "Aki" and result.reveal.winning_side == "villagers"


@pytest.mark.parametrize("lang", LANGS)
def test_battle_with_the_dead_warns_the_gravedigger_before_the_swap_and_the_living_win(lang):
    table = Table(hands("werewolf+traitor", "gravedigger+villager", "seer+villager", "villager+villager",
                        "villager+villager", "villager+villager"), ["death", "villager"], [{GRAVEYARD: 4, "Aki": 2}])
    result, speaker, asker, _ = play(standard_deck(6, "dead"), table, lang)
    assert speaker.keys.index("werewolf.death_note") + 1 == speaker.keys.index("werewolf.gravedigger")
    assert result.vote.executed == GRAVEYARD
    assert result.reveal.winning_side == "living"  # 【生者陣営】投票で墓地を選ぶこと
    assert result.reveal.winners == ("Mio", "Sora", "Yui", "Rin")  # 【死神陣営】墓掘り/裏切り者 lose
    # the gravedigger and the traitor, the graveyard (shown) not offered
    assert asker.keys.count("werewolf.reveal.ask_holder_player") == 2


@pytest.mark.parametrize("lang", LANGS)
def test_magicians_night_a_turned_seer_loses_with_the_werewolves_when_the_werewolf_is_executed(lang):
    # 魔術師の夜: the executed hand decides the side, but who saw the magician decides its winners
    table = Table(hands("seer+villager", "werewolf+villager", "magician+villager", "traitor+villager",
                        "gravedigger+villager", "villager+villager"), ["villager", "villager"],
                  [{"Ken": 4, "Aki": 0}], seen=["Aki"])
    result, speaker, asker, _ = play(standard_deck(6, "magician"), table, lang)
    assert "werewolf.vote.magician_turned" in speaker.keys
    assert asker.keys.count("werewolf.reveal.magician_seen") == 1  # Aki
    assert asker.keys.count("werewolf.reveal.magician_more") == 1  # then: anyone else? none
    assert result.reveal.winning_side == "villagers"
    assert result.reveal.winners == ("Mio", "Yui", "Rin")


def test_magicians_night_when_nobody_saw_the_magician_the_side_is_enough():
    table = Table(hands("seer+villager", "werewolf+villager", "magician+villager", "traitor+villager",
                        "gravedigger+villager", "villager+villager"), ["villager", "villager"], [{"Ken": 6}])
    result, speaker, asker, _ = play(standard_deck(6, "magician"), table)
    assert asker.keys.count("werewolf.reveal.magician_seen") == 1
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Aki", "Mio", "Yui", "Rin")
    assert "werewolf.reveal.side_wins" in speaker.keys


def test_magicians_night_a_traitor_werewolf_executed_asks_only_who_saw_the_magician():
    table = Table(hands("werewolf+traitor", "seer+villager", "magician+villager", "villager+villager",
                        "gravedigger+villager", "villager+villager"), ["villager", "villager"], [{"Aki": 6}])
    result, _, asker, _ = play(standard_deck(6, "magician"), table)
    assert asker.keys.count("werewolf.reveal.magician_seen") == 1 and "werewolf.reveal.ask_holder" not in asker.keys
    assert result.reveal.winning_side == "traitor_werewolf" and result.reveal.winners == ("Aki",)


WHOLE_NIGHTS = [
    # (deck, table, executed, winning side, winners)
    (standard_deck(4), Table(hands("werewolf+villager", "seer+traitor", "villager+villager", "villager+villager"),
                             ["villager"], [{"Aki": 3}]), "Aki", "villagers", ("Mio", "Sora")),
    (standard_deck(4), Table(hands("villager+villager", "seer+villager", "werewolf+villager", "traitor+villager"),
                             ["villager"], [{"Aki": 1, "Ken": 1, "Mio": 1}, {"Aki": 1, "Ken": 2}]),
     "Ken", "werewolves", ("Mio", "Sora")),
    (standard_deck(4, swap_ins=["gorilla"]),
     Table(hands("gorilla+villager", "seer+villager", "werewolf+villager", "traitor+villager"),
           ["villager"], [{"Aki": 5}, {"Aki": 3}]), "Aki", "werewolves", ("Mio", "Sora")),  # a recount
    (standard_deck(5), Table(hands("seer+villager", "werewolf+villager", "traitor+villager", "gravedigger+villager",
                                   "villager+villager"), ["villager", "villager"],
                             [{"Aki": 2, "Ken": 2, "Mio": 1}, {"Aki": 2, "Ken": 3}]), "Ken", "villagers",
     ("Aki", "Sora", "Yui")),
    (standard_deck(5), Table(hands("seer+villager", "werewolf+villager", "traitor+villager", "gravedigger+villager",
                                   "villager+villager"), ["villager", "villager"],
                             [{"Aki": 1, "Ken": 1, "Mio": 1, "Sora": 1, "Yui": 1}, {"Aki": 2, "Ken": 2, "Mio": 1}]),
     None, "werewolves", ("Ken", "Mio")),  # panic: five votes tie only among five
    (standard_deck(6), Table(hands("seer+werewolf", "traitor+villager", "gravedigger+villager", "villager+villager",
                                   "villager+villager", "villager+villager"), ["villager", "villager"],
                             [{GRAVEYARD: 6}]), GRAVEYARD, "werewolves", ("Aki", "Ken")),  # 注意1: a werewolf seer
    (standard_deck(6, swap_ins=["angel", "apprentice"]),
     Table(hands("angel+villager", "apprentice+villager", "werewolf+traitor", "seer+villager",
                 "gravedigger+villager", "villager+villager"), ["villager", "villager"],
           [{"Mio": 5}]), "Mio", "traitor_werewolf", ("Mio",)),  # a revealed angel did not vote
    (standard_deck(6, "magician"),
     Table(hands("seer+villager", "werewolf+villager", "magician+villager", "traitor+villager",
                 "gravedigger+villager", "villager+villager"), ["villager", "villager"],
           [{"Mio": 2, "Ken": 2}, {"Mio": 3, "Ken": 1}], seen=["Aki", "Yui"]),
     "Mio", "werewolves", ("Aki", "Ken", "Sora", "Yui")),  # both turned, neither votes
    (standard_deck(6, "dead"),
     Table(hands("seer+villager", "werewolf+villager", "traitor+villager", "gravedigger+villager",
                 "villager+villager", "villager+villager"), ["death", "villager"],
           [{"Aki": 3, "Ken": 3}, {"Aki": 3, "Ken": 3}]), None, "dead", ("Mio", "Sora")),
]


@pytest.mark.parametrize("lang", [*LANGS, "ko"])
@pytest.mark.parametrize("deck, table, executed, side, winners", WHOLE_NIGHTS)
def test_whole_nights(lang, deck, table, executed, side, winners):
    result, speaker, _, _ = play(deck, table, lang)
    assert result.vote.executed == executed and result.vote.panic == (executed is None)
    assert result.reveal.winning_side == side
    assert result.reveal.winners == winners
    assert "werewolf.reveal.miscount_over" not in speaker.keys and "werewolf.reveal.miscount_under" not in speaker.keys
    assert speaker.keys[-1] == "werewolf.goodnight"


@pytest.mark.parametrize("lang", [*LANGS, "ko"])
def test_a_total_the_revealed_traitor_makes_impossible_is_said_and_the_verdict_stands(lang):
    # 4人プレイの場合、裏切り者に投票権はない: four fingers with a lone traitor is a miscount
    table = Table(hands("werewolf+villager", "seer+villager", "villager+villager", "traitor+villager"),
                  ["villager"], [{"Aki": 4}])
    result, speaker, _, log = play(standard_deck(4), table, lang)
    found = {"counted": 4, "low": 3, "high": 3, "no_vote": [{"reason": "traitor", "name": "Sora"}],
             "verdict_stands": True, "ruling": "HW-R8"}
    assert [e for e in log if e["type"] == "miscount"] == [{"type": "miscount", **found}]
    # HW-R8: said right with the verdict, in the same place in the log, and the verdict stands
    keys = speaker.keys
    assert keys.index("werewolf.reveal.miscount_over") == keys.index("werewolf.verdict.werewolf_executed") + 1
    line = speaker.lines[keys.index("werewolf.reveal.miscount_over")]
    assert "HW-R8" in line.text and "HW-R8" not in line.spoken
    assert STANDS[lang] in line.text and SAID_STANDS[lang] in line.spoken
    assert [e["miscount"] for e in log if e["type"] == "verdict"] == [found]
    assert result.reveal.winning_side == "villagers" and result.reveal.winners == ("Ken", "Mio")


STANDS = {"en": "The verdict stands", "ja": "判定はこのままです", "ko": "판정은 그대로입니다"}
SAID_STANDS = {**STANDS, "ja": "はんていわ このままです"}


def test_a_total_above_the_turned_seers_votes_is_a_miscount():
    # 魔術師によって人狼陣営に変わったプレイヤーは、投票権を持ちません
    table = Table(hands("seer+villager", "werewolf+villager", "magician+villager", "traitor+villager",
                        "gravedigger+villager", "villager+villager"), ["villager", "villager"],
                  [{"Ken": 6}], seen=["Aki"])
    result, speaker, _, log = play(standard_deck(6, "magician"), table)
    line = speaker.lines[speaker.keys.index("werewolf.reveal.miscount_over")]
    assert key_and_fields(line) == ("werewolf.reveal.miscount_over",
                          {"counted": 6, "why": [("werewolf.reveal.no_vote_turned", {"name": "Aki"})]})
    assert [e["high"] for e in log if e["type"] == "miscount"] == [5]
    assert [e["miscount"]["verdict_stands"] for e in log if e["type"] == "verdict"] == [True]
    assert STANDS["en"] in line.text and "(HW-R8)" in line.text


def test_a_four_player_traitor_werewolf_votes_so_four_is_no_miscount():
    result, speaker, _, log = play(standard_deck(4), FOUR_TW)
    assert not [e for e in log if e["type"] == "miscount"]
    assert [e["miscount"] for e in log if e["type"] == "verdict"] == [None]


@pytest.mark.parametrize("lang", [*LANGS, "ko"])
def test_a_player_who_could_not_have_seen_the_magician_is_refused(lang):
    # HW-R7: Sora holds traitor + villager, the seer and the gravedigger are in other hands
    table = Table(hands("seer+villager", "werewolf+villager", "magician+villager", "traitor+villager",
                        "gravedigger+villager", "villager+villager"), ["villager", "villager"],
                  [{"Ken": 4}], seen=["Sora"])
    result, speaker, asker, log = play(standard_deck(6, "magician"), table, lang)
    refused = [e for e in log if e["type"] == "answer_refused"]
    assert len(refused) == 1 and "Sora could not have seen the magician" in refused[0]["error"]
    assert "werewolf.reveal.refused" in speaker.keys
    assert asker.keys.count("werewolf.reveal.magician_seen") == 2 and "werewolf.reveal.magician_more" not in asker.keys
    assert result.reveal.winners == ("Aki", "Mio", "Yui", "Rin")  # Sora is no seer: the traitor still loses
