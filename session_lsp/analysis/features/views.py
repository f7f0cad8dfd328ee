"""The link models as features read them: None when the document is of another format (or has no model)."""

from __future__ import annotations

from ..detect import Kind
from ..document import Document
from ..elyra.model import ElyraModel
from ..thndrs.model import ThndrsModel


def thndrs_model(doc: Document) -> ThndrsModel | None:
    model = doc.linked.model
    return model if doc.format.kind is Kind.THNDRS and isinstance(model, ThndrsModel) else None


def elyra_view(doc: Document) -> ElyraModel | None:
    model = doc.linked.model
    return model if doc.format.kind is Kind.ELYRA and isinstance(model, ElyraModel) else None


def child_count(model: ElyraModel, line: int) -> int:
    return len(model.children(line))


def entry_label(model: ElyraModel, line: int) -> str | None:
    """The label pi shows on this entry (the latest label entry naming its id), if any."""
    entry_id = model.entry_id(line)
    if entry_id is None:
        return None
    found = model.labels.get(entry_id)
    return found[0] if found is not None and model.by_id.get(entry_id) == line else None
