"""``GET /api/messages/{lang}``: a language's translation catalog, for the front end."""

from __future__ import annotations

from fastapi import APIRouter, Path
from fastapi.responses import Response
from pydantic import TypeAdapter

from ... import i18n
from ...i18n import _
from ..api_models import Messages
from ..deps import MessageReplies
from ..errors import ERRORS
from ..service import ApiError

router = APIRouter(prefix="/api", responses=ERRORS)

messages_json = TypeAdapter(Messages)


@router.get("/messages/{lang}", response_model=Messages)
async def messages(
    replies: MessageReplies,
    lang: str = Path(json_schema_extra={"enum": list(i18n.LANGUAGES)}),
) -> Response:
    """The translation catalog of a language, for the front end."""
    known = i18n.LANGUAGES
    if lang not in known:
        raise ApiError(
            404,
            "unknown_language",
            _("Unknown language {lang} (known: {known})"),
            lang=lang[:20],
            known=", ".join(known),
        )
    # The page asks at every load; a catalog does not change while the server runs.
    if lang not in replies:
        replies[lang] = messages_json.dump_json(
            messages_json.validate_python(i18n.catalog_json(lang))
        )
    return Response(replies[lang], media_type="application/json")
