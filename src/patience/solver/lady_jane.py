"""Search adapter for lady_jane."""

from __future__ import annotations

from .base import Adapter


class LadyJaneAdapter(Adapter):
    """Placeholder: the generic adapter."""
