"""``python -m tinyc.solver`` runs the ``tinyc-solver`` command."""
import sys

from .cli import main

sys.exit(main())
