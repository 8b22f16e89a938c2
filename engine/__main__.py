"""``python -m engine`` (FORMATS.md F7)."""

import sys

from engine.cli import main

sys.exit(main())
