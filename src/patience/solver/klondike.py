"""Search adapter for klondike."""

from __future__ import annotations

from .base import Adapter


class KlondikeAdapter(Adapter):
    """Placeholder: the generic adapter."""
