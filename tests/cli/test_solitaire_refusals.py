"""Every refusal of the 7th Sense Training rules can be said in every language: a key under the
packs' `errors.solitaire`, whose English line is the refusal's own message."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gm.cli import app
from gm.text.lines import Pack
from scorer.solitaire.cards import card_of
from scorer.solitaire.deal import Deal, check_seed, deal_from_seed
from scorer.solitaire.layout import pyramid
from scorer.solitaire.moves import move_from_json
from scorer.solitaire.policies import policy_named
from scorer.solitaire.refusal import SolitaireRefusal

DEAL = deal_from_seed(0, 3)
REFUSALS = {
    "no_number_card": lambda: card_of(14, "fire"),
    "deal_size": lambda: Deal(3, DEAL.pyramid[:5], DEAL.stock, DEAL.specials),
    "deal_cards": lambda: Deal(3, DEAL.pyramid, DEAL.stock[:-1] + DEAL.pyramid[:1], DEAL.specials),
    "deal_specials": lambda: Deal(3, DEAL.pyramid, DEAL.stock, ("owl",) * 8),
    "seed_not_whole": lambda: check_seed("7"),
    "seed_negative": lambda: check_seed(-4),
    "rows": lambda: pyramid(12),
    "unknown_element": lambda: move_from_json({"move": "owl", "position": 1, "card": {"rank": 3, "element": "ice"}}),
    "bad_move": lambda: move_from_json({"move": "jump"}),
    "unknown_policy": lambda: policy_named("lucky"),
}


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_refusal_has_its_line_in_every_pack(key):
    with pytest.raises(SolitaireRefusal) as caught:
        REFUSALS[key]()
    error = caught.value
    assert error.key == f"solitaire.{key}"
    assert Pack("en").error(error) == str(error)
    for lang in ("ja", "ko"):
        assert Pack(lang).has(f"errors.{error.key}") and Pack(lang).error(error) != str(error), lang


def test_a_negative_seed_is_refused_in_the_players_language():
    result = CliRunner().invoke(app, ["solitaire", "play", "--seed", "-1", "--lang", "ja", "--speech", "off"], input="")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "gm: シードは 0 以上です (-1 ではなく。負のシードは 1 と同じ配り方になります。SS-R5)\n"
