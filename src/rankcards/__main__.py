"""`python -m rankcards` runs the command-line interface."""

from rankcards.cli import main

raise SystemExit(main())
