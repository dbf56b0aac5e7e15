"""Interface strings of the generated pages, per language (card text itself lives in the cards).

Kept in one table so templates stay free of language conditionals and a third language is one
new column here.
"""

from __future__ import annotations

LANGUAGE_NAMES = {"en": "English", "es": "Español"}

CATEGORY_TITLES = {
    "en": {
        "ground-truth": "Ground truth & setup",
        "set-based": "Set-based measures",
        "rank-aware": "Rank-aware measures",
        "rag-diversity": "RAG & diversity",
        "statistics": "Statistics",
        "index-benchmarking": "Index benchmarking",
    },
    "es": {
        "ground-truth": "Verdad de referencia y preparación",
        "set-based": "Medidas de conjunto",
        "rank-aware": "Medidas sensibles al orden",
        "rag-diversity": "RAG y diversidad",
        "statistics": "Estadística",
        "index-benchmarking": "Benchmarking de índices",
    },
}

STRINGS = {
    "en": {
        "home": "Home",
        "categories": "Categories",
        "category": "Category",
        "glossary": "Glossary A-Z",
        "evaluate": "Evaluate your own run",
        "definition": "Definition",
        "key_points": "Key points & applications",
        "intuition": "Visual intuition",
        "formula": "Formula",
        "example": "Try it in Python",
        "demo": "Interactive visualizer",
        "gotchas": "Gotchas & variants",
        "related": "Related concepts",
        "referenced_by": "Referenced by",
        "references": "References",
        "no_cards": "No cards in this category yet.",
        "cards_in_category": "Cards in this category",
        "glossary_intro": "Every concept, in alphabetical order.",
    },
    "es": {
        "home": "Inicio",
        "categories": "Categorías",
        "category": "Categoría",
        "glossary": "Glosario A-Z",
        "evaluate": "Evalúa tu ejecución",
        "definition": "Definición",
        "key_points": "Puntos clave y aplicaciones",
        "intuition": "Intuición visual",
        "formula": "Fórmula",
        "example": "Pruébalo en Python",
        "demo": "Visualizador interactivo",
        "gotchas": "Trampas y variantes",
        "related": "Conceptos relacionados",
        "referenced_by": "Citada por",
        "references": "Referencias",
        "no_cards": "Aún no hay tarjetas en esta categoría.",
        "cards_in_category": "Tarjetas de esta categoría",
        "glossary_intro": "Todos los conceptos, en orden alfabético.",
    },
}
