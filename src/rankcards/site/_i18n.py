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
        "decimal_note": "",
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
        # One statement per page of the house convention, so no card has to repeat it.
        "decimal_note": "Los decimales se escriben con punto (0.5), como los imprime Python.",
    },
}

# Every string of the exercise block ("Practice"), the page's and the script's (web/exercise.js
# reads them from the block's JSON, the glossary's solved mark from a data attribute): one
# table, so the two languages are kept side by side. "{...}" are filled by the script.
EXERCISE_STRINGS = {
    "en": {
        "practice": "Practice",
        "note": (
            "The checks run in your browser, and their cases and code can be read there: this "
            "is practice, not an exam. Nothing you write leaves this page."
        ),
        "signature": "Function to write:",
        "check": "Check",
        "stop": "Stop",
        "reset": "Reset",
        "hint": "Hint ({n} of {total})",
        "hints_done": "No more hints",
        "hints": "Hints",
        "show_solution": "Show the solution",
        "solution": "Solution",
        "editor": "Your answer, editable Python. Ctrl+Enter checks it; Escape then Tab leaves "
        "the editor.",
        "checking": "Checking…",
        "pass": "Right: your function gives the reference's value on all {total} cases "
        "({named} edge cases and {random} random rankings).",
        "fail_named": "Wrong value on the case “{name}” ({passed_before}).",
        "fail_random": "Wrong value on random ranking {number} of {count} ({passed_before}).",
        # {passed_before}, chosen by Intl.PluralRules: "one" for 1, "other" otherwise
        "passed_before_one": "{passed} case passed before it",
        "passed_before_other": "{passed} cases passed before it",
        "error_named": "Your function raised an exception on the case “{name}”.",
        "error_random": "Your function raised an exception on random ranking {number} of {count}.",
        "error_load": "Your code does not run, or does not define {function}:",
        "call": "Call",
        "expected": "Expected",
        "got": "Your value",
        "printed": "Printed",
        "stopped": "Stopped.",
        "timeout": "Stopped: the check exceeded the {s} s time limit.",
        "crashed": "The Python runtime crashed (out of memory?); it has been restarted.",
        "broken": "The check itself failed:",
        "stuck": "Stuck? Unlock a hint, or show the solution.",
        "solved": "Solved",
        "solved_note": "You solved this exercise (remembered in this browser).",
    },
    "es": {
        "practice": "Practica",
        "note": (
            "Las comprobaciones se ejecutan en tu navegador, y sus casos y su código se pueden "
            "leer ahí: es práctica, no un examen. Nada de lo que escribas sale de esta página."
        ),
        "signature": "Función que debes escribir:",
        "check": "Comprobar",
        "stop": "Detener",
        "reset": "Restablecer",
        "hint": "Pista ({n} de {total})",
        "hints_done": "No hay más pistas",
        "hints": "Pistas",
        "show_solution": "Ver la solución",
        "solution": "Solución",
        "editor": "Tu respuesta, código Python editable. Ctrl+Enter la comprueba; Escape y "
        "luego Tab sale del editor.",
        "checking": "Comprobando…",
        "pass": "Correcto: tu función da el valor de la referencia en los {total} casos "
        "({named} casos límite y {random} rankings aleatorios).",
        "fail_named": "Valor incorrecto en el caso «{name}» ({passed_before}).",
        "fail_random": "Valor incorrecto en el ranking aleatorio {number} de {count} "
        "({passed_before}).",
        "passed_before_one": "antes pasó {passed} caso",
        "passed_before_other": "antes pasaron {passed} casos",
        "error_named": "Tu función lanzó una excepción en el caso «{name}».",
        "error_random": "Tu función lanzó una excepción en el ranking aleatorio {number} de "
        "{count}.",
        "error_load": "Tu código no se ejecuta o no define {function}:",
        "call": "Llamada",
        "expected": "Esperado",
        "got": "Tu valor",
        "printed": "Imprimió",
        "stopped": "Detenido.",
        "timeout": "Detenido: la comprobación superó el límite de {s} s.",
        "crashed": "El entorno de Python falló (¿sin memoria?); se ha reiniciado.",
        "broken": "La propia comprobación falló:",
        "stuck": "¿Te has atascado? Desbloquea una pista o mira la solución.",
        "solved": "Resuelto",
        "solved_note": "Has resuelto este ejercicio (se recuerda en este navegador).",
    },
}
