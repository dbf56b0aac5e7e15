"""Sub-commands of the `rankcards` CLI (see rankcards.cli)."""
