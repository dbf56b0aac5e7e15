"""Every word the measure lab shows, in both languages, in one place.

The lab (:mod:`rankcards.viz.lab`) serves every metric card, so its interface strings live here
rather than in each view: a translator reviews one file, and a new measure needs no new words
unless it reports a new named intermediate (add its label to ``DETAIL``; an unknown key is shown
as written, which a test flags). Numbers are written with the decimal point in both languages.

>>> sorted(VIEW) == ["en", "es"] and set(VIEW["en"]) == set(VIEW["es"])
True
"""

from __future__ import annotations

from typing import Final

Bilingual = dict[str, str]

#: labels and help of the generated controls: {key: {es, en}} (the demo contract's shape)
CONTROL_TEXT: Final[dict[str, Bilingual]] = {
    "k": {"es": "Corte k", "en": "Cutoff k"},
    "queries_binary": {
        "es": "Rankings de las consultas (marca los relevantes)",
        "en": "The queries' rankings (mark the relevant documents)",
    },
    "queries_graded": {
        "es": "Rankings de las consultas (grado de relevancia 0-3)",
        "en": "The queries' rankings (relevance grade 0-3)",
    },
    "queries_help": {
        "es": "Todo documento listado está juzgado: sin marca es un juicio de no relevancia (0).",
        "en": "Every listed document is judged: an unmarked one is judged not relevant (0).",
    },
    "show_ties": {"es": "Empates de puntuación", "en": "Tied scores"},
    "show_ties_help": {
        "es": "Da la misma puntuación a dos documentos contiguos y compara cómo se deshace el "
        "empate: trec_eval los ordena por docno descendente, no por su lugar en la ejecución.",
        "en": "Give two adjacent documents the same score and compare how the tie is broken: "
        "trec_eval orders them by docno descending, not by their place in the run.",
    },
    "show_gain": {"es": "Ganancia lineal o exponencial", "en": "Linear or exponential gain"},
    "show_gain_help": {
        "es": "trec_eval usa el grado como ganancia (g); gdeval usa 2^g - 1, que premia más "
        "los documentos muy relevantes.",
        "en": "trec_eval uses the grade as the gain (g); gdeval uses 2^g - 1, which rewards "
        "highly relevant documents more.",
    },
    "show_cutoff": {"es": "Corte en k o lista completa", "en": "Cutoff at k or whole list"},
    "show_cutoff_help": {
        "es": "Compara la medida cortada en k con la misma medida sobre todo el ranking.",
        "en": "Compare the measure cut at k with the same measure over the whole ranking.",
    },
    "show_averaging": {
        "es": "Consultas sin resultados en la media",
        "en": "Queries with no results in the mean",
    },
    "show_averaging_help": {
        "es": "Una consulta juzgada para la que la ejecución no devuelve nada: trec_eval 9.x "
        "la omite de la media (la 10.0 se detiene con un error) y -c la cuenta como 0.",
        "en": "A judged query for which the run returns nothing: trec_eval 9.x leaves it out "
        "of the mean (10.0 stops with an error) and -c counts it as 0.",
    },
}

#: the view's own words, per language
VIEW: Final[dict[str, dict[str, str]]] = {
    "en": {
        "per_query": "{measure} per query",
        "query": "Query",
        "value": "Value",
        "terms_button": "Show the terms of {query}",
        "terms_short": "terms",
        "not_in_run": "not in the run",
        "absent_button": "{query}: the run returns nothing",
        "absent_short": "no results",
        "terms_caption": "{measure} for {query}, rank by rank",
        "rank": "Rank",
        "document": "Document",
        "grade": "Grade",
        "term": "Term",
        "contribution": "Adds",
        "unjudged": "unjudged",
        "no_steps": "The run returns no document for {query}: its value is 0.",
        "ideal_caption": "The ideal ranking of {query} (all judged documents by grade)",
        "query_formula": "{measure}({query}) = ",
        "mean_formula": "mean {measure} = ",
        "no_mean": "No query is both in the run and in the judgments: there is nothing to average.",
        "scores": "Scores of {query} (press = to tie two adjacent documents)",
        "tie_button": "Tie {upper} and {lower} (ranks {rank} and {next})",
        "tie_note": "Tied documents are ordered by docno descending (trec_eval): {order}.",
        "conventions": "Conventions side by side (mean over queries)",
        "ties_trec": "trec_eval ties (docno descending)",
        "ties_run": "run order",
        "gain_linear": "linear gain g (trec_eval)",
        "gain_exp": "exponential gain 2^g - 1 (gdeval)",
        "cutoff_k": "cut at k = {k}",
        "cutoff_all": "whole list",
        "avg_run": "queries in both the run and the qrels (trec_eval 9.x)",
        "avg_all": "every qrels query (-c, ir_measures)",
        "over": "over {n} queries",
    },
    "es": {
        "per_query": "{measure} por consulta",
        "query": "Consulta",
        "value": "Valor",
        "terms_button": "Ver los términos de {query}",
        "terms_short": "términos",
        "not_in_run": "fuera de la ejecución",
        "absent_button": "{query}: la ejecución no devuelve nada",
        "absent_short": "sin resultados",
        "terms_caption": "{measure} de {query}, posición a posición",
        "rank": "Posición",
        "document": "Documento",
        "grade": "Grado",
        "term": "Término",
        "contribution": "Aporta",
        "unjudged": "sin juzgar",
        "no_steps": "La ejecución no devuelve ningún documento para {query}: su valor es 0.",
        "ideal_caption": "El ranking ideal de {query} (los documentos juzgados, por grado)",
        "query_formula": "{measure}({query}) = ",
        "mean_formula": "media de {measure} = ",
        "no_mean": "Ninguna consulta está a la vez en la ejecución y en los juicios: no hay nada "
        "que promediar.",
        "scores": "Puntuaciones de {query} (pulsa = para empatar dos documentos contiguos)",
        "tie_button": "Empatar {upper} y {lower} (posiciones {rank} y {next})",
        "tie_note": "Los documentos empatados se ordenan por docno descendente (trec_eval): "
        "{order}.",
        "conventions": "Convenciones lado a lado (media sobre las consultas)",
        "ties_trec": "empates de trec_eval (docno descendente)",
        "ties_run": "orden de la ejecución",
        "gain_linear": "ganancia lineal g (trec_eval)",
        "gain_exp": "ganancia exponencial 2^g - 1 (gdeval)",
        "cutoff_k": "corte en k = {k}",
        "cutoff_all": "lista completa",
        "avg_run": "consultas de la ejecución y de los qrels (trec_eval 9.x)",
        "avg_all": "todas las consultas de los qrels (-c, ir_measures)",
        "over": "sobre {n} consultas",
    },
}

#: column headers for the named intermediates measures report in ``Step.detail``
DETAIL: Final[dict[str, dict[str, str]]] = {
    "en": {
        "precision": "Precision at this rank",
        "seen": "Relevant so far",
        "gain": "Gain",
        "discount": "Discount",
        "dcg": "DCG so far",
        "nonrel_above": "Non-relevant above",
        "stop": "Stop probability",
        "weight": "Weight",
        "recall": "Recall at this rank",
        "relevant": "Relevant",
        "rank": "Rank of the first relevant",
        "count": "Counts",
        "reach": "Probability of reaching it",
    },
    "es": {
        "precision": "Precisión en esta posición",
        "seen": "Relevantes hasta aquí",
        "gain": "Ganancia",
        "discount": "Descuento",
        "dcg": "DCG acumulada",
        "nonrel_above": "No relevantes por encima",
        "stop": "Probabilidad de parar",
        "weight": "Peso",
        "recall": "Exhaustividad en esta posición",
        "relevant": "Relevante",
        "rank": "Posición del primer relevante",
        "count": "Cuenta",
        "reach": "Probabilidad de llegar",
    },
}

#: names of the scalars in ``Explanation.quantities``, shown beside their symbol
QUANTITY: Final[dict[str, dict[str, str]]] = {
    "en": {
        "R": "relevant judged documents",
        "relevant_retrieved": "relevant retrieved",
        "k": "cutoff",
        "IDCG": "ideal DCG",
        "DCG": "DCG",
        "N": "non-relevant judged documents",
        "min(N,R)": "the smaller of N and R",
        "p": "persistence",
        "scale": "highest grade, which scales the gains",
        "first_relevant_rank": "rank of the first relevant document",
        "P": "precision at k",
        "recall": "recall level",
        "relevant_needed": "relevant documents needed to reach that recall",
        "best_rank": "highest rank with that recall or more, best precision",
        "max_grade": "grade scale maximum (gdeval)",
        "reach_end": "probability of reading past the last rank",
        "judged": "judged documents in the top k",
        "depth": "documents read",
    },
    "es": {
        "R": "documentos relevantes juzgados",
        "relevant_retrieved": "relevantes recuperados",
        "k": "corte",
        "IDCG": "DCG ideal",
        "DCG": "DCG",
        "N": "documentos no relevantes juzgados",
        "min(N,R)": "el menor de N y R",
        "p": "persistencia",
        "scale": "grado máximo, que escala las ganancias",
        "first_relevant_rank": "posición del primer documento relevante",
        "P": "precisión en k",
        "recall": "nivel de exhaustividad",
        "relevant_needed": "relevantes necesarios para alcanzar esa exhaustividad",
        "best_rank": "posición con esa exhaustividad o más y la mejor precisión",
        "max_grade": "grado máximo de la escala (gdeval)",
        "reach_end": "probabilidad de seguir leyendo tras la última posición",
        "judged": "documentos juzgados en el top k",
        "depth": "documentos leídos",
    },
}
