"""The site: a generator from rendered cards to pages, and the thin MkDocs plugin around it."""

from rankcards.site.generator import Page, generate, navigation, template_environment

__all__ = ["Page", "generate", "navigation", "template_environment"]
