"""The judge as the rules' tests call it: cards written by id, read at this edge into the `Card`s
the judge takes; a word that is no card's id is passed as written (the judge refuses it)."""

from scorer.werewolf.cards import BY_ID
from scorer.werewolf.judge import judge as judge_cards


def judge(players, hands, graveyard, *args, **kwargs):
    def cards(ids):
        return [BY_ID.get(card, card) for card in ids]

    return judge_cards(players, {name: cards(held) for name, held in hands.items()}, cards(graveyard),
                       *args, **kwargs)
