"""One format's link model, for the features that still read a format's own model rather than `results.LinkModel`
(completion, values, snippets, payloads): None when the document is of another format or has no model."""

from __future__ import annotations

from ..document import Document
from ..elyra.model import ElyraModel
from ..thndrs.model import ThndrsModel


def thndrs_model(doc: Document) -> ThndrsModel | None:
    model = doc.linked.model
    return model if isinstance(model, ThndrsModel) else None


def elyra_view(doc: Document) -> ElyraModel | None:
    model = doc.linked.model
    return model if isinstance(model, ElyraModel) else None
