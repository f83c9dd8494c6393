"""A toy patience that exists only in the tests: the proof that a game is declared in one
place. Registering it (``registered``) is all it takes to deal, play and solve it from the
command line, the API and the browser; no line outside this module names it.

The Ace to 9 of every suit start on the foundations; the Tens to Kings lie face up in
four piles of four. Build down regardless of suit, one card at a time; a King fills an
empty pile.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from patience.cards import KING, RANK, SUIT, make_card, pysol_order
from patience.games import GAMES, register
from patience.position import Position
from patience.rules import ANY_SUIT, IN_SUIT, Game
from patience.rules.declare import help_of

NAME = "toy-court"


class ToyCourt(Game):
    """Court cards only: four piles of Tens to Kings over nearly full foundations."""

    name = NAME
    title = "Toy Court"
    tableau_piles = 4
    has_stock = False
    max_run = 1
    tableau_build = ANY_SUIT
    foundation_build = IN_SUIT
    score_offset = 36
    help = help_of(
        "A toy game of the tests.",
        ("Setup", ["The Ace to the 9 of every suit start on the foundations."]),
        ("Goal", ["Bring the court cards home."]),
        ("Rules", ["Build down, any suit.", "A King fills an empty pile."]),
        ("Scoring", ["One point for each card on the foundations; 52 means you have won."]),
        ("Options", ["This game has no options."]),
        (
            "Tips",
            [
                "Send a card home as soon as it can go.",
                "Double-click a card to send it.",
                "Undo costs nothing: try a line and take it back.",
            ],
        ),
        (
            "Strategy",
            [
                "Free the Tens first: every suit waits for its Ten.",
                "Keep a pile empty for a King.",
                "Never bury a Ten under a court card.",
            ],
        ),
    )
    messages = {
        "es": {
            "Toy Court": "Corte de juguete",
            "The Ace to the 9 of every suit start on the foundations.": (
                "Del As al 9 de cada palo empiezan en las fundaciones."
            ),
            "Bring the court cards home.": "Lleva a casa las figuras y los dieces.",
            "A toy game of the tests.": "Un juego de juguete de las pruebas.",
            "Build down, any suit.": "Construye hacia abajo, de cualquier palo.",
            "A King fills an empty pile.": "Un Rey ocupa una pila vacía.",
            "Send a card home as soon as it can go.": "Envía una carta a casa en cuanto pueda ir.",
            "Double-click a card to send it.": "Haz doble clic en una carta para enviarla.",
            "Undo costs nothing: try a line and take it back.": (
                "Deshacer no cuesta nada: prueba una jugada y vuelve atrás."
            ),
            "Free the Tens first: every suit waits for its Ten.": (
                "Libera primero los Dieces: cada palo espera a su Diez."
            ),
            "Keep a pile empty for a King.": "Guarda una pila vacía para un Rey.",
            "Never bury a Ten under a court card.": "Nunca entierres un Diez bajo una figura.",
        },
        "fr": {
            "Toy Court": "Cour jouet",
            "The Ace to the 9 of every suit start on the foundations.": (
                "L'As au 9 de chaque couleur commencent sur les fondations."
            ),
            "Bring the court cards home.": "Montez les figures et les dix.",
            "A toy game of the tests.": "Un jeu jouet des tests.",
            "Build down, any suit.": "Construisez en descendant, toutes couleurs.",
            "A King fills an empty pile.": "Un Roi occupe une pile vide.",
            "Send a card home as soon as it can go.": "Envoyez une carte dès qu'elle peut monter.",
            "Double-click a card to send it.": "Double-cliquez une carte pour l'envoyer.",
            "Undo costs nothing: try a line and take it back.": (
                "Annuler ne coûte rien\u00a0: essayez un coup et revenez en arrière."
            ),
            "Free the Tens first: every suit waits for its Ten.": (
                "Libérez d'abord les Dix\u00a0: chaque couleur attend son Dix."
            ),
            "Keep a pile empty for a King.": "Gardez une pile vide pour un Roi.",
            "Never bury a Ten under a court card.": "N'enterrez jamais un Dix sous une figure.",
        },
    }

    def layout(self, deal: int) -> Position:
        """Aces to 9s home by suit; the rest of deal ``deal``'s shuffle in rows of four."""
        home = tuple(tuple(make_card(r, s) for r in range(1, 10)) for s in range(4))
        rest = [c for c in pysol_order(deal) if RANK[c] >= 10]
        tableau = tuple(tuple(rest[i::4]) for i in range(4))
        foundations = tuple(sorted(home, key=lambda f: SUIT[f[0]]))
        return Position(self.name, self.options, deal, (), (), foundations, tableau, (0,) * 4, ())

    def empty_rank(self, p: Position) -> int | None:
        """A King fills an empty pile."""
        return KING


@contextmanager
def registered() -> Iterator[type[Game]]:
    """The toy game, registered for the duration of the block (the tests' conftest
    registers it for the whole run: then the block changes nothing)."""
    added = NAME not in GAMES
    if added:
        register(ToyCourt)
    try:
        yield ToyCourt
    finally:
        if added:
            GAMES.pop(NAME, None)


@contextmanager
def unregistered() -> Iterator[None]:
    """The registry without the toy game, for the duration of the block."""
    game = GAMES.pop(NAME, None)
    try:
        yield
    finally:
        if game is not None:
            GAMES[NAME] = game
