"""Interface strings of the generated pages, per language (card text itself lives in the cards).

Kept in one table so templates stay free of language conditionals and a third language is one
new column here.
"""

from __future__ import annotations

LANGUAGE_NAMES = {"en": "English", "es": "Español"}

# The order a reader meets the categories in (home, navigation): what every number is measured
# against, the measures from the simplest to the rank-aware ones, how per-query values become
# one number, then the neighbouring fields.
CATEGORY_ORDER = (
    "ground-truth",
    "set-based",
    "rank-aware",
    "statistics",
    "rag-diversity",
    "index-benchmarking",
)

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

# One sentence per category, under its title on the home and category pages.
CATEGORY_INTROS = {
    "en": {
        "ground-truth": (
            "What every number is measured against: the judgments and how they are made."
        ),
        "set-based": "Measures of the set of the top k results, whatever their order within it.",
        "rank-aware": (
            "Measures that reward putting the relevant (or the most relevant) results first."
        ),
        "rag-diversity": (
            "Measures for retrieval-augmented generation and for diverse result lists."
        ),
        "statistics": "How per-query values become one figure, and how far to trust it.",
        "index-benchmarking": "Vector indexes: agreement with exact search against speed.",
    },
    "es": {
        "ground-truth": (
            "Aquello contra lo que se mide cada número: los juicios y cómo se obtienen."
        ),
        "set-based": ("Medidas del conjunto de los k primeros resultados, sea cual sea su orden."),
        "rank-aware": (
            "Medidas que premian poner primero los resultados relevantes (o los más relevantes)."
        ),
        "rag-diversity": (
            "Medidas para la generación aumentada por recuperación y para listas diversas."
        ),
        "statistics": (
            "Cómo se convierten los valores por consulta en una cifra, y cuánto fiarse de ella."
        ),
        "index-benchmarking": (
            "Índices vectoriales: coincidencia con la búsqueda exacta frente a velocidad."
        ),
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
        "glossary_intro": "All {count} concepts, in alphabetical order.",
        "cards_count": "{count} cards",
        "cards_count_one": "1 card",
        "see": "see",
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
        "glossary_intro": "Los {count} conceptos, en orden alfabético.",
        "cards_count": "{count} tarjetas",
        "cards_count_one": "1 tarjeta",
        "see": "véase",
    },
}
