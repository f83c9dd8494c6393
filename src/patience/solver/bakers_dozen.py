"""Search adapter for bakers_dozen."""

from __future__ import annotations

from .base import Adapter


class BakersDozenAdapter(Adapter):
    """Placeholder: the generic adapter."""
