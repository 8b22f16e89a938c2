"""RQ jobs: plain functions taking ids, failing loudly, idempotent (ARCHITECTURE.md)."""
