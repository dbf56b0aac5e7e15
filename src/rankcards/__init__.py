"""rankcards: retrieval & ranking evaluation concept cards, computed by a trec_eval-exact module."""

# The single source of the version: pyproject.toml reads it, the site shows it, and the
# browser runtime checks that the module it loaded carries the same one.
__version__ = "0.1.0"

__all__ = ["__version__"]
