"""The week's tournament (issue 42, docs/EVENTS.md): its identity and commitments, duplicate
scoring against the field, the incremental standings' store."""
