"""Search adapter for hopscotch."""

from __future__ import annotations

from .base import Adapter


class HopscotchAdapter(Adapter):
    """Placeholder: the generic adapter."""
